#include "floe/util/lru_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace floe {
namespace {

std::shared_ptr<const std::string> Value(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

TEST(LruCacheTest, GetReturnsWhatWasPut) {
  LruCache<std::string, std::string> cache(4);
  EXPECT_EQ(cache.Get("a"), nullptr);
  cache.Put("a", Value("1"));
  ASSERT_NE(cache.Get("a"), nullptr);
  EXPECT_EQ(*cache.Get("a"), "1");
  cache.Put("a", Value("2"));
  EXPECT_EQ(*cache.Get("a"), "2");
  EXPECT_EQ(cache.size(), 1u);
}

TEST(LruCacheTest, EvictsTheLeastRecentlyUsed) {
  LruCache<std::string, std::string> cache(2);
  cache.Put("a", Value("1"));
  cache.Put("b", Value("2"));
  ASSERT_NE(cache.Get("a"), nullptr);  // b is now the least recently used
  cache.Put("c", Value("3"));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Get("b"), nullptr);
  EXPECT_EQ(*cache.Get("a"), "1");
  EXPECT_EQ(*cache.Get("c"), "3");
}

TEST(LruCacheTest, AnEvictedValueStaysValidForItsHolder) {
  LruCache<int, std::string> cache(1);
  cache.Put(1, Value("one"));
  std::shared_ptr<const std::string> held = cache.Get(1);
  cache.Put(2, Value("two"));
  EXPECT_EQ(cache.Get(1), nullptr);
  EXPECT_EQ(*held, "one");
}

TEST(LruCacheTest, ManyThreadsKeepItBounded) {
  LruCache<int, std::string> cache(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 1000; ++i) {
        int key = (t * 7 + i) % 20;
        cache.Put(key, Value(std::to_string(key)));
        if (auto value = cache.Get(key)) {
          EXPECT_EQ(*value, std::to_string(key));
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(cache.size(), 8u);
}

}  // namespace
}  // namespace floe
