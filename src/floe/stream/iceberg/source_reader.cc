#include "floe/stream/iceberg/source_reader.h"

#include <fmt/format.h>

#include <unordered_map>
#include <utility>

#include "floe/batch/take.h"
#include "floe/batch/value.h"
#include "floe/stream/metrics.h"
#include "floe/table/table.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

Result<RecordBatch> WithKind(const RecordBatch& batch, RowKind kind) {
  if (kind == RowKind::kInsert) return batch.WithRowKinds(std::nullopt);
  std::string kinds(static_cast<size_t>(batch.num_rows()), static_cast<char>(kind));
  return batch.WithRowKinds(Buffer::CopyOf(kinds));
}

// A row's value identity: its columns' JSON, so that equal rows of the two reads of a diff match.
std::string RowKey(const RecordBatch& batch, int64_t row) {
  std::string key;
  for (int c = 0; c < batch.num_columns(); ++c) {
    AppendJson(batch.column(c), row, key);
    key.push_back('\x1f');
  }
  return key;
}

}  // namespace

// The batches of one split, in a fixed order, after the rows emitted before a restore.
class IcebergSourceReader::Cursor {
 public:
  Cursor(Held held, table::TaskReader& reader, const expr::ExprPtr& bound_filter)
      : held_(std::move(held)), reader_(reader), filter_(bound_filter), skip_(held_.emitted) {}

  const Held& held() const { return held_; }
  // Data files opened since the last call (a file read in several byte ranges counts once).
  int64_t TakeFilesRead() { return std::exchange(files_read_, 0); }

  // The next batch to emit (row kinds set), or nullopt when the split is done.
  Result<std::optional<RecordBatch>> Next() {
    while (true) {
      FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, Raw());
      if (!batch) return std::nullopt;
      const int64_t n = batch->num_rows();
      if (skip_ >= n) {
        skip_ -= n;
        continue;
      }
      if (skip_ > 0) {
        *batch = batch->Slice(skip_, n - skip_);
        skip_ = 0;
      }
      held_.emitted += batch->num_rows();
      return batch;
    }
  }

 private:
  Result<std::unique_ptr<table::TaskBatchStream>> OpenTask(table::FileScanTask task) {
    if (!task.residual) task.residual = filter_;
    if (task.start == 0) ++files_read_;
    return reader_.Open(task);
  }

  Result<std::optional<RecordBatch>> Raw() {
    if (held_.split->kind == SplitKind::kDiff) return NextDiff();
    const RowKind kind =
        held_.split->kind == SplitKind::kDelete ? RowKind::kDelete : RowKind::kInsert;
    const auto& tasks = held_.split->tasks;
    while (true) {
      if (!stream_) {
        if (next_task_ >= tasks.size()) return std::nullopt;
        FLOE_ASSIGN_OR_RETURN(stream_, OpenTask(tasks[next_task_++]));
      }
      FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, stream_->Next());
      if (!batch) {
        stream_.reset();
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(RecordBatch out, WithKind(*batch, kind));
      return out;
    }
  }

  Result<std::vector<RecordBatch>> ReadAll(const std::vector<table::FileScanTask>& tasks) {
    std::vector<RecordBatch> out;
    for (const table::FileScanTask& task : tasks) {
      FLOE_ASSIGN_OR_RETURN(auto stream, OpenTask(task));
      while (true) {
        FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, stream->Next());
        if (!batch) break;
        out.push_back(std::move(*batch));
      }
    }
    return out;
  }

  // Rows of `from` beyond the first `matched[key]` of each value, as `kind`.
  static Result<std::vector<RecordBatch>> Unmatched(
      const std::vector<RecordBatch>& from, std::unordered_map<std::string, int64_t> matched,
      RowKind kind) {
    std::vector<RecordBatch> out;
    for (const RecordBatch& batch : from) {
      std::vector<int64_t> keep;
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        auto it = matched.find(RowKey(batch, row));
        if (it != matched.end() && it->second > 0) {
          --it->second;
          continue;
        }
        keep.push_back(row);
      }
      if (keep.empty()) continue;
      FLOE_ASSIGN_OR_RETURN(RecordBatch taken, TakeBatch(batch, keep));
      FLOE_ASSIGN_OR_RETURN(RecordBatch kinded, WithKind(taken, kind));
      out.push_back(std::move(kinded));
    }
    return out;
  }

  Result<std::optional<RecordBatch>> NextDiff() {
    if (!diff_ready_) {
      FLOE_ASSIGN_OR_RETURN(auto before, ReadAll(held_.split->before));
      FLOE_ASSIGN_OR_RETURN(auto after, ReadAll(held_.split->tasks));
      std::unordered_map<std::string, int64_t> before_counts, after_counts, matched;
      for (const RecordBatch& b : before) {
        for (int64_t r = 0; r < b.num_rows(); ++r) ++before_counts[RowKey(b, r)];
      }
      for (const RecordBatch& b : after) {
        for (int64_t r = 0; r < b.num_rows(); ++r) ++after_counts[RowKey(b, r)];
      }
      for (const auto& [key, count] : before_counts) {
        auto it = after_counts.find(key);
        if (it != after_counts.end()) matched[key] = std::min(count, it->second);
      }
      FLOE_ASSIGN_OR_RETURN(diff_, Unmatched(before, matched, RowKind::kDelete));
      FLOE_ASSIGN_OR_RETURN(auto inserted, Unmatched(after, std::move(matched), RowKind::kInsert));
      for (RecordBatch& b : inserted) diff_.push_back(std::move(b));
      diff_ready_ = true;
    }
    if (next_diff_ >= diff_.size()) return std::nullopt;
    return std::optional<RecordBatch>(std::move(diff_[next_diff_++]));
  }

  Held held_;
  table::TaskReader& reader_;
  expr::ExprPtr filter_;
  int64_t skip_;
  size_t next_task_ = 0;
  std::unique_ptr<table::TaskBatchStream> stream_;
  bool diff_ready_ = false;
  std::vector<RecordBatch> diff_;
  size_t next_diff_ = 0;
  int64_t files_read_ = 0;
};

IcebergSourceReader::IcebergSourceReader(std::shared_ptr<const SourceReadSpec> spec)
    : spec_(std::move(spec)) {}

IcebergSourceReader::~IcebergSourceReader() = default;

Status IcebergSourceReader::Open(const OperatorContext& context,
                                 SourceReaderContext& reader_context) {
  reader_context_ = &reader_context;
  metrics_ = context.metrics;
  files_read_metric_ =
      fmt::format("{}.{}.{}", context.operator_name, context.subtask_index, kFilesReadMetric);
  FLOE_ASSIGN_OR_RETURN(table_, spec_->loader.Load());
  table::TaskReadOptions options;
  options.batch_rows = spec_->batch_rows;
  options.equality_deletes = spec_->equality_deletes;
  task_reader_ = std::make_unique<table::TaskReader>(table_->io(), spec_->table_schema,
                                                     spec_->projected, options);
  return Restore(context.restored_state);
}

Status IcebergSourceReader::Restore(const std::vector<std::string>& entries) {
  TableMetadataPtr metadata = table_->metadata();
  for (const std::string& entry : entries) {
    auto restore = [&]() -> Status {
      FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(entry));
      if (const Json* count = json.Find("limit_emitted")) {
        if (!count->is_int()) return InvalidArgument("limit_emitted is not an integer");
        limit_emitted_ += count->as_int();
        return Ok();
      }
      FLOE_ASSIGN_OR_RETURN(const Json* split_json, json.Get("split"));
      FLOE_ASSIGN_OR_RETURN(IcebergSplit split, SplitFromJson(*split_json, *metadata));
      FLOE_ASSIGN_OR_RETURN(int64_t emitted, json.GetInt("emitted"));
      if (emitted < 0) return InvalidArgument("negative row count {}", emitted);
      queue_.push_back(Held{std::make_shared<IcebergSplit>(std::move(split)), emitted});
      return Ok();
    };
    Status status = restore();
    if (!status) {
      return InvalidArgument("restoring an Iceberg source reader of {}: {}",
                             spec_->loader.ToString(), status.error().message());
    }
  }
  return Ok();
}

void IcebergSourceReader::AddSplits(std::vector<std::any> splits) {
  for (std::any& s : splits) {
    if (auto* split = std::any_cast<IcebergSplitPtr>(&s)) queue_.push_back(Held{*split, 0});
  }
  requested_ = false;
}

void IcebergSourceReader::NotifyNoMoreSplits() { no_more_splits_ = true; }

Result<PollStatus> IcebergSourceReader::PollNext(Output& output) {
  while (true) {
    if (spec_->limit && limit_emitted_ >= *spec_->limit) {
      cursor_.reset();
      queue_.clear();
      return PollStatus::kEnd;
    }
    if (!cursor_) {
      if (queue_.empty()) {
        if (no_more_splits_) return PollStatus::kEnd;
        if (!requested_) {
          requested_ = true;
          reader_context_->RequestSplit();
        }
        return PollStatus::kNothingNow;
      }
      cursor_ =
          std::make_unique<Cursor>(std::move(queue_.front()), *task_reader_, spec_->bound_filter);
      queue_.pop_front();
    }
    auto batch = cursor_->Next();
    if (int64_t files = cursor_->TakeFilesRead(); files > 0 && metrics_ != nullptr) {
      metrics_->Add(files_read_metric_, files);
    }
    if (!batch) {
      batch.error().AddContext("reading split " + cursor_->held().split->id + " of " +
                               spec_->loader.ToString());
      return std::unexpected(std::move(batch.error()));
    }
    if (!*batch) {
      cursor_.reset();
      task_reader_->ClearDeleteCache();
      continue;
    }
    RecordBatch out = std::move(**batch);
    if (spec_->limit && limit_emitted_ + out.num_rows() > *spec_->limit) {
      out = out.Slice(0, *spec_->limit - limit_emitted_);
    }
    limit_emitted_ += out.num_rows();
    FLOE_RETURN_IF_ERROR(output.Emit(std::move(out)));
    return PollStatus::kMoreAvailable;
  }
}

Result<std::vector<std::string>> IcebergSourceReader::SnapshotState(int64_t /*checkpoint_id*/) {
  std::vector<std::string> out;
  auto add = [&](const Held& held) {
    Json entry = Json::MakeObject();
    entry.Set("split", SplitToJson(*held.split));
    entry.Set("emitted", Json(held.emitted));
    out.push_back(entry.Dump());
  };
  if (cursor_) add(cursor_->held());
  for (const Held& held : queue_) add(held);
  if (spec_->limit) {
    Json entry = Json::MakeObject();
    entry.Set("limit_emitted", Json(limit_emitted_));
    out.push_back(entry.Dump());
  }
  return out;
}

}  // namespace floe::stream
