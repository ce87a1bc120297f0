#pragma once

// Test only: runs a Source's enumerator and readers on one thread the way the runtime does, so that
// source tests can poll, snapshot in the middle and restore into new readers (also with another
// parallelism) without a job. Split requests and assignments travel at the next Step, as they would
// between threads; a snapshot first delivers assignments in flight, so each split is in exactly one
// of the enumerator's and the readers' states (what the runtime's hold-back guarantees).

#include <any>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "floe/stream/metrics.h"
#include "floe/stream/source.h"

namespace floe::stream::testing {

// What a reader emits (its own name: operator_test_harness.h, in the same test binary, has a
// CollectingOutput of another shape).
class SourceOutput : public Output {
 public:
  Status Emit(RecordBatch batch) override {
    rows_ += batch.num_rows();
    batches_.push_back(std::move(batch));
    return Ok();
  }
  Status EmitMessage(Message, int) override { return Unsupported("sources emit no messages"); }
  const std::vector<RecordBatch>& batches() const { return batches_; }
  int64_t rows() const { return rows_; }

 private:
  std::vector<RecordBatch> batches_;
  int64_t rows_ = 0;
};

struct SourceSnapshot {
  int64_t checkpoint_id = 0;
  std::string enumerator;
  std::vector<std::vector<std::string>> readers;  // per subtask
};

class SourceDriver : public SplitEnumeratorContext {
 public:
  // Starts the enumerator and `parallelism` readers, fresh or from a snapshot (whose reader entries
  // are dealt round-robin, as the runtime does when the parallelism changes).
  static Result<std::unique_ptr<SourceDriver>> Start(Source& source, int parallelism,
                                                     const SourceSnapshot* restore = nullptr) {
    auto driver = std::unique_ptr<SourceDriver>(new SourceDriver(parallelism));
    FLOE_ASSIGN_OR_RETURN(driver->enumerator_, source.CreateEnumerator());
    std::optional<std::string> enumerator_state;
    std::vector<std::vector<std::string>> shares(parallelism);
    if (restore != nullptr) {
      enumerator_state = restore->enumerator;
      size_t next = 0;
      for (const auto& entries : restore->readers) {
        for (const std::string& entry : entries) shares[next++ % parallelism].push_back(entry);
      }
    }
    FLOE_RETURN_IF_ERROR(driver->enumerator_->Start(*driver, enumerator_state));
    for (int i = 0; i < parallelism; ++i) {
      Subtask& subtask = driver->subtasks_[i];
      subtask.context.driver = driver.get();
      subtask.context.index = i;
      FLOE_ASSIGN_OR_RETURN(subtask.reader, source.CreateReader(i));
      OperatorContext context;
      context.job_name = "test";
      context.operator_name = "source";
      context.subtask_index = i;
      context.parallelism = parallelism;
      if (restore != nullptr) context.restored_checkpoint_id = restore->checkpoint_id;
      context.restored_state = std::move(shares[i]);
      context.metrics = &driver->metrics_;
      FLOE_RETURN_IF_ERROR(subtask.reader->Open(context, subtask.context));
    }
    return driver;
  }

  // Delivers requests and assignments, ticks the enumerator, then polls every unfinished reader
  // once. Returns whether any reader is unfinished.
  Result<bool> Step(int64_t now_ms = 0) {
    FLOE_RETURN_IF_ERROR(Deliver());
    FLOE_RETURN_IF_ERROR(enumerator_->Tick(now_ms));
    FLOE_RETURN_IF_ERROR(Deliver());
    bool running = false;
    for (Subtask& subtask : subtasks_) {
      if (subtask.ended) continue;
      FLOE_ASSIGN_OR_RETURN(PollStatus status, subtask.reader->PollNext(output_));
      subtask.ended = status == PollStatus::kEnd;
      running = running || !subtask.ended;
    }
    return running;
  }

  // Steps until every reader ended (bounded sources) or max_steps passed.
  Status RunToEnd(int max_steps = 100000) {
    for (int i = 0; i < max_steps; ++i) {
      FLOE_ASSIGN_OR_RETURN(bool running, Step());
      if (!running) return Ok();
    }
    return InternalError("the source did not end within {} steps", max_steps);
  }

  Result<SourceSnapshot> Snapshot(int64_t checkpoint_id) {
    FLOE_RETURN_IF_ERROR(Deliver());
    SourceSnapshot snapshot;
    snapshot.checkpoint_id = checkpoint_id;
    FLOE_ASSIGN_OR_RETURN(snapshot.enumerator, enumerator_->SnapshotState(checkpoint_id));
    for (Subtask& subtask : subtasks_) {
      FLOE_ASSIGN_OR_RETURN(auto entries, subtask.reader->SnapshotState(checkpoint_id));
      snapshot.readers.push_back(std::move(entries));
    }
    return snapshot;
  }

  // Checkpoint `checkpoint_id` completed: the enumerator and every reader hear of it.
  Status NotifyCheckpointComplete(int64_t checkpoint_id) {
    FLOE_RETURN_IF_ERROR(enumerator_->NotifyCheckpointComplete(checkpoint_id));
    for (Subtask& subtask : subtasks_) {
      FLOE_RETURN_IF_ERROR(subtask.reader->NotifyCheckpointComplete(checkpoint_id));
    }
    return Ok();
  }

  // What reader `subtask` reports as its position (SourceReader::Position).
  std::optional<std::string> Position(int subtask) const {
    return subtasks_[subtask].reader->Position();
  }
  const MetricGroup& metrics() const { return metrics_; }

  const SourceOutput& output() const { return output_; }
  bool ended(int subtask) const { return subtasks_[subtask].ended; }

  // SplitEnumeratorContext
  int parallelism() const override { return static_cast<int>(subtasks_.size()); }
  std::vector<int> WaitingReaders() const override { return {waiting_.begin(), waiting_.end()}; }
  void AssignSplits(int subtask, std::vector<std::any> splits) override {
    waiting_.erase(subtask);
    for (auto& split : splits) subtasks_[subtask].assigned.push_back(std::move(split));
  }
  void SignalNoMoreSplits(int subtask) override {
    waiting_.erase(subtask);
    subtasks_[subtask].no_more_splits = true;
  }

 private:
  struct Subtask;
  class ReaderContext : public SourceReaderContext {
   public:
    void RequestSplit() override { driver->subtasks_[index].requested = true; }
    SourceDriver* driver = nullptr;
    int index = 0;
  };
  struct Subtask {
    ReaderContext context;
    std::unique_ptr<SourceReader> reader;
    std::deque<std::any> assigned;
    bool requested = false;
    bool no_more_splits = false;
    bool no_more_delivered = false;
    bool ended = false;
  };

  explicit SourceDriver(int parallelism) : subtasks_(parallelism) {}

  Status Deliver() {
    for (size_t i = 0; i < subtasks_.size(); ++i) {
      Subtask& subtask = subtasks_[i];
      if (subtask.requested) {
        subtask.requested = false;
        waiting_.insert(static_cast<int>(i));
        FLOE_RETURN_IF_ERROR(enumerator_->HandleSplitRequest(static_cast<int>(i)));
      }
    }
    for (Subtask& subtask : subtasks_) {
      if (!subtask.assigned.empty()) {
        std::vector<std::any> splits(subtask.assigned.begin(), subtask.assigned.end());
        subtask.assigned.clear();
        subtask.reader->AddSplits(std::move(splits));
      }
      if (subtask.no_more_splits && !subtask.no_more_delivered) {
        subtask.no_more_delivered = true;
        subtask.reader->NotifyNoMoreSplits();
      }
    }
    return Ok();
  }

  std::vector<Subtask> subtasks_;
  std::unique_ptr<SplitEnumerator> enumerator_;
  std::set<int> waiting_;
  SourceOutput output_;
  MetricGroup metrics_;
};

}  // namespace floe::stream::testing
