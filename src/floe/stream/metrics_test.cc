#include "floe/stream/metrics.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace floe::stream {
namespace {

TEST(MetricGroupTest, AddsAndSetsFromManyThreads) {
  MetricGroup metrics;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) metrics.Add("sink.records", 1);
    });
  }
  for (std::thread& thread : threads) thread.join();
  metrics.Set("sink.last-commit-ms", 42);
  metrics.Set("sink.last-commit-ms", 7);
  EXPECT_EQ(metrics.Get("sink.records"), 4000);
  EXPECT_EQ(metrics.Get("sink.last-commit-ms"), 7);
  EXPECT_EQ(metrics.Get("never"), 0);
  EXPECT_EQ(metrics.Snapshot().size(), 2u);
}

TEST(MetricGroupTest, SumsOneNameOverSubtasksAndClears) {
  MetricGroup metrics;
  metrics.Add("scan.0.filesRead", 3);
  metrics.Add("scan.1.filesRead", 4);
  metrics.Add("scan.1.otherfilesRead", 100);
  metrics.Add("filesRead", 100);
  EXPECT_EQ(metrics.Sum(kFilesReadMetric), 7);
  EXPECT_EQ(metrics.Sum(kFilesWrittenMetric), 0);
  metrics.Clear();
  EXPECT_EQ(metrics.Sum(kFilesReadMetric), 0);
  EXPECT_TRUE(metrics.Snapshot().empty());
}

}  // namespace
}  // namespace floe::stream
