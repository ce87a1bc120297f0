#pragma once

// Building blocks of the runtime's tests: numbered rows, operators made of lambdas, a recorder of
// what each subtask saw, an endless source, and sources paced by gates or checkpoints.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "floe/batch/value.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/data_stream.h"

namespace floe::stream::testing {

// k: int64 (the row's number, from 0), g: int32 (k % 7), v: string ("r<k>").
inline BatchSchemaPtr RowSchema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"k", DataType::Int64(), false}, {"g", DataType::Int32(), false}, {"v", DataType::String()}});
}

inline RecordBatch MakeRows(int64_t first, int64_t count) {
  std::vector<Value> k, g, v;
  for (int64_t i = first; i < first + count; ++i) {
    k.emplace_back(i);
    g.emplace_back(static_cast<int32_t>(i % 7));
    v.emplace_back(fmt::format("r{}", i));
  }
  BatchSchemaPtr schema = RowSchema();
  return RecordBatch::Make(schema, {MakeArray(schema->field(0).type, k).value(),
                                    MakeArray(schema->field(1).type, g).value(),
                                    MakeArray(schema->field(2).type, v).value()})
      .value();
}

// num_batches batches of rows_per_batch rows, numbered 0, 1, ... across batches.
inline std::vector<RecordBatch> MakeBatches(int num_batches, int rows_per_batch) {
  std::vector<RecordBatch> batches;
  for (int b = 0; b < num_batches; ++b) {
    batches.push_back(MakeRows(int64_t{b} * rows_per_batch, rows_per_batch));
  }
  return batches;
}

inline std::shared_ptr<CollectionSource> RowsSource(int num_batches, int rows_per_batch) {
  return std::make_shared<CollectionSource>(RowSchema(), MakeBatches(num_batches, rows_per_batch));
}

// The lines the collect sink must show for rows [0, count), written out here independently of
// the sink's formatting, sorted.
inline std::vector<std::string> ExpectedLines(int64_t count) {
  std::vector<std::string> lines;
  for (int64_t i = 0; i < count; ++i) {
    lines.push_back("+I[" + std::to_string(i) + ", " + std::to_string(i % 7) + ", r" +
                    std::to_string(i) + "]");
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

inline std::vector<std::string> Sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

inline std::vector<int64_t> Keys(const RecordBatch& batch) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < batch.num_rows(); ++i) keys.push_back(batch.column(0).Value<int64_t>(i));
  return keys;
}

// An operator whose ProcessBatch is a lambda (with the subtask index); it forwards its result.
using BatchFn = std::function<Result<std::optional<RecordBatch>>(int subtask, RecordBatch batch)>;

class LambdaOperator : public Operator {
 public:
  LambdaOperator(int subtask, BatchFn fn) : subtask_(subtask), fn_(std::move(fn)) {}
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> out, fn_(subtask_, std::move(batch)));
    if (out) return output.Emit(std::move(*out));
    return {};
  }

 private:
  int subtask_;
  BatchFn fn_;
};

inline OperatorFactory Lambda(BatchFn fn) {
  return [fn](int subtask) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<LambdaOperator>(subtask, fn);
  };
}

// Which keys each subtask of an operator saw. Thread-safe.
class Recorder {
 public:
  void Record(int subtask, const RecordBatch& batch) {
    std::lock_guard lock(mutex_);
    for (int64_t key : Keys(batch)) keys_[subtask].push_back(key);
    ++batches_[subtask];
  }
  std::map<int, std::vector<int64_t>> keys() const {
    std::lock_guard lock(mutex_);
    return keys_;
  }
  std::map<int, int> batches() const {
    std::lock_guard lock(mutex_);
    return batches_;
  }
  // A pass-through operator that records.
  OperatorFactory Probe() {
    return Lambda([this](int subtask, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
      Record(subtask, batch);
      return batch;
    });
  }

 private:
  mutable std::mutex mutex_;
  std::map<int, std::vector<int64_t>> keys_;
  std::map<int, int> batches_;
};

// Emits one batch of `rows` numbered rows per poll, forever (until cancelled); bounded() is false.
class EndlessSource : public Source {
 public:
  explicit EndlessSource(int rows) : rows_(rows) {}
  BatchSchemaPtr schema() const override { return RowSchema(); }
  bool bounded() const override { return false; }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return CollectionSource(RowSchema(), {}).CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int) override {
    class Reader : public SourceReader {
     public:
      explicit Reader(int rows) : rows_(rows) {}
      Status Open(const OperatorContext&, SourceReaderContext&) override { return {}; }
      void AddSplits(std::vector<std::any>) override {}
      void NotifyNoMoreSplits() override {}
      Result<PollStatus> PollNext(Output& output) override {
        FLOE_RETURN_IF_ERROR(output.Emit(MakeRows(next_, rows_)));
        next_ += rows_;
        return PollStatus::kMoreAvailable;
      }
      Result<std::vector<std::string>> SnapshotState(int64_t) override {
        return std::vector<std::string>{std::to_string(next_)};
      }

     private:
      int rows_;
      int64_t next_ = 0;
    };
    return std::make_unique<Reader>(rows_);
  }

 private:
  int rows_;
};

// A reader that hands every call to the reader it wraps; wrappers override what they change.
class ForwardingReader : public SourceReader {
 public:
  explicit ForwardingReader(std::unique_ptr<SourceReader> inner) : inner_(std::move(inner)) {}
  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
    return inner_->Open(context, reader_context);
  }
  void AddSplits(std::vector<std::any> splits) override { inner_->AddSplits(std::move(splits)); }
  void NotifyNoMoreSplits() override { inner_->NotifyNoMoreSplits(); }
  Result<PollStatus> PollNext(Output& output) override { return inner_->PollNext(output); }
  Result<std::vector<std::string>> SnapshotState(int64_t id) override {
    return inner_->SnapshotState(id);
  }
  Status NotifyCheckpointComplete(int64_t id) override {
    return inner_->NotifyCheckpointComplete(id);
  }
  std::optional<std::string> Position() const override { return inner_->Position(); }

 protected:
  std::unique_ptr<SourceReader> inner_;
};

// A source that wraps each reader of another source in a Reader made from it and `args`.
template <typename Reader, typename... Args>
class WrappingSource : public Source {
 public:
  explicit WrappingSource(std::shared_ptr<Source> inner, Args... args)
      : inner_(std::move(inner)), args_(std::move(args)...) {}
  BatchSchemaPtr schema() const override { return inner_->schema(); }
  bool bounded() const override { return inner_->bounded(); }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return inner_->CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask) override {
    FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SourceReader> inner, inner_->CreateReader(subtask));
    return std::apply(
        [&](const Args&... args) { return std::make_unique<Reader>(std::move(inner), args...); },
        args_);
  }

 private:
  std::shared_ptr<Source> inner_;
  std::tuple<Args...> args_;
};

// Each reader emits `open` batches (one per PollNext of the wrapped reader), then waits
// (kNothingNow) until `gate` returns true.
class GatedReader : public ForwardingReader {
 public:
  GatedReader(std::unique_ptr<SourceReader> inner, int64_t open, std::function<bool()> gate)
      : ForwardingReader(std::move(inner)), open_(open), gate_(std::move(gate)) {}
  Result<PollStatus> PollNext(Output& output) override {
    if (polled_ >= open_ && !gate_()) return PollStatus::kNothingNow;
    ++polled_;
    return inner_->PollNext(output);
  }

 private:
  int64_t open_;
  std::function<bool()> gate_;
  int64_t polled_ = 0;
};

// Wraps a source whose readers emit one batch per PollNext: each reader emits `open_batches`
// batches, then waits (kNothingNow) until `gate` returns true. Tests use it to keep a job running
// until a checkpoint or savepoint has happened, instead of hoping that it runs long enough.
using GatedSource = WrappingSource<GatedReader, int64_t, std::function<bool()>>;

// Emits `per_checkpoint` batches of the wrapped reader in one PollNext, then waits until it has
// taken the next checkpoint.
class CheckpointPacedReader : public ForwardingReader {
 public:
  CheckpointPacedReader(std::unique_ptr<SourceReader> inner, int64_t per_checkpoint)
      : ForwardingReader(std::move(inner)), per_checkpoint_(per_checkpoint) {}
  Result<PollStatus> PollNext(Output& output) override {
    if (chunks_ > snapshots_) return PollStatus::kNothingNow;
    ++chunks_;
    for (int64_t i = 0; i < per_checkpoint_; ++i) {
      FLOE_ASSIGN_OR_RETURN(PollStatus status, inner_->PollNext(output));
      if (status != PollStatus::kMoreAvailable) return status;
    }
    return PollStatus::kMoreAvailable;
  }
  Result<std::vector<std::string>> SnapshotState(int64_t id) override {
    ++snapshots_;
    return inner_->SnapshotState(id);
  }

 private:
  int64_t per_checkpoint_;
  int64_t chunks_ = 0;     // groups of per_checkpoint_ batches emitted
  int64_t snapshots_ = 0;  // checkpoints taken
};

// Wraps a source whose readers emit one batch per PollNext, so that checkpoints cut its data the
// same way whatever the timing: a reader emits `batches_per_checkpoint` batches in one PollNext
// (no barrier can fall between them), then waits until it has taken the next checkpoint. Its
// checkpoint N thus holds exactly its batches from (N-1)B to NB-1. For tests whose outcome depends
// on what each checkpoint holds (statistics gathered per checkpoint).
using CheckpointPacedSource = WrappingSource<CheckpointPacedReader, int64_t>;

}  // namespace floe::stream::testing
