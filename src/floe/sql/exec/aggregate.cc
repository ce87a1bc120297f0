#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <utility>

#include "floe/batch/take.h"
#include "floe/sql/exec/aggregate_calls_internal.h"
#include "floe/sql/exec/aggregate_index_internal.h"
#include "floe/sql/exec/aggregate_internal.h"
#include "floe/sql/exec/aggregate_keys_internal.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/key_partition_internal.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/row_builder_internal.h"
#include "floe/sql/exec/state_codec_internal.h"
#include "floe/stream/metrics.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kRowsPerOutputBatch = 64 * 1024;
// Streaming: dropped groups leave their id's slots behind until this many pile up (and outnumber
// the live groups); then the state is rebuilt from a snapshot of the live ones.
constexpr uint32_t kCompactAfterDropped = 4096;
constexpr int64_t kMicrosPerMilli = 1000;

class AggregateOperator : public stream::Operator {
 public:
  // `window_end`: the input column holding each row's window end (a window aggregate), or -1.
  AggregateOperator(BatchSchemaPtr input, BatchSchemaPtr output, std::vector<int> group_columns,
                    std::vector<BoundCall> calls, int window_end)
      : output_(std::move(output)),
        keys_(*input, group_columns),
        bound_(std::move(calls)),
        window_end_(window_end) {}

  Status Open(const stream::OperatorContext& context) override {
    // A streaming window aggregate accumulates as a batch one does, and emits a window's groups
    // once, when the watermark passes its end.
    windowed_ = window_end_ >= 0 && context.streaming;
    streaming_ = context.streaming && !windowed_;
    parallelism_ = context.parallelism;
    name_ = context.operator_name;
    metrics_ = context.metrics;
    late_metric_ =
        fmt::format("{}.{}.late-records-dropped", context.operator_name, context.subtask_index);
    for (const BoundCall& bound : bound_) calls_.emplace_back(bound, streaming_);
    for (const std::string& entry : context.restored_state) {
      FLOE_RETURN_IF_ERROR(Restore(entry));
    }
    return {};
  }

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    if (batch.num_rows() == 0) return {};
    if (windowed_) {
      FLOE_ASSIGN_OR_RETURN(batch, DropLate(std::move(batch)));
      if (batch.num_rows() == 0) return {};
      batch_window_ends_ = batch.column(window_end_).Values<int64_t>().data();
    }
    ++epoch_;
    GroupRows rows;
    FLOE_RETURN_IF_ERROR(AssignGroups(batch, rows));
    for (CallState& call : calls_) {
      call.Resize(index_.next_id());
      FLOE_RETURN_IF_ERROR(call.Update(batch, rows));
    }
    return streaming_ ? EmitChanges(output) : Status{};
  }

  Status Finish(stream::Output& output) override {
    if (streaming_) return {};
    // SQL: an aggregate without GROUP BY gives one row even over no rows.
    if (index_.size() == 0 && keys_.empty()) {
      GlobalGroup();
      for (CallState& call : calls_) call.Resize(index_.next_id());
    }
    RowBuilder rows(output_);
    std::string result;
    for (uint32_t id = 0; id < index_.next_id(); ++id) {
      if (!live_[id]) continue;
      FLOE_RETURN_IF_ERROR(AppendRow(rows, id, EncodeResult(id, result), RowKind::kInsert));
      if (rows.num_rows() >= kRowsPerOutputBatch) FLOE_RETURN_IF_ERROR(Flush(rows, output));
    }
    Clear();
    return Flush(rows, output);
  }

  Result<std::vector<std::string>> SnapshotState(int64_t, stream::Output&) override {
    return std::vector<std::string>{Serialize()};
  }

  // A window aggregate emits the windows the watermark completes: those whose last millisecond
  // (end - 1 ms) it has reached, as Flink fires them.
  Status ProcessWatermark(stream::Watermark watermark, stream::Output& output) override {
    if (!windowed_) return output.EmitWatermark(watermark);
    watermark_ = std::max(watermark_.value_or(watermark.timestamp_ms), watermark.timestamp_ms);
    RowBuilder rows(output_);
    std::string result;
    while (!pending_.empty() && Complete(pending_.top().first)) {
      uint32_t id = pending_.top().second;
      pending_.pop();
      if (!live_[id]) continue;
      FLOE_RETURN_IF_ERROR(AppendRow(rows, id, EncodeResult(id, result), RowKind::kInsert));
      if (rows.num_rows() >= kRowsPerOutputBatch) FLOE_RETURN_IF_ERROR(Flush(rows, output));
      index_.Erase(id);
      live_[id] = 0;
      ++dropped_;
    }
    FLOE_RETURN_IF_ERROR(Flush(rows, output));
    FLOE_RETURN_IF_ERROR(MaybeCompact());
    return output.EmitWatermark(watermark);
  }

 private:
  bool Complete(int64_t window_end_us) const {
    return watermark_ && window_end_us - kMicrosPerMilli <= *watermark_ * kMicrosPerMilli;
  }

  // The rows whose window the watermark has completed already are late: dropped and counted.
  Result<RecordBatch> DropLate(RecordBatch batch) {
    if (batch.has_row_kinds()) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        if (batch.row_kind(r) != RowKind::kInsert) {
          return InvalidArgument("window aggregate '{}': its input must be insert-only", name_);
        }
      }
      FLOE_ASSIGN_OR_RETURN(batch, batch.WithRowKinds(std::nullopt));
    }
    if (!watermark_) return batch;
    std::span<const int64_t> ends = batch.column(window_end_).Values<int64_t>();
    kept_.clear();
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      if (!Complete(ends[static_cast<size_t>(r)])) kept_.push_back(r);
    }
    if (std::ssize(kept_) == batch.num_rows()) return batch;
    metrics_->Add(late_metric_, batch.num_rows() - std::ssize(kept_));
    return TakeBatch(batch, kept_);
  }

  // Groups every row of `batch` (creating groups as needed) and says how in `rows`.
  Status AssignGroups(const RecordBatch& batch, GroupRows& rows) {
    int64_t n = batch.num_rows();
    if (index_.next_id() > HashIndex::kMaxEntries - static_cast<uint64_t>(n)) {
      return ResourceExhausted("aggregate '{}': more than {} groups", name_,
                               HashIndex::kMaxEntries);
    }
    rows.num_rows = n;
    bool global = keys_.empty();
    if (global && !batch.has_row_kinds()) {
      rows.group = GlobalGroup();
      rows_[rows.group] += n;
      return {};
    }
    if (!global) keys_.Load(batch);
    auto hash = [&](int64_t r) { return global ? GroupKeys::EmptyKeyHash() : keys_.hash(r); };
    group_ids_.resize(static_cast<size_t>(n));
    rows.groups = group_ids_.data();
    if (!batch.has_row_kinds()) {
      if (keys_.packed()) {
        AssignInserts<true>(n);
      } else {
        AssignInserts<false>(n);
      }
      return {};
    }
    signs_.resize(static_cast<size_t>(n));
    rows.signs = signs_.data();
    for (int64_t r = 0; r < n; ++r) {
      auto at = static_cast<size_t>(r);
      RowKind kind = batch.row_kind(r);
      bool retract = kind == RowKind::kUpdateBefore || kind == RowKind::kDelete;
      signs_[at] = 0;
      group_ids_[at] = 0;
      uint32_t id = 0;
      if (retract) {
        id = index_.Find(hash(r), [&](uint32_t g) { return global || keys_.Equals(g, r); });
        // A retraction of a row this operator never counted (Flink skips it alike).
        if (id == HashIndex::kNone) continue;
        Touch(id);
        if (rows_[id] <= 0) continue;
        --rows_[id];
      } else {
        id = FindOrCreate(hash(r), r);
        ++rows_[id];
      }
      signs_[at] = static_cast<int8_t>(retract ? -1 : 1);
      group_ids_[at] = id;
    }
    return {};
  }

  // Every row of the loaded batch (with GROUP BY) adds to its group.
  template <bool kPacked>
  void AssignInserts(int64_t n) {
    for (int64_t r = 0; r < n; ++r) {
      bool inserted = false;
      uint32_t id = index_.FindOrInsert(
          keys_.hash(r), [&](uint32_t g) { return keys_.Equals<kPacked>(g, r); }, inserted);
      if (inserted) [[unlikely]] {
        keys_.Append(r);
        AddGroup(id);
        if (windowed_) AddWindow(id, batch_window_ends_[r]);
      } else if (streaming_) {
        Touch(id);
      }
      group_ids_[static_cast<size_t>(r)] = id;
      ++rows_[id];
    }
  }

  // The group of row `r` of the loaded batch (any row without GROUP BY), created if new.
  uint32_t FindOrCreate(uint64_t hash, int64_t r) {
    bool global = keys_.empty();
    bool inserted = false;
    uint32_t id = index_.FindOrInsert(
        hash, [&](uint32_t g) { return global || keys_.Equals(g, r); }, inserted);
    if (!inserted) {
      Touch(id);
      return id;
    }
    if (global) {
      keys_.AppendEmpty();
    } else {
      keys_.Append(r);
    }
    AddGroup(id);
    return id;
  }

  uint32_t GlobalGroup() {
    bool inserted = false;
    uint32_t id = index_.FindOrInsert(
        GroupKeys::EmptyKeyHash(), [](uint32_t) { return true; }, inserted);
    if (!inserted) {
      Touch(id);
      return id;
    }
    keys_.AppendEmpty();
    AddGroup(id);
    return id;
  }

  void AddWindow(uint32_t id, int64_t window_end_us) {
    window_ends_.resize(static_cast<size_t>(id) + 1, 0);
    window_ends_[id] = window_end_us;
    pending_.push({window_end_us, id});
  }

  void AddGroup(uint32_t id) {
    rows_.push_back(0);
    live_.push_back(1);
    if (!streaming_) return;
    touched_.push_back(epoch_);
    changed_.push_back({id, std::nullopt});
  }

  // Streaming: remembers the result a group had before this batch, the first time it touches it.
  void Touch(uint32_t id) {
    if (!streaming_ || touched_[id] == epoch_) return;
    touched_[id] = epoch_;
    std::optional<std::string> before;
    if (rows_[id] > 0) {
      before.emplace();
      EncodeResult(id, *before);
    }
    changed_.push_back({id, std::move(before)});
  }

  // The calls' results as encoded cells (cell_internal.h) of their result types.
  const std::string& EncodeResult(uint32_t id, std::string& out) const {
    out.clear();
    for (const CallState& call : calls_) call.EncodeResult(id, out);
    return out;
  }

  Status AppendRow(RowBuilder& rows, uint32_t id, std::string_view result, RowKind kind) const {
    FLOE_RETURN_IF_ERROR(keys_.AppendTo(id, rows));
    int column = static_cast<int>(output_->num_fields() - calls_.size());
    for (const CallState& call : calls_) {
      FLOE_RETURN_IF_ERROR(DecodeCell(*call.bound().result_type, result, rows.column(column++)));
    }
    rows.EndRow(kind);
    return {};
  }

  static Status Flush(RowBuilder& rows, stream::Output& output) {
    if (rows.num_rows() == 0) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, rows.Finish());
    return output.Emit(std::move(batch));
  }

  // Streaming: per group the batch touched, its old row (if it had one) against its new one.
  Status EmitChanges(stream::Output& output) {
    RowBuilder rows(output_);
    std::string after;
    for (auto& [id, before] : changed_) {
      bool exists = rows_[id] > 0;
      if (exists) {
        EncodeResult(id, after);
      } else {
        index_.Erase(id);
        live_[id] = 0;
        ++dropped_;
      }
      if (before && exists) {
        if (*before == after) continue;
        FLOE_RETURN_IF_ERROR(AppendRow(rows, id, *before, RowKind::kUpdateBefore));
        FLOE_RETURN_IF_ERROR(AppendRow(rows, id, after, RowKind::kUpdateAfter));
      } else if (exists) {
        FLOE_RETURN_IF_ERROR(AppendRow(rows, id, after, RowKind::kInsert));
      } else if (before) {
        FLOE_RETURN_IF_ERROR(AppendRow(rows, id, *before, RowKind::kDelete));
      }
    }
    changed_.clear();
    FLOE_RETURN_IF_ERROR(Flush(rows, output));
    return MaybeCompact();
  }

  Status MaybeCompact() {
    if (dropped_ >= kCompactAfterDropped && dropped_ > index_.size()) {
      std::string state = Serialize();
      Clear();
      FLOE_RETURN_IF_ERROR(Restore(state));
    }
    return {};
  }

  // The live groups: their keys and row counts, then each call's state of them.
  std::string Serialize() const {
    StateWriter writer;
    writer.Int64(parallelism_);
    std::vector<uint32_t> ids;
    std::vector<uint32_t> ordinal(index_.next_id(), HashIndex::kNone);
    for (uint32_t id = 0; id < index_.next_id(); ++id) {
      if (!live_[id]) continue;
      ordinal[id] = static_cast<uint32_t>(ids.size());
      ids.push_back(id);
    }
    writer.Int64(static_cast<int64_t>(ids.size()));
    for (uint32_t id : ids) {
      keys_.WriteKey(id, writer);
      writer.Int64(rows_[id]);
    }
    for (const CallState& call : calls_) call.Write(ids, ordinal, writer);
    if (windowed_) {
      // Window aggregates: each group's window end, and the watermark that decides lateness.
      for (uint32_t id : ids) writer.Int64(window_ends_[id]);
      writer.Int64(watermark_ ? 1 : 0);
      writer.Int64(watermark_.value_or(0));
    }
    return writer.Take();
  }

  Status Restore(std::string_view entry) {
    StateReader reader(entry);
    FLOE_ASSIGN_OR_RETURN(int64_t parallelism, reader.Int64());
    if (parallelism != parallelism_) {
      return Unsupported(
          "aggregate '{}': its state was taken at parallelism {} and cannot be restored at {}",
          name_, parallelism, parallelism_);
    }
    FLOE_ASSIGN_OR_RETURN(int64_t num_groups, reader.Int64());
    uint32_t base = index_.next_id();
    if (num_groups < 0 || static_cast<uint64_t>(num_groups) > HashIndex::kMaxEntries - base) {
      return CorruptData("aggregate '{}': state holds {} groups", name_, num_groups);
    }
    auto count = static_cast<uint32_t>(num_groups);
    for (uint32_t g = 0; g < count; ++g) {
      FLOE_ASSIGN_OR_RETURN(uint64_t hash, keys_.ReadKey(reader));
      uint32_t id = base + g;
      bool inserted = false;
      index_.FindOrInsert(
          hash, [&](uint32_t other) { return keys_.SameKey(other, id); }, inserted);
      if (!inserted) return CorruptData("aggregate '{}': state repeats a group", name_);
      AddGroup(id);
      FLOE_ASSIGN_OR_RETURN(rows_[id], reader.Int64());
    }
    changed_.clear();
    for (CallState& call : calls_) {
      call.Resize(index_.next_id());
      FLOE_RETURN_IF_ERROR(call.Read(base, count, reader));
    }
    if (windowed_) {
      for (uint32_t g = 0; g < count; ++g) {
        FLOE_ASSIGN_OR_RETURN(int64_t end, reader.Int64());
        AddWindow(base + g, end);
      }
      FLOE_ASSIGN_OR_RETURN(int64_t has_watermark, reader.Int64());
      FLOE_ASSIGN_OR_RETURN(int64_t watermark, reader.Int64());
      if (has_watermark != 0) {
        watermark_ = std::max(watermark_.value_or(watermark), watermark);
      }
    }
    if (!reader.done()) return CorruptData("aggregate '{}': state has trailing bytes", name_);
    return {};
  }

  void Clear() {
    index_.Clear();
    keys_.Clear();
    for (CallState& call : calls_) call.Clear();
    rows_.clear();
    live_.clear();
    touched_.clear();
    changed_.clear();
    window_ends_.clear();
    pending_ = {};
    dropped_ = 0;
  }

  BatchSchemaPtr output_;
  GroupKeys keys_;
  std::vector<BoundCall> bound_;
  std::vector<CallState> calls_;
  int window_end_;
  bool windowed_ = false;
  bool streaming_ = true;
  stream::MetricGroup* metrics_ = nullptr;
  std::string late_metric_;
  // Window aggregates: the last watermark (milliseconds), each group's window end (micros), and
  // the groups by window end, earliest first.
  std::optional<int64_t> watermark_;
  std::vector<int64_t> window_ends_;
  std::priority_queue<std::pair<int64_t, uint32_t>, std::vector<std::pair<int64_t, uint32_t>>,
                      std::greater<>>
      pending_;
  const int64_t* batch_window_ends_ = nullptr;
  std::vector<int64_t> kept_;
  int64_t parallelism_ = 1;
  std::string name_;
  HashIndex index_;
  // By group id.
  std::vector<int64_t> rows_;      // rows added less rows retracted
  std::vector<uint8_t> live_;      // 0 once a streaming group is dropped
  std::vector<uint64_t> touched_;  // streaming: the last batch that touched the group
  uint64_t epoch_ = 0;             // batches seen
  uint32_t dropped_ = 0;
  // Streaming: the groups this batch touched, in order, with their result before it.
  std::vector<std::pair<uint32_t, std::optional<std::string>>> changed_;
  // Per row of the current batch.
  std::vector<uint32_t> group_ids_;
  std::vector<int8_t> signs_;
};

}  // namespace

Result<BatchSchemaPtr> AggregateSchema(const BatchSchema& input,
                                       const std::vector<int>& group_columns,
                                       const std::vector<AggregateCall>& calls) {
  std::vector<Field> fields;
  for (int column : group_columns) {
    if (column < 0 || column >= input.num_fields()) {
      return InvalidArgument("GROUP BY column {} is not one of the input's {} columns", column,
                             input.num_fields());
    }
    const Field& field = input.field(column);
    if (!IsDecodable(*field.type)) {
      return Unsupported("GROUP BY a {} column ('{}') is not supported", field.type->ToString(),
                         field.name);
    }
    fields.push_back({.name = field.name, .type = field.type, .nullable = field.nullable});
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<BoundCall> bound, BindCalls(input, calls));
  for (size_t i = 0; i < bound.size(); ++i) {
    AggregateKind kind = bound[i].call.kind;
    std::string name =
        bound[i].call.output_name.empty() ? fmt::format("EXPR${}", i) : bound[i].call.output_name;
    bool count = kind == AggregateKind::kCountStar || kind == AggregateKind::kCount;
    fields.push_back({.name = std::move(name), .type = bound[i].result_type, .nullable = !count});
  }
  return std::make_shared<const BatchSchema>(std::move(fields));
}

stream::OperatorFactory AggregateOperatorFactory(BatchSchemaPtr input, BatchSchemaPtr output,
                                                 std::vector<int> group_columns,
                                                 std::vector<AggregateCall> calls, int window_end) {
  return [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    // The same checks as the schema's: the factory is also called by tests directly.
    FLOE_RETURN_IF_ERROR(AggregateSchema(*input, group_columns, calls));
    FLOE_ASSIGN_OR_RETURN(std::vector<BoundCall> bound, BindCalls(*input, calls));
    return std::make_unique<AggregateOperator>(input, output, group_columns, std::move(bound),
                                               window_end);
  };
}

Result<stream::DataStream> Aggregate(const stream::DataStream& input,
                                     std::vector<int> group_columns,
                                     std::vector<AggregateCall> calls) {
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr output,
                        AggregateSchema(*input.schema(), group_columns, calls));
  std::string name =
      NextOperatorName(input, group_columns.empty() ? "GlobalAggregate" : "Aggregate");
  auto factory = AggregateOperatorFactory(input.schema(), output, group_columns, std::move(calls));
  if (group_columns.empty()) return input.Transform(std::move(name), output, factory, 1);
  stream::DataStream keyed = PartitionByColumns(input, group_columns);
  return keyed.Transform(std::move(name), output, factory);
}

Result<stream::DataStream> WindowAggregate(const stream::DataStream& input,
                                           std::vector<int> group_columns,
                                           std::vector<AggregateCall> calls, int window_end) {
  if (std::ranges::find(group_columns, window_end) == group_columns.end()) {
    return InvalidArgument("window aggregate: the window end (column {}) must be a group column",
                           window_end);
  }
  const Field& end = input.schema()->field(window_end);
  if (end.type->kind() != TypeKind::kTimestamp || end.type->unit() != TimeUnit::kMicro) {
    return InvalidArgument("window aggregate: the window end '{}' is no TIMESTAMP", end.name);
  }
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr output,
                        AggregateSchema(*input.schema(), group_columns, calls));
  std::string name = NextOperatorName(input, "WindowAggregate");
  auto factory =
      AggregateOperatorFactory(input.schema(), output, group_columns, std::move(calls), window_end);
  stream::DataStream keyed = PartitionByColumns(input, group_columns);
  return keyed.Transform(std::move(name), output, factory);
}

}  // namespace floe::sql::exec
