#pragma once

// Test-only: drives one operator subtask by hand, the way the runtime would (Open, batches and
// messages, SnapshotState, NotifyCheckpointComplete, Finish), collecting what it emits, as
// Flink's operator test harnesses do. Lets tests play failures: drop the harness ("crash"), then
// open a new one with the state entries an earlier SnapshotState returned.

#include <memory>
#include <string>
#include <vector>

#include "floe/stream/metrics.h"
#include "floe/stream/operator.h"

namespace floe::stream::testing {

class CollectingOutput : public Output {
 public:
  Status Emit(RecordBatch batch) override {
    batches.push_back(std::move(batch));
    return {};
  }
  Status EmitMessage(Message message, int channel) override {
    messages.push_back(std::move(message));
    channels.push_back(channel);
    return {};
  }
  Status EmitWatermark(Watermark watermark) override {
    watermarks.push_back(watermark);
    return {};
  }
  // The messages emitted so far, which are then forgotten.
  std::vector<Message> TakeMessages() {
    channels.clear();
    return std::exchange(messages, {});
  }

  std::vector<RecordBatch> batches;
  std::vector<Message> messages;
  std::vector<int> channels;
  std::vector<Watermark> watermarks;
};

class OperatorHarness {
 public:
  OperatorHarness(std::unique_ptr<Operator> op, OperatorContext context)
      : op_(std::move(op)), context_(std::move(context)) {
    if (context_.metrics == nullptr) context_.metrics = &metrics_;
  }

  Status Open() { return op_->Open(context_); }
  Status ProcessBatch(RecordBatch batch, int input = 0) {
    return op_->ProcessBatch(input, std::move(batch), output_);
  }
  Status ProcessMessage(Message message, int input = 0) {
    return op_->ProcessMessage(input, std::move(message), output_);
  }
  // As the runtime calls it when the operator's watermark advances.
  Status ProcessWatermark(int64_t timestamp_ms) {
    return op_->ProcessWatermark(Watermark{.timestamp_ms = timestamp_ms}, output_);
  }
  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) {
    return op_->SnapshotState(checkpoint_id, output_);
  }
  // As the runtime calls it at a barrier (with the source positions the barrier carries).
  Result<std::vector<std::string>> SnapshotCheckpoint(const CheckpointBarrier& barrier) {
    return op_->SnapshotCheckpoint(barrier, output_);
  }
  Status NotifyCheckpointComplete(int64_t checkpoint_id) {
    return op_->NotifyCheckpointComplete(checkpoint_id);
  }
  Status Finish() { return op_->Finish(output_); }
  // As the runtime calls it once every input has ended (with the final source positions).
  Status FinishInput(const EndOfInput& end) { return op_->FinishInput(end, output_); }

  CollectingOutput& output() { return output_; }
  MetricGroup& metrics() { return *context_.metrics; }
  const OperatorContext& context() const { return context_; }

 private:
  std::unique_ptr<Operator> op_;
  OperatorContext context_;
  MetricGroup metrics_;
  CollectingOutput output_;
};

}  // namespace floe::stream::testing
