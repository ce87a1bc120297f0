#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "floe/sql/exec/aggregate_index_internal.h"

namespace floe::sql::exec {
namespace {

// Keys are integers; the hash is deliberately poor (few distinct values) so that long clusters
// form and erasing from their middle exercises the backward shift. std::unordered_map is the
// reference for which keys are present and which id each has.
TEST(HashIndexTest, MatchesAMapThroughInsertsAndErases) {
  HashIndex index;
  std::vector<uint64_t> key_of_id;
  std::unordered_map<uint64_t, uint32_t> expected;
  auto hash = [](uint64_t key) { return (key % 97) * 0x9e3779b97f4a7c15ULL; };
  std::mt19937_64 rng(5);
  for (int step = 0; step < 40000; ++step) {
    uint64_t key = rng() % 3000;
    auto equal = [&](uint32_t id) { return key_of_id[id] == key; };
    if (rng() % 3 == 0) {
      uint32_t id = index.Find(hash(key), equal);
      auto it = expected.find(key);
      ASSERT_EQ(id == HashIndex::kNone, it == expected.end()) << "step " << step;
      if (it == expected.end()) continue;
      ASSERT_EQ(id, it->second);
      index.Erase(id);
      expected.erase(it);
    } else {
      bool inserted = false;
      uint32_t id = index.FindOrInsert(hash(key), equal, inserted);
      auto it = expected.find(key);
      ASSERT_EQ(inserted, it == expected.end()) << "step " << step;
      if (inserted) {
        ASSERT_EQ(id, key_of_id.size());
        key_of_id.push_back(key);
        expected.emplace(key, id);
      } else {
        ASSERT_EQ(id, it->second);
      }
    }
    ASSERT_EQ(index.size(), expected.size());
  }
  for (uint64_t key = 0; key < 3000; ++key) {
    uint32_t id = index.Find(hash(key), [&](uint32_t i) { return key_of_id[i] == key; });
    auto it = expected.find(key);
    EXPECT_EQ(id, it == expected.end() ? HashIndex::kNone : it->second) << "key " << key;
  }
}

TEST(HashIndexTest, IdsAreNeverReused) {
  HashIndex index;
  bool inserted = false;
  uint32_t first = index.FindOrInsert(
      7, [](uint32_t) { return true; }, inserted);
  index.Erase(first);
  EXPECT_EQ(index.size(), 0u);
  uint32_t second = index.FindOrInsert(
      7, [](uint32_t) { return true; }, inserted);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(index.next_id(), 2u);
  index.Clear();
  EXPECT_EQ(index.Find(7, [](uint32_t) { return true; }), HashIndex::kNone);
}

}  // namespace
}  // namespace floe::sql::exec
