#include "floe/stream/watermark_source.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace floe::stream {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Floors a timestamp value to milliseconds.
int64_t ToMillis(int64_t value, TimeUnit unit) {
  int64_t per_ms = unit == TimeUnit::kMicro ? 1000 : 1000000;
  return value >= 0 ? value / per_ms : -((-value + per_ms - 1) / per_ms);
}

// Passes batches on and remembers the greatest time among them.
class TimeTrackingOutput : public Output {
 public:
  TimeTrackingOutput(int column, TimeUnit unit) : column_(column), unit_(unit) {}

  void Reset(Output* inner) {
    inner_ = inner;
    emitted_ = false;
  }
  bool emitted() const { return emitted_; }
  std::optional<int64_t> max_ms() const { return max_ms_; }

  Status Emit(RecordBatch batch) override {
    const Array& times = batch.column(column_);
    std::span<const int64_t> values = times.Values<int64_t>();
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      if (times.IsNull(r)) continue;
      int64_t ms = ToMillis(values[static_cast<size_t>(r)], unit_);
      max_ms_ = std::max(max_ms_.value_or(ms), ms);
    }
    emitted_ = emitted_ || batch.num_rows() > 0;
    return inner_->Emit(std::move(batch));
  }
  Status EmitMessage(Message message, int channel) override {
    return inner_->EmitMessage(std::move(message), channel);
  }
  Status EmitWatermark(Watermark watermark) override { return inner_->EmitWatermark(watermark); }

 private:
  int column_;
  TimeUnit unit_;
  Output* inner_ = nullptr;
  bool emitted_ = false;
  std::optional<int64_t> max_ms_;
};

class WatermarkReader : public SourceReader {
 public:
  WatermarkReader(std::unique_ptr<SourceReader> inner, int column, TimeUnit unit,
                  WatermarkStrategy strategy)
      : inner_(std::move(inner)), tracker_(column, unit), strategy_(std::move(strategy)) {}

  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
    last_active_ms_ = NowMs();
    return inner_->Open(context, reader_context);
  }
  void AddSplits(std::vector<std::any> splits) override { inner_->AddSplits(std::move(splits)); }
  void NotifyNoMoreSplits() override { inner_->NotifyNoMoreSplits(); }

  Result<PollStatus> PollNext(Output& output) override {
    tracker_.Reset(&output);
    FLOE_ASSIGN_OR_RETURN(PollStatus status, inner_->PollNext(tracker_));
    int64_t now = NowMs();
    if (tracker_.emitted()) {
      last_active_ms_ = now;
      std::optional<int64_t> max_ms = tracker_.max_ms();
      int64_t watermark =
          max_ms ? *max_ms - strategy_.out_of_orderness_ms : std::numeric_limits<int64_t>::min();
      bool advanced = max_ms && (!sent_ || watermark > *sent_);
      if (advanced || (idle_ && sent_)) {
        if (advanced) sent_ = watermark;
        FLOE_RETURN_IF_ERROR(output.EmitWatermark(Watermark{.timestamp_ms = *sent_}));
      }
      idle_ = false;
    } else if (status == PollStatus::kNothingNow && strategy_.idle_timeout_ms > 0 && !idle_ &&
               now - last_active_ms_ >= strategy_.idle_timeout_ms) {
      idle_ = true;
      FLOE_RETURN_IF_ERROR(
          output.EmitWatermark(Watermark{.timestamp_ms = sent_.value_or(0), .idle = true}));
    }
    return status;
  }

  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) override {
    return inner_->SnapshotState(checkpoint_id);
  }
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override {
    return inner_->NotifyCheckpointComplete(checkpoint_id);
  }
  std::optional<std::string> Position() const override { return inner_->Position(); }

 private:
  std::unique_ptr<SourceReader> inner_;
  TimeTrackingOutput tracker_;
  WatermarkStrategy strategy_;
  std::optional<int64_t> sent_;
  bool idle_ = false;
  int64_t last_active_ms_ = 0;
};

class WatermarkSource : public Source {
 public:
  WatermarkSource(std::shared_ptr<Source> inner, int column, TimeUnit unit,
                  WatermarkStrategy strategy)
      : inner_(std::move(inner)), column_(column), unit_(unit), strategy_(std::move(strategy)) {}

  BatchSchemaPtr schema() const override { return inner_->schema(); }
  bool bounded() const override { return inner_->bounded(); }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override {
    return inner_->CreateEnumerator();
  }
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override {
    FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SourceReader> reader,
                          inner_->CreateReader(subtask_index));
    return std::make_unique<WatermarkReader>(std::move(reader), column_, unit_, strategy_);
  }
  void ResumeFromCommitted(CommittedPositions positions) override {
    inner_->ResumeFromCommitted(std::move(positions));
  }

 private:
  std::shared_ptr<Source> inner_;
  int column_;
  TimeUnit unit_;
  WatermarkStrategy strategy_;
};

}  // namespace

Result<std::shared_ptr<Source>> WithWatermarks(std::shared_ptr<Source> source,
                                               WatermarkStrategy strategy) {
  const BatchSchema& schema = *source->schema();
  int column = schema.FindFieldIndex(strategy.time_column);
  if (column < 0) {
    return InvalidArgument("watermark: the source has no column '{}'", strategy.time_column);
  }
  const DataType& type = *schema.field(column).type;
  if (type.kind() != TypeKind::kTimestamp) {
    return InvalidArgument(
        "watermark: column '{}' is {}, not a TIMESTAMP or TIMESTAMP_LTZ (a time attribute)",
        strategy.time_column, type.ToString());
  }
  if (strategy.out_of_orderness_ms < 0 || strategy.idle_timeout_ms < 0) {
    return InvalidArgument("watermark of column '{}': negative delay or idle timeout",
                           strategy.time_column);
  }
  return std::shared_ptr<Source>(std::make_shared<WatermarkSource>(
      std::move(source), column, type.unit(), std::move(strategy)));
}

}  // namespace floe::stream
