#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "floe/sql/statements/result_stream_internal.h"

namespace floe::sql {
namespace {

// Batches in flight between the job's sink and the reader.
constexpr size_t kQueueCapacity = 16;

class ResultQueue {
 public:
  explicit ResultQueue(std::optional<int64_t> row_limit)
      : finished_(row_limit == 0), remaining_(row_limit), limit_reached_(row_limit == 0) {}

  // Blocks while the queue is full; kCancelled once the reader has gone. Rows past the limit are
  // dropped: the result is complete without them.
  Status Push(RecordBatch batch) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || batches_.size() < kQueueCapacity; });
    if (cancelled_) return Cancelled("the query's result was cancelled");
    if (limit_reached_) return {};
    if (remaining_) {
      if (batch.num_rows() > *remaining_) batch = batch.Slice(0, *remaining_);
      *remaining_ -= batch.num_rows();
      if (*remaining_ == 0) {
        limit_reached_ = true;
        finished_ = true;
      }
    }
    if (batch.num_rows() > 0) batches_.push_back(std::move(batch));
    changed_.notify_all();
    return {};
  }

  // The job's end; after the limit was reached the result is already complete and the job's
  // own end (cancelled, by then) does not change it.
  void Finish(Status status) {
    std::lock_guard lock(mutex_);
    if (limit_reached_) return;
    finished_ = true;
    status_ = std::move(status);
    changed_.notify_all();
  }

  bool limit_reached() {
    std::lock_guard lock(mutex_);
    return limit_reached_;
  }

  void Cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    batches_.clear();
    changed_.notify_all();
  }

  Result<std::optional<RecordBatch>> Pop() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || finished_ || !batches_.empty(); });
    if (cancelled_) return std::optional<RecordBatch>();
    if (!batches_.empty()) {
      RecordBatch batch = std::move(batches_.front());
      batches_.pop_front();
      changed_.notify_all();
      return std::optional<RecordBatch>(std::move(batch));
    }
    if (!status_.has_value()) return std::unexpected<Error>(status_.error());
    return std::optional<RecordBatch>();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<RecordBatch> batches_;
  bool finished_ = false;
  bool cancelled_ = false;
  std::optional<int64_t> remaining_;
  bool limit_reached_ = false;
  Status status_;
};

class QueueSink final : public stream::Operator {
 public:
  explicit QueueSink(std::shared_ptr<ResultQueue> queue) : queue_(std::move(queue)) {}
  Status ProcessBatch(int, RecordBatch batch, stream::Output&) override {
    if (batch.num_rows() == 0) return {};
    return queue_->Push(std::move(batch));
  }

 private:
  std::shared_ptr<ResultQueue> queue_;
};

class JobRows final : public RowStream {
 public:
  JobRows(std::unique_ptr<stream::StreamEnvironment> env, std::shared_ptr<ResultQueue> queue,
          std::string job_name)
      : env_(std::move(env)), queue_(std::move(queue)) {
    thread_ = std::thread([this, name = std::move(job_name)] {
      auto result = env_->Execute(name);
      queue_->Finish(result.has_value() ? Status() : Status(std::unexpected(result.error())));
    });
  }
  ~JobRows() override {
    Cancel();
    thread_.join();
  }

  Result<std::optional<RecordBatch>> Next() override {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, queue_->Pop());
    if (batch.has_value()) rows_ += batch->num_rows();
    // Every row of a LIMIT has arrived: stop the sources rather than read them to the end.
    if (!batch.has_value() && queue_->limit_reached()) env_->Cancel();
    return batch;
  }
  void Cancel() override {
    queue_->Cancel();
    env_->Cancel();
  }
  JobProgress Progress() const override {
    return JobProgress{.rows = rows_.load(),
                       .files_read = env_->metrics().Sum(stream::kFilesReadMetric),
                       .files_written = env_->metrics().Sum(stream::kFilesWrittenMetric)};
  }

 private:
  std::unique_ptr<stream::StreamEnvironment> env_;
  std::shared_ptr<ResultQueue> queue_;
  std::thread thread_;
  std::atomic<int64_t> rows_{0};
};

}  // namespace

std::unique_ptr<RowStream> StartQueryJob(std::unique_ptr<stream::StreamEnvironment> env,
                                         const stream::DataStream& stream, std::string job_name,
                                         std::optional<int64_t> row_limit) {
  auto queue = std::make_shared<ResultQueue>(row_limit);
  stream.SinkTo(
      "ResultSink",
      [queue](int) -> Result<std::unique_ptr<stream::Operator>> {
        return std::unique_ptr<stream::Operator>(std::make_unique<QueueSink>(queue));
      },
      1);
  return std::make_unique<JobRows>(std::move(env), std::move(queue), std::move(job_name));
}

}  // namespace floe::sql
