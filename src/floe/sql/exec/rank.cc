#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/key_partition_internal.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/rank_internal.h"
#include "floe/sql/exec/row_builder_internal.h"
#include "floe/sql/exec/state_codec_internal.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kRowsPerOutputBatch = 64 * 1024;
constexpr int64_t kMicrosPerMilli = 1000;

int64_t NowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

struct Entry {
  std::vector<std::string> keys;  // the order keys' encoded cells
  std::string row;                // every input cell, encoded
  // Keep-first: the row's time; a window Top-N: its window's last millisecond. The partition
  // is final once the watermark reaches its first row's.
  int64_t time_ms = 0;
};

struct Partition {
  std::vector<Entry> rows;  // in rank order (batch mode without a limit: arrival order)
  bool final = false;       // keep-first: its row was emitted; later rows are dropped
  bool pending = false;     // keep-first, window Top-N: waits in pending_ for the watermark
  int64_t access_ms = 0;    // state TTL: when a row last reached it
  uint64_t touched = 0;     // streaming: the batch that last changed it
};

// A partition's ranked rows as emitted: (rank, encoded row).
using Ranked = std::vector<std::pair<int64_t, std::string>>;

class RankOperator : public stream::Operator {
 public:
  RankOperator(BatchSchemaPtr input, BatchSchemaPtr output, RankSpec spec)
      : input_(std::move(input)), output_(std::move(output)), spec_(std::move(spec)) {}

  Status Open(const stream::OperatorContext& context) override {
    streaming_ = context.streaming;
    keep_first_ = streaming_ && spec_.keep_first_rowtime >= 0;
    windowed_ = streaming_ && spec_.window_end >= 0;
    parallelism_ = context.parallelism;
    name_ = context.operator_name;
    for (const std::string& entry : context.restored_state) {
      FLOE_RETURN_IF_ERROR(Restore(entry));
    }
    return {};
  }

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    if (batch.num_rows() == 0) return {};
    if (batch.has_row_kinds()) {
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        if (batch.row_kind(r) != RowKind::kInsert) {
          return InvalidArgument("rank '{}': its input must be insert-only", name_);
        }
      }
    }
    ++epoch_;
    int64_t now = spec_.state_ttl_ms > 0 ? NowMs() : 0;
    std::string key;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      key.clear();
      for (int column : spec_.partition_columns) EncodeCell(batch.column(column), r, key);
      auto [at, inserted] = partitions_.try_emplace(key);
      Partition& partition = at->second;
      partition.access_ms = now;
      if (partition.final) continue;
      Entry entry = MakeEntry(batch, r);
      if (windowed_ && watermark_ && entry.time_ms <= *watermark_) {
        // Its window was emitted already: late.
        if (partition.rows.empty()) partitions_.erase(at);
        continue;
      }
      if (streaming_ && !keep_first_ && !windowed_ && partition.touched != epoch_) {
        partition.touched = epoch_;
        changed_.emplace_back(key, RankedRows(partition));
      }
      Insert(partition, std::move(entry));
      if ((keep_first_ || windowed_) && !partition.pending) {
        partition.pending = true;
        pending_.push_back(key);
      }
    }
    if (streaming_) {
      FLOE_RETURN_IF_ERROR(keep_first_ || windowed_ ? EmitFinal(output, false)
                                                    : EmitChanges(output));
    }
    if (spec_.state_ttl_ms > 0 && now >= next_sweep_ms_) Expire(now);
    return {};
  }

  Status ProcessWatermark(stream::Watermark watermark, stream::Output& output) override {
    watermark_ = std::max(watermark_.value_or(watermark.timestamp_ms), watermark.timestamp_ms);
    if (keep_first_ || windowed_) FLOE_RETURN_IF_ERROR(EmitFinal(output, false));
    return output.EmitWatermark(watermark);
  }

  Status Finish(stream::Output& output) override {
    if (keep_first_ || windowed_) return EmitFinal(output, true);
    if (streaming_) return {};
    RowBuilder rows(output_);
    for (auto& [key, partition] : partitions_) {
      if (!spec_.limit) {
        // Ties keep arrival order, or the reverse of it when the newer row ranks first.
        if (spec_.newer_first) std::ranges::reverse(partition.rows);
        std::ranges::stable_sort(partition.rows,
                                 [this](const Entry& a, const Entry& b) { return Less(a, b); });
      }
      for (auto& [rank, row] : RankedRows(partition)) {
        FLOE_RETURN_IF_ERROR(AppendRow(rows, row, rank, RowKind::kInsert, output));
      }
    }
    partitions_.clear();
    return Flush(rows, output);
  }

  Result<std::vector<std::string>> SnapshotState(int64_t, stream::Output&) override {
    return std::vector<std::string>{Serialize()};
  }

 private:
  int Compare(const Entry& a, const Entry& b) const {
    for (size_t i = 0; i < spec_.order.size(); ++i) {
      const SortKey& key = spec_.order[i];
      const std::string& x = a.keys[i];
      const std::string& y = b.keys[i];
      bool x_null = x.front() == '\0';
      bool y_null = y.front() == '\0';
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null == key.nulls_first ? -1 : 1;
      }
      int c = CompareEncoded(*input_->field(key.column).type, x, y);
      if (c != 0) return key.descending ? -c : c;
    }
    return 0;
  }
  bool Less(const Entry& a, const Entry& b) const { return Compare(a, b) < 0; }

  Entry MakeEntry(const RecordBatch& batch, int64_t r) const {
    Entry entry;
    for (const SortKey& key : spec_.order) {
      EncodeCell(batch.column(key.column), r, entry.keys.emplace_back());
    }
    for (int c = 0; c < batch.num_columns(); ++c) EncodeCell(batch.column(c), r, entry.row);
    if (spec_.keep_first_rowtime >= 0) {
      const Array& time = batch.column(spec_.keep_first_rowtime);
      entry.time_ms = time.IsNull(r) ? std::numeric_limits<int64_t>::min()
                                     : FloorDiv(time.Value<int64_t>(r), kMicrosPerMilli);
    } else if (spec_.window_end >= 0) {
      entry.time_ms =
          FloorDiv(batch.column(spec_.window_end).Value<int64_t>(r), kMicrosPerMilli) - 1;
    }
    return entry;
  }

  static int64_t FloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
  }

  // Places `entry` by its order keys and drops the rows ranked past the limit.
  void Insert(Partition& partition, Entry entry) const {
    std::vector<Entry>& rows = partition.rows;
    if (!spec_.limit) {
      rows.push_back(std::move(entry));
      return;
    }
    auto less = [this](const Entry& a, const Entry& b) { return Less(a, b); };
    auto at = spec_.newer_first ? std::ranges::lower_bound(rows, entry, less)
                                : std::ranges::upper_bound(rows, entry, less);
    if (spec_.kind == RankKind::kRowNumber && at - rows.begin() >= *spec_.limit) return;
    rows.insert(at, std::move(entry));
    if (spec_.kind == RankKind::kRowNumber) {
      if (std::ssize(rows) > *spec_.limit) rows.resize(static_cast<size_t>(*spec_.limit));
      return;
    }
    std::vector<int64_t> ranks = Ranks(rows);
    auto past = std::ranges::find_if(ranks, [&](int64_t rank) { return rank > *spec_.limit; });
    rows.resize(static_cast<size_t>(past - ranks.begin()));
  }

  std::vector<int64_t> Ranks(const std::vector<Entry>& rows) const {
    std::vector<int64_t> ranks(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      bool tie = i > 0 && Compare(rows[i - 1], rows[i]) == 0;
      switch (spec_.kind) {
        case RankKind::kRowNumber:
          ranks[i] = static_cast<int64_t>(i) + 1;
          break;
        case RankKind::kRank:
          ranks[i] = tie ? ranks[i - 1] : static_cast<int64_t>(i) + 1;
          break;
        case RankKind::kDenseRank:
          ranks[i] = i == 0 ? 1 : ranks[i - 1] + (tie ? 0 : 1);
          break;
      }
    }
    return ranks;
  }

  Ranked RankedRows(const Partition& partition) const {
    std::vector<int64_t> ranks = Ranks(partition.rows);
    Ranked out;
    out.reserve(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) out.emplace_back(ranks[i], partition.rows[i].row);
    return out;
  }

  Status AppendRow(RowBuilder& rows, std::string_view row, int64_t rank, RowKind kind,
                   stream::Output& output) const {
    for (int c = 0; c < input_->num_fields(); ++c) {
      FLOE_RETURN_IF_ERROR(DecodeCell(*input_->field(c).type, row, rows.column(c)));
    }
    static_cast<Int64Builder&>(rows.column(input_->num_fields())).Append(rank);
    rows.EndRow(kind);
    if (rows.num_rows() >= kRowsPerOutputBatch) return Flush(rows, output);
    return {};
  }

  static Status Flush(RowBuilder& rows, stream::Output& output) {
    if (rows.num_rows() == 0) return {};
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, rows.Finish());
    return output.Emit(std::move(batch));
  }

  // Per partition the batch changed, each rank position's old row against its new one.
  Status EmitChanges(stream::Output& output) {
    RowBuilder rows(output_);
    for (auto& [key, before] : changed_) {
      auto found = partitions_.find(key);
      if (found == partitions_.end()) continue;
      Ranked after = RankedRows(found->second);
      for (size_t i = 0; i < std::max(before.size(), after.size()); ++i) {
        bool had = i < before.size();
        bool has = i < after.size();
        if (had && has && before[i] == after[i]) continue;
        if (had) {
          RowKind kind = has ? RowKind::kUpdateBefore : RowKind::kDelete;
          FLOE_RETURN_IF_ERROR(AppendRow(rows, before[i].second, before[i].first, kind, output));
        }
        if (has) {
          RowKind kind = had ? RowKind::kUpdateAfter : RowKind::kInsert;
          FLOE_RETURN_IF_ERROR(AppendRow(rows, after[i].second, after[i].first, kind, output));
        }
      }
    }
    changed_.clear();
    return Flush(rows, output);
  }

  // Keep-first: the partitions whose first row the watermark has passed (all at the end) are
  // final: their row is emitted once. A window Top-N: the windows the watermark has completed are
  // emitted, every ranked row once, and forgotten.
  Status EmitFinal(stream::Output& output, bool all) {
    RowBuilder rows(output_);
    std::vector<std::string> waiting;
    for (std::string& key : pending_) {
      auto found = partitions_.find(key);
      if (found == partitions_.end()) continue;  // expired
      Partition& partition = found->second;
      if (!all && !(watermark_ && partition.rows.front().time_ms <= *watermark_)) {
        waiting.push_back(std::move(key));
        continue;
      }
      if (windowed_) {
        for (auto& [rank, row] : RankedRows(partition)) {
          FLOE_RETURN_IF_ERROR(AppendRow(rows, row, rank, RowKind::kInsert, output));
        }
        partitions_.erase(found);
        continue;
      }
      FLOE_RETURN_IF_ERROR(
          AppendRow(rows, partition.rows.front().row, 1, RowKind::kInsert, output));
      partition.final = true;
      partition.pending = false;
      partition.rows.clear();
    }
    pending_ = std::move(waiting);
    return Flush(rows, output);
  }

  void Expire(int64_t now) {
    std::erase_if(partitions_, [&](const auto& item) {
      return now - item.second.access_ms > spec_.state_ttl_ms;
    });
    next_sweep_ms_ = now + std::max<int64_t>(1, spec_.state_ttl_ms / 2);
  }

  std::string Serialize() const {
    StateWriter writer;
    writer.Int64(parallelism_);
    writer.Int64(watermark_ ? 1 : 0);
    writer.Int64(watermark_.value_or(0));
    writer.Int64(static_cast<int64_t>(partitions_.size()));
    for (const auto& [key, partition] : partitions_) {
      writer.Bytes(key);
      writer.Int64(partition.final ? 1 : 0);
      writer.Int64(static_cast<int64_t>(partition.rows.size()));
      for (const Entry& entry : partition.rows) {
        for (const std::string& cell : entry.keys) writer.Bytes(cell);
        writer.Bytes(entry.row);
        writer.Int64(entry.time_ms);
      }
    }
    return writer.Take();
  }

  Status Restore(std::string_view state) {
    StateReader reader(state);
    FLOE_ASSIGN_OR_RETURN(int64_t parallelism, reader.Int64());
    if (parallelism != parallelism_) {
      return Unsupported(
          "rank '{}': its state was taken at parallelism {} and cannot be restored at {}", name_,
          parallelism, parallelism_);
    }
    FLOE_ASSIGN_OR_RETURN(int64_t has_watermark, reader.Int64());
    FLOE_ASSIGN_OR_RETURN(int64_t watermark, reader.Int64());
    if (has_watermark != 0) watermark_ = std::max(watermark_.value_or(watermark), watermark);
    FLOE_ASSIGN_OR_RETURN(int64_t count, reader.Int64());
    int64_t now = spec_.state_ttl_ms > 0 ? NowMs() : 0;
    for (int64_t p = 0; p < count; ++p) {
      FLOE_ASSIGN_OR_RETURN(std::string_view key, reader.Bytes());
      auto [at, inserted] = partitions_.try_emplace(std::string(key));
      if (!inserted) return CorruptData("rank '{}': state repeats a partition", name_);
      Partition& partition = at->second;
      partition.access_ms = now;
      FLOE_ASSIGN_OR_RETURN(int64_t final, reader.Int64());
      partition.final = final != 0;
      FLOE_ASSIGN_OR_RETURN(int64_t rows, reader.Int64());
      if (rows < 0) return CorruptData("rank '{}': state holds {} rows", name_, rows);
      for (int64_t r = 0; r < rows; ++r) {
        Entry entry;
        for (size_t k = 0; k < spec_.order.size(); ++k) {
          FLOE_ASSIGN_OR_RETURN(std::string_view cell, reader.Bytes());
          if (cell.empty()) return CorruptData("rank '{}': state holds an empty key", name_);
          entry.keys.emplace_back(cell);
        }
        FLOE_ASSIGN_OR_RETURN(std::string_view row, reader.Bytes());
        entry.row = row;
        FLOE_ASSIGN_OR_RETURN(entry.time_ms, reader.Int64());
        partition.rows.push_back(std::move(entry));
      }
      if ((keep_first_ || windowed_) && !partition.final && !partition.rows.empty()) {
        partition.pending = true;
        pending_.push_back(at->first);
      }
    }
    if (!reader.done()) return CorruptData("rank '{}': state has trailing bytes", name_);
    return {};
  }

  BatchSchemaPtr input_;
  BatchSchemaPtr output_;
  RankSpec spec_;
  bool streaming_ = true;
  bool keep_first_ = false;
  bool windowed_ = false;
  int64_t parallelism_ = 1;
  std::string name_;
  std::optional<int64_t> watermark_;
  std::unordered_map<std::string, Partition> partitions_;
  uint64_t epoch_ = 0;
  // Streaming: the partitions this batch changed, in order, with their ranked rows before it.
  std::vector<std::pair<std::string, Ranked>> changed_;
  // Keep-first and window Top-N: the partitions not emitted yet.
  std::vector<std::string> pending_;
  int64_t next_sweep_ms_ = 0;
};

}  // namespace

Result<BatchSchemaPtr> RankSchema(const BatchSchema& input, const RankSpec& spec) {
  for (int column : spec.partition_columns) {
    if (column < 0 || column >= input.num_fields()) {
      return InvalidArgument("PARTITION BY column {} is not one of the input's {} columns", column,
                             input.num_fields());
    }
  }
  if (spec.order.empty()) {
    return InvalidArgument("ranking functions need an ORDER BY in their OVER clause");
  }
  for (const SortKey& key : spec.order) {
    if (key.column < 0 || key.column >= input.num_fields()) {
      return InvalidArgument("ORDER BY column {} is not one of the input's {} columns", key.column,
                             input.num_fields());
    }
    const Field& field = input.field(key.column);
    if (!IsOrderable(*field.type)) {
      return InvalidArgument("ORDER BY '{}': values of type {} cannot be ordered", field.name,
                             field.type->ToString());
    }
  }
  for (const Field& field : input.fields()) {
    if (!IsDecodable(*field.type)) {
      return Unsupported("ranking rows with a {} column ('{}') is not supported",
                         field.type->ToString(), field.name);
    }
  }
  if (spec.limit && *spec.limit < 1) {
    return InvalidArgument("a Top-N limit must be at least 1, not {}", *spec.limit);
  }
  if (spec.keep_first_rowtime >= 0 || spec.window_end >= 0) {
    int column = spec.keep_first_rowtime >= 0 ? spec.keep_first_rowtime : spec.window_end;
    if (column >= input.num_fields()) {
      return InvalidArgument("rank: column {} is not one of the input's {} columns", column,
                             input.num_fields());
    }
    const Field& time = input.field(column);
    if (time.type->kind() != TypeKind::kTimestamp || time.type->unit() != TimeUnit::kMicro) {
      return InvalidArgument("rank on '{}': no TIMESTAMP", time.name);
    }
  }
  if (spec.window_end >= 0 &&
      std::ranges::find(spec.partition_columns, spec.window_end) == spec.partition_columns.end()) {
    return InvalidArgument("window Top-N: the window end (column {}) must be a partition column",
                           spec.window_end);
  }
  std::vector<Field> fields = input.fields();
  fields.push_back({.name = spec.rank_name, .type = DataType::Int64(), .nullable = false});
  return std::make_shared<const BatchSchema>(std::move(fields));
}

stream::OperatorFactory RankOperatorFactory(BatchSchemaPtr input, BatchSchemaPtr output,
                                            RankSpec spec) {
  return [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    FLOE_RETURN_IF_ERROR(RankSchema(*input, spec));
    return std::make_unique<RankOperator>(input, output, spec);
  };
}

Result<stream::DataStream> Rank(const stream::DataStream& input, RankSpec spec) {
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr output, RankSchema(*input.schema(), spec));
  bool streaming = input.environment().config().mode != stream::RuntimeMode::kBatch;
  if (streaming && !spec.limit) {
    return Unsupported(
        "ROW_NUMBER, RANK and DENSE_RANK in streaming mode need a Top-N filter on their result "
        "in the enclosing query (WHERE rn <= N, or rn = 1 to deduplicate)");
  }
  std::string name = NextOperatorName(input, spec.limit ? "Rank" : "OverRank");
  auto factory = RankOperatorFactory(input.schema(), output, spec);
  if (spec.partition_columns.empty()) return input.Transform(std::move(name), output, factory, 1);
  stream::DataStream keyed = PartitionByColumns(input, spec.partition_columns);
  return keyed.Transform(std::move(name), output, factory);
}

}  // namespace floe::sql::exec
