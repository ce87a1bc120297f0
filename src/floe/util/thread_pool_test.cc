#include "floe/util/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <vector>

namespace floe {
namespace {

TEST(ThreadPoolTest, ParallelForCallsEveryIndexOnce) {
  for (size_t workers : {0u, 1u, 4u}) {
    ThreadPool pool(workers);
    std::vector<std::atomic<int>> calls(1000);
    pool.ParallelFor(calls.size(), [&](size_t i) { calls[i].fetch_add(1); });
    for (size_t i = 0; i < calls.size(); ++i) ASSERT_EQ(calls[i].load(), 1) << i;
    pool.ParallelFor(0, [&](size_t) { FAIL(); });
  }
}

TEST(ThreadPoolTest, SubmitReturnsTheResult) {
  ThreadPool pool(2);
  std::vector<std::future<int>> futures;
  for (int i = 0; i < 50; ++i) futures.push_back(pool.Submit([i] { return i * i; }));
  int sum = 0;
  for (auto& f : futures) sum += f.get();
  int expected = 0;
  for (int i = 0; i < 50; ++i) expected += i * i;
  EXPECT_EQ(sum, expected);
  ThreadPool inline_pool(0);
  EXPECT_EQ(inline_pool.Submit([] { return 7; }).get(), 7);
}

TEST(ThreadPoolTest, NestedParallelForDoesNotDeadlock) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  pool.ParallelFor(8, [&](size_t) { pool.ParallelFor(8, [&](size_t) { total.fetch_add(1); }); });
  EXPECT_EQ(total.load(), 64);
}

}  // namespace
}  // namespace floe
