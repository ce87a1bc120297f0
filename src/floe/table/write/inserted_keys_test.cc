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

// After Clear no key is known (with tombstones and a huge-page table in the mix), the memory stays,
// and the table takes a second commit's worth of keys.
TEST(InsertedKeysTest, ClearForgetsEveryKeyAndKeepsTheMemory) {
  InsertedKeys keys;
  constexpr int kKeys = 200'000;  // 32 bytes a slot: a table beyond one huge page
  for (int i = 0; i < kKeys; ++i) {
    const std::string key = "key" + std::to_string(i);
    ASSERT_FALSE(keys.Put(key, InsertedKeys::Hash(key), {1, i}).has_value());
    if (i % 10 == 0) {
      ASSERT_TRUE(keys.Remove(key, InsertedKeys::Hash(key)).has_value());
    }
  }
  const size_t memory = keys.memory_bytes();
  keys.Clear();
  EXPECT_EQ(keys.size(), 0u);
  EXPECT_EQ(keys.memory_bytes(), memory);
  for (int i = 0; i < kKeys; ++i) {
    const std::string key = "key" + std::to_string(i);
    ASSERT_FALSE(keys.Remove(key, InsertedKeys::Hash(key)).has_value()) << key;
    ASSERT_FALSE(keys.Put(key, InsertedKeys::Hash(key), {2, i}).has_value()) << key;
  }
  const std::string key = "key7";
  auto previous = keys.Put(key, InsertedKeys::Hash(key), {3, 0});
  ASSERT_TRUE(previous.has_value());
  EXPECT_EQ(previous->file, 2u);
  EXPECT_EQ(previous->position, 7);
  EXPECT_EQ(keys.size(), static_cast<size_t>(kKeys));
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
