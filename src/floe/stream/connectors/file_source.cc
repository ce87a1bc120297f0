#include "floe/stream/connectors/file_source.h"

#include <fmt/format.h>

#include <charconv>
#include <deque>
#include <set>

#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/io/location.h"
#include "floe/stream/connectors/file_batch_reader.h"
#include "floe/stream/connectors/text_columns.h"
#include "floe/stream/metrics.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

// A file to read, or a byte range of a Parquet file, and how many of its rows were emitted before
// (after a restore).
struct FileSplit {
  std::string location;
  std::optional<std::pair<int64_t, int64_t>> byte_range;  // offset, length; unset: the whole file
  int64_t rows_done = 0;
};

// A split as JSON: {"file": ..., "offset": o, "length": n} (the range only for a range).
Json SplitJson(const FileSplit& split) {
  Json entry = Json::MakeObject();
  entry.Set("file", split.location);
  if (split.byte_range) {
    entry.Set("offset", split.byte_range->first);
    entry.Set("length", split.byte_range->second);
  }
  return entry;
}

// The split of SplitJson's form, or of a plain file name (the states of versions before ranges).
Result<FileSplit> SplitFromJson(const Json& entry, std::string_view state) {
  FileSplit split;
  if (entry.is_string()) {
    split.location = entry.as_string();
    return split;
  }
  const Json* file = entry.is_object() ? entry.Find("file") : nullptr;
  if (file == nullptr || !file->is_string()) return CorruptData("file source state: {}", state);
  split.location = file->as_string();
  const Json* offset = entry.Find("offset");
  const Json* length = entry.Find("length");
  if ((offset == nullptr) != (length == nullptr)) {
    return CorruptData("file source state: {}", state);
  }
  if (offset != nullptr) {
    if (!offset->is_int() || !length->is_int() || offset->as_int() < 0 || length->as_int() <= 0) {
      return CorruptData("file source state: {}", state);
    }
    split.byte_range = std::pair{offset->as_int(), length->as_int()};
  }
  return split;
}

Result<int64_t> ParseInterval(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  int64_t scale = unit.empty() || unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "min" ? 60000 : 0;
  if (ec != std::errc() || scale == 0 || value <= 0 || value > INT64_MAX / scale) {
    return InvalidArgument(
        "file source option 'monitor-interval': '{}' is not a duration (ms, s, min)", text);
  }
  return value * scale;
}

Result<int64_t> ParsePositive(std::string_view key, std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) {
    return InvalidArgument("file source option '{}': '{}' is not a positive number", key, text);
  }
  return value;
}

class FileEnumerator : public SplitEnumerator {
 public:
  explicit FileEnumerator(std::shared_ptr<const FileSource> source) : source_(std::move(source)) {}

  Status Start(SplitEnumeratorContext& context, std::optional<std::string> restored) override {
    context_ = &context;
    if (restored.has_value()) return Restore(*restored);
    if (source_->bounded()) {
      FLOE_ASSIGN_OR_RETURN(auto files, source_->ListFiles());
      for (io::FileEntry& file : files) Discover(std::move(file));
    }
    return Ok();
  }

  Status HandleSplitRequest(int) override { return AssignToWaiting(); }

  Status Tick(int64_t now_ms) override {
    if (source_->bounded()) return Ok();
    if (listed_ && now_ms - last_listed_ms_ < *source_->monitor_interval_ms()) return Ok();
    listed_ = true;
    last_listed_ms_ = now_ms;
    FLOE_ASSIGN_OR_RETURN(auto files, source_->ListFiles());
    for (io::FileEntry& file : files) Discover(std::move(file));
    return AssignToWaiting();
  }

  Result<std::string> SnapshotState(int64_t) override {
    Json state = Json::MakeObject();
    Json discovered = Json::MakeArray();
    for (const std::string& file : discovered_) discovered.Push(file);
    Json pending = Json::MakeArray();
    for (const FileSplit& split : pending_) {
      if (split.byte_range) {
        pending.Push(SplitJson(split));
      } else {
        pending.Push(split.location);
      }
    }
    state.Set("discovered", std::move(discovered));
    state.Set("pending", std::move(pending));
    if (last_assigned_) state.Set("last-assigned", *last_assigned_);
    return state.Dump();
  }

  // {"discovered": n, "pending": m, "last-assigned": "..."}: files are handed out in the order
  // they were found (name order within a listing), a file's ranges in their order, so the first
  // n - m files are read or held by the readers (whose positions say how far), the last of those
  // being last-assigned (the rest of whose ranges may still be pending).
  std::optional<std::string> Position() const override {
    if (discovered_.empty()) return std::nullopt;
    int64_t pending_files = 0;
    const std::string* previous = last_assigned_ ? &*last_assigned_ : nullptr;
    for (const FileSplit& split : pending_) {
      if (previous == nullptr || split.location != *previous) ++pending_files;
      previous = &split.location;
    }
    Json position = Json::MakeObject();
    position.Set("discovered", static_cast<int64_t>(discovered_.size()));
    position.Set("pending", pending_files);
    if (last_assigned_) position.Set("last-assigned", *last_assigned_);
    return position.Dump();
  }

 private:
  // A new file becomes one split, or ranges of split-size bytes when it is a larger Parquet file.
  void Discover(io::FileEntry file) {
    if (!discovered_.insert(file.location).second) return;
    const int64_t split_size = source_->split_size();
    if (source_->format() != FileSource::Format::kParquet || file.size <= split_size) {
      pending_.push_back(FileSplit{.location = std::move(file.location)});
      return;
    }
    for (int64_t offset = 0; offset < file.size; offset += split_size) {
      pending_.push_back(
          FileSplit{.location = file.location,
                    .byte_range = std::pair{offset, std::min(split_size, file.size - offset)}});
    }
  }

  Status AssignToWaiting() {
    for (int subtask : context_->WaitingReaders()) {
      if (!pending_.empty()) {
        std::vector<std::any> splits;
        last_assigned_ = pending_.front().location;
        splits.emplace_back(std::move(pending_.front()));
        pending_.pop_front();
        context_->AssignSplits(subtask, std::move(splits));
      } else if (source_->bounded()) {
        context_->SignalNoMoreSplits(subtask);
      }
    }
    return Ok();
  }

  Status Restore(const std::string& text) {
    auto state = Json::Parse(text);
    if (!state || !state->is_object()) {
      return CorruptData("file source enumerator state is not a JSON object: {}", text);
    }
    FLOE_ASSIGN_OR_RETURN(const Json::Array* discovered, state->GetArray("discovered"));
    FLOE_ASSIGN_OR_RETURN(const Json::Array* pending, state->GetArray("pending"));
    for (const Json& file : *discovered) {
      if (!file.is_string()) return CorruptData("file source enumerator state: {}", text);
      discovered_.insert(file.as_string());
    }
    for (const Json& entry : *pending) {
      FLOE_ASSIGN_OR_RETURN(FileSplit split, SplitFromJson(entry, text));
      pending_.push_back(std::move(split));
    }
    // Absent in the states of versions before source positions, and before any assignment.
    if (const Json* last = state->Find("last-assigned")) {
      if (!last->is_string()) return CorruptData("file source enumerator state: {}", text);
      last_assigned_ = last->as_string();
    }
    return Ok();
  }

  std::shared_ptr<const FileSource> source_;
  SplitEnumeratorContext* context_ = nullptr;
  std::set<std::string> discovered_;
  std::deque<FileSplit> pending_;
  std::optional<std::string> last_assigned_;
  bool listed_ = false;
  int64_t last_listed_ms_ = 0;
};

// A reader's entry: SplitJson's with "rows": n.
std::string EncodeSplit(const FileSplit& split) {
  Json entry = SplitJson(split);
  entry.Set("rows", split.rows_done);
  return entry.Dump();
}

Result<FileSplit> DecodeSplit(const std::string& text) {
  auto entry = Json::Parse(text);
  if (!entry || !entry->is_object()) {
    return CorruptData("file source reader state is not a JSON object: {}", text);
  }
  FLOE_ASSIGN_OR_RETURN(FileSplit split, SplitFromJson(*entry, text));
  auto rows = entry->GetInt("rows");
  if (!rows || *rows < 0) return CorruptData("file source reader state: {}", text);
  split.rows_done = *rows;
  return split;
}

class FileReader : public SourceReader {
 public:
  explicit FileReader(std::shared_ptr<const FileSource> source) : source_(std::move(source)) {}

  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
    reader_context_ = &reader_context;
    metrics_ = context.metrics;
    files_read_metric_ =
        fmt::format("{}.{}.{}", context.operator_name, context.subtask_index, kFilesReadMetric);
    for (const std::string& entry : context.restored_state) {
      FLOE_ASSIGN_OR_RETURN(FileSplit split, DecodeSplit(entry));
      queue_.push_back(std::move(split));
    }
    return Ok();
  }

  void AddSplits(std::vector<std::any> splits) override {
    requested_ = false;
    for (std::any& split : splits) queue_.push_back(std::any_cast<FileSplit>(std::move(split)));
  }

  void NotifyNoMoreSplits() override {
    requested_ = false;
    no_more_splits_ = true;
  }

  Result<PollStatus> PollNext(Output& output) override {
    while (true) {
      if (!file_) {
        if (queue_.empty()) {
          if (no_more_splits_) return PollStatus::kEnd;
          if (!requested_) {
            requested_ = true;
            reader_context_->RequestSplit();
          }
          return PollStatus::kNothingNow;
        }
        current_ = std::move(queue_.front());
        queue_.pop_front();
        FLOE_ASSIGN_OR_RETURN(
            file_, OpenFileBatchReader(*source_, current_.location, current_.byte_range));
        // A file read in ranges counts once, with its first.
        if (metrics_ != nullptr && (!current_.byte_range || current_.byte_range->first == 0)) {
          metrics_->Add(files_read_metric_, 1);
        }
        FLOE_RETURN_IF_ERROR(SkipDone());
      }
      FLOE_ASSIGN_OR_RETURN(auto batch, file_->Next(source_->batch_size()));
      if (!batch) {
        file_.reset();
        continue;
      }
      current_.rows_done += batch->num_rows();
      last_read_ = &current_;
      FLOE_RETURN_IF_ERROR(output.Emit(std::move(*batch)));
      return PollStatus::kMoreAvailable;
    }
  }

  // The split read last and the rows emitted from it: {"file": ..., "rows": n}, with "offset"
  // and "length" for a range.
  std::optional<std::string> Position() const override {
    if (last_read_ == nullptr) return std::nullopt;
    return EncodeSplit(*last_read_);
  }

  Result<std::vector<std::string>> SnapshotState(int64_t) override {
    std::vector<std::string> entries;
    if (file_) entries.push_back(EncodeSplit(current_));
    for (const FileSplit& split : queue_) entries.push_back(EncodeSplit(split));
    return entries;
  }

 private:
  // Rows emitted before a restore are read again and dropped: text formats have no index to seek
  // by, and a Parquet file's pages must be decoded from their start anyway.
  Status SkipDone() {
    int64_t skipped = 0;
    while (skipped < current_.rows_done) {
      FLOE_ASSIGN_OR_RETURN(auto batch, file_->Next(current_.rows_done - skipped));
      if (!batch) {
        return CorruptData("{}: has {} rows{}, but {} were emitted from it before the restore",
                           current_.location, skipped,
                           current_.byte_range
                               ? fmt::format(" in bytes {}+{}", current_.byte_range->first,
                                             current_.byte_range->second)
                               : "",
                           current_.rows_done);
      }
      skipped += batch->num_rows();
    }
    return Ok();
  }

  std::shared_ptr<const FileSource> source_;
  SourceReaderContext* reader_context_ = nullptr;
  MetricGroup* metrics_ = nullptr;
  std::string files_read_metric_;
  std::deque<FileSplit> queue_;
  const FileSplit* last_read_ = nullptr;  // &current_ once a batch was emitted
  FileSplit current_;
  std::unique_ptr<FileBatchReader> file_;
  bool requested_ = false;
  bool no_more_splits_ = false;
};

}  // namespace

Result<std::shared_ptr<FileSource>> FileSource::Make(
    std::shared_ptr<io::FileIO> io, BatchSchemaPtr schema,
    const std::map<std::string, std::string>& options) {
  auto source = std::shared_ptr<FileSource>(new FileSource());
  source->io_ = std::move(io);
  std::optional<std::string> format;
  for (const auto& [key, value] : options) {
    if (key == "path") {
      source->path_ = value;
    } else if (key == "format") {
      format = value;
    } else if (key == "monitor-interval") {
      FLOE_ASSIGN_OR_RETURN(source->monitor_interval_ms_, ParseInterval(value));
    } else if (key == "batch-size") {
      FLOE_ASSIGN_OR_RETURN(source->batch_size_, ParsePositive(key, value));
    } else if (key == "split-size") {
      FLOE_ASSIGN_OR_RETURN(source->split_size_, ParsePositive(key, value));
    } else if (key == "csv.header") {
      if (value != "true" && value != "false") {
        return InvalidArgument("file source option 'csv.header': '{}' is not true or false", value);
      }
      source->csv_header_ = value == "true";
    } else {
      return InvalidArgument("file source: unknown option '{}'", key);
    }
  }
  if (source->path_.empty()) return InvalidArgument("file source: option 'path' is missing");
  if (!format) return InvalidArgument("file source: option 'format' is missing");
  if (*format == "csv") {
    source->format_ = Format::kCsv;
  } else if (*format == "json") {
    source->format_ = Format::kJson;
  } else if (*format == "parquet") {
    source->format_ = Format::kParquet;
  } else {
    return InvalidArgument("file source option 'format': '{}' is not csv, json or parquet",
                           *format);
  }

  auto info = source->io_->GetInfo(source->path_);
  if (!info) {
    return std::unexpected(std::move(info.error().AddContext("file source option 'path'")));
  }
  source->path_entry_ = std::move(*info);
  source->path_entry_.location = source->path_;
  if (source->monitor_interval_ms_ && !source->path_entry_.is_dir) {
    return InvalidArgument("file source: 'monitor-interval' needs 'path' to be a folder: {}",
                           source->path_);
  }

  if (source->format_ != Format::kParquet) {
    if (schema == nullptr || schema->num_fields() == 0) {
      return InvalidArgument("file source: {} files need a schema", *format);
    }
    for (const Field& field : schema->fields()) {
      auto type = TextColumnType::FromDataType(*field.type);
      if (!type) {
        return InvalidArgument("file source: column {}: {}", field.name, type.error().message());
      }
    }
  } else if (schema == nullptr) {
    FLOE_ASSIGN_OR_RETURN(auto files, source->ListFiles());
    if (files.empty()) {
      return InvalidArgument("file source: {} holds no Parquet file to take the schema from",
                             source->path_);
    }
    FLOE_ASSIGN_OR_RETURN(auto file, source->io_->NewInputFile(files.front().location));
    auto reader =
        parquet::ParquetBatchReader::Open(std::shared_ptr<io::InputFile>(std::move(file)));
    if (!reader) {
      return std::unexpected(std::move(reader.error().AddContext(files.front().location)));
    }
    schema = (*reader)->schema();
  }
  source->schema_ = std::move(schema);
  return source;
}

Result<std::vector<io::FileEntry>> FileSource::ListFiles() const {
  if (!path_entry_.is_dir) return std::vector<io::FileEntry>{path_entry_};
  FLOE_ASSIGN_OR_RETURN(auto entries, io_->List(path_));
  std::vector<io::FileEntry> files;
  for (io::FileEntry& entry : entries) {
    if (entry.is_dir || entry.name.starts_with('.') || entry.name.starts_with('_')) continue;
    files.push_back(std::move(entry));
  }
  return files;
}

Result<std::unique_ptr<SplitEnumerator>> FileSource::CreateEnumerator() {
  return std::make_unique<FileEnumerator>(shared_from_this());
}

Result<std::unique_ptr<SourceReader>> FileSource::CreateReader(int) {
  return std::make_unique<FileReader>(shared_from_this());
}

}  // namespace floe::stream
