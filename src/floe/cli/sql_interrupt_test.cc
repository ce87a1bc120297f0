#include "floe/cli/sql_interrupt.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <csignal>
#include <mutex>

namespace floe::cli {
namespace {

// A query that never ends by itself, like a streaming SELECT: Next blocks until Cancel.
class EndlessRows final : public sql::RowStream {
 public:
  Result<std::optional<RecordBatch>> Next() override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return cancelled_; });
    return Cancelled("the query was cancelled");
  }
  void Cancel() override {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool cancelled_ = false;
};

TEST(QueryWatchTest, CtrlCCancelsTheRunningQuery) {
  InstallInterruptHandler();
  EndlessRows rows;
  std::atomic<int64_t> received{0};
  {
    QueryWatch watch(rows, received, false);
    ASSERT_EQ(std::raise(SIGINT), 0);  // the handler runs: the process goes on
    auto next = rows.Next();           // returns only once the watcher has cancelled
    ASSERT_FALSE(next.has_value());
    EXPECT_EQ(next.error().kind(), ErrorKind::kCancelled);
    EXPECT_TRUE(watch.cancelled());
  }
  // The watch consumed the interrupt: the prompt does not see it again.
  EXPECT_FALSE(TakeInterrupt());
  RestoreDefaultInterrupt();
}

TEST(QueryWatchTest, NoInterruptNoCancel) {
  InstallInterruptHandler();
  EndlessRows rows;
  std::atomic<int64_t> received{0};
  {
    QueryWatch watch(rows, received, false);
    EXPECT_FALSE(watch.cancelled());
  }
  RestoreDefaultInterrupt();
}

}  // namespace
}  // namespace floe::cli
