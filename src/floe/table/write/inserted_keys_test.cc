#include "floe/table/write/inserted_keys.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>

namespace floe::table {
namespace {

// The table against std::unordered_map under a long random mix of puts and removes, with keys of
// many lengths (empty included) and enough of them to force several rebuilds.
TEST(InsertedKeysTest, AgreesWithAStandardMap) {
  InsertedKeys keys;
  std::unordered_map<std::string, std::pair<uint32_t, int64_t>> expected;
  std::mt19937_64 random(7);
  for (int step = 0; step < 200'000; ++step) {
    std::string key = std::to_string(random() % 20'000);
    key.resize(random() % 24, 'k');
    if (random() % 3 == 0) {
      auto removed = keys.Remove(key, InsertedKeys::Hash(key));
      auto it = expected.find(key);
      ASSERT_EQ(removed.has_value(), it != expected.end()) << "step " << step;
      if (removed) {
        EXPECT_EQ(removed->file, it->second.first);
        EXPECT_EQ(removed->position, it->second.second);
        expected.erase(it);
      }
    } else {
      InsertedKeys::Location here{static_cast<uint32_t>(step % 5), step};
      auto previous = keys.Put(key, InsertedKeys::Hash(key), here);
      auto [it, inserted] = expected.try_emplace(key, here.file, here.position);
      ASSERT_EQ(previous.has_value(), !inserted) << "step " << step;
      if (previous) {
        EXPECT_EQ(previous->file, it->second.first);
        EXPECT_EQ(previous->position, it->second.second);
        it->second = {here.file, here.position};
      }
    }
    ASSERT_EQ(keys.size(), expected.size());
  }
}

TEST(InsertedKeysTest, ReclaimsTheBytesOfRemovedKeysWhenItGrows) {
  InsertedKeys keys;
  const std::string long_key(1000, 'x');
  for (int round = 0; round < 1000; ++round) {
    std::string key = long_key + std::to_string(round);
    ASSERT_FALSE(keys.Put(key, InsertedKeys::Hash(key), {0, round}).has_value());
    ASSERT_TRUE(keys.Remove(key, InsertedKeys::Hash(key)).has_value());
  }
  EXPECT_EQ(keys.size(), 0u);
  // A thousand removed 1 KB keys would be 1 MB if their bytes were never reclaimed.
  EXPECT_LT(keys.memory_bytes(), 200'000u);
}

}  // namespace
}  // namespace floe::table
