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
  {
    QueryWatch watch(rows, false);
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
  {
    QueryWatch watch(rows, false);
    EXPECT_FALSE(watch.cancelled());
  }
  RestoreDefaultInterrupt();
}

TEST(ProgressLineTest, QueryShowsRowsFilesAndTime) {
  EXPECT_EQ(ProgressLine({.rows = 1200, .files_read = 3}, 2.54, /*writing=*/false),
            "1200 rows received, 3 files read, 2.5 s elapsed (Ctrl-C to cancel)");
  EXPECT_EQ(ProgressLine({.rows = 1, .files_read = 1}, 1.0, /*writing=*/false),
            "1 row received, 1 file read, 1.0 s elapsed (Ctrl-C to cancel)");
  // A query that writes (CREATE TABLE AS, or a file sink) shows what it wrote.
  EXPECT_EQ(ProgressLine({.rows = 0, .files_read = 0, .files_written = 2}, 10.0, false),
            "0 rows received, 0 files read, 2 files written, 10.0 s elapsed (Ctrl-C to cancel)");
}

TEST(ProgressLineTest, WriteShowsFilesWrittenAndNoCancelHint) {
  EXPECT_EQ(ProgressLine({.rows = 500000, .files_read = 12, .files_written = 1}, 61.24, true),
            "500000 rows written, 12 files read, 1 file written, 61.2 s elapsed");
}

}  // namespace
}  // namespace floe::cli
