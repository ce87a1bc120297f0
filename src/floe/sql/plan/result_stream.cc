#include "floe/sql/plan/result_stream.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace floe::sql::plan {
namespace {

// Batches in flight between the job's sink and the reader.
constexpr size_t kQueueCapacity = 16;

class ResultQueue {
 public:
  // Blocks while the queue is full; kCancelled once the reader has gone.
  Status Push(RecordBatch batch) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || batches_.size() < kQueueCapacity; });
    if (cancelled_) return Cancelled("the query's result was cancelled");
    batches_.push_back(std::move(batch));
    changed_.notify_all();
    return {};
  }

  void Finish(Status status) {
    std::lock_guard lock(mutex_);
    finished_ = true;
    status_ = std::move(status);
    changed_.notify_all();
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

  Result<std::optional<RecordBatch>> Next() override { return queue_->Pop(); }
  void Cancel() override {
    queue_->Cancel();
    env_->Cancel();
  }

 private:
  std::unique_ptr<stream::StreamEnvironment> env_;
  std::shared_ptr<ResultQueue> queue_;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<RowStream> StartQueryJob(std::unique_ptr<stream::StreamEnvironment> env,
                                         const stream::DataStream& stream, std::string job_name) {
  auto queue = std::make_shared<ResultQueue>();
  stream.SinkTo(
      "ResultSink",
      [queue](int) -> Result<std::unique_ptr<stream::Operator>> {
        return std::unique_ptr<stream::Operator>(std::make_unique<QueueSink>(queue));
      },
      1);
  return std::make_unique<JobRows>(std::move(env), std::move(queue), std::move(job_name));
}

}  // namespace floe::sql::plan
