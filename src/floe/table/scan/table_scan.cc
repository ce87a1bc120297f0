#include "floe/table/scan/table_scan.h"

#include <charconv>
#include <set>
#include <unordered_set>
#include <utility>

#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/manifest_group_internal.h"
#include "floe/table/scan/snapshot_selection.h"
#include "floe/table/scan/split_planner.h"

namespace floe::table {
namespace {

const std::string* FindOption(const StringMap& options, std::string_view key,
                              std::string_view alias = {}) {
  if (auto it = options.find(key); it != options.end()) return &it->second;
  if (!alias.empty()) {
    if (auto it = options.find(alias); it != options.end()) return &it->second;
  }
  return nullptr;
}

Result<int64_t> ParseLong(std::string_view key, std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("read option {}: '{}' is not an integer", key, text);
  }
  return value;
}

Result<std::optional<int64_t>> LongOption(const StringMap& options, std::string_view key) {
  const std::string* text = FindOption(options, key);
  if (!text) return std::nullopt;
  FLOE_ASSIGN_OR_RETURN(int64_t value, ParseLong(key, *text));
  return value;
}

// A positive size from the scan options (key or its Flink alias), else the table property, else
// the default.
Result<int64_t> SizeSetting(const StringMap& options, const TableMetadata& metadata,
                            std::string_view key, std::string_view alias, int64_t fallback) {
  const std::string* text = FindOption(options, key, alias);
  std::string property;
  if (!text) {
    property = std::string(metadata.property(key));
    if (property.empty()) return fallback;
    text = &property;
  }
  FLOE_ASSIGN_OR_RETURN(int64_t value, ParseLong(key, *text));
  if (value <= 0) return InvalidArgument("read option {} must be positive, not {}", key, value);
  return value;
}

// The manifests of a snapshot: its manifest list, or a v1 snapshot's inline manifest paths.
Result<std::vector<manifest::ManifestFile>> SnapshotManifests(io::FileIO& io,
                                                              const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(snapshot.manifest_list));
    auto list = manifest::ReadManifestList(*input);
    if (!list) list.error().AddContext("reading manifest list " + snapshot.manifest_list);
    return list;
  }
  std::vector<manifest::ManifestFile> out;
  for (const std::string& path : snapshot.manifests) {
    // Only the header says which spec an inline manifest was written with.
    FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(path));
    FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input));
    manifest::ManifestFile m;
    m.manifest_path = path;
    m.partition_spec_id = reader->spec_id();
    m.content = reader->content();
    m.added_snapshot_id = snapshot.snapshot_id;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

struct TableScan::Selection {
  SnapshotPtr snapshot;
  SchemaPtr schema;
  expr::ExprPtr filter;  // bound
  std::optional<int64_t> from;
  bool from_inclusive = false;
};

TableScan::TableScan(TableMetadataPtr metadata, std::shared_ptr<io::FileIO> io)
    : metadata_(std::move(metadata)), io_(std::move(io)) {}

TableScan& TableScan::UseSnapshot(int64_t snapshot_id) {
  snapshot_id_ = snapshot_id;
  return *this;
}
TableScan& TableScan::AsOfTime(int64_t timestamp_ms) {
  as_of_ms_ = timestamp_ms;
  return *this;
}
TableScan& TableScan::UseRef(std::string name) {
  ref_ = std::move(name);
  return *this;
}
TableScan& TableScan::FromSnapshot(int64_t snapshot_id, bool inclusive) {
  from_snapshot_id_ = snapshot_id;
  from_inclusive_ = inclusive;
  return *this;
}
TableScan& TableScan::Filter(expr::ExprPtr filter) {
  filter_ = filter_ ? expr::And(filter_, std::move(filter)) : std::move(filter);
  return *this;
}
TableScan& TableScan::CaseSensitive(bool case_sensitive) {
  case_sensitive_ = case_sensitive;
  return *this;
}
TableScan& TableScan::Select(std::vector<std::string> columns) {
  columns_ = std::move(columns);
  return *this;
}
TableScan& TableScan::Option(std::string key, std::string value) {
  options_.insert_or_assign(std::move(key), std::move(value));
  return *this;
}
TableScan& TableScan::Options(const StringMap& options) {
  for (const auto& [key, value] : options) options_.insert_or_assign(key, value);
  return *this;
}
TableScan& TableScan::WithLocationMapping(LocationMapping mapping) {
  mapping_ = std::move(mapping);
  return *this;
}
TableScan& TableScan::IncludeColumnStats(bool include) {
  include_column_stats_ = include;
  return *this;
}
TableScan& TableScan::WithThreadPool(ThreadPool* pool) {
  pool_ = pool;
  return *this;
}

Result<TableScan::SplitSettings> TableScan::split_settings() const {
  SplitSettings s;
  FLOE_ASSIGN_OR_RETURN(s.target_size, SizeSetting(options_, *metadata_, "read.split.target-size",
                                                   "split-size", s.target_size));
  FLOE_ASSIGN_OR_RETURN(s.open_file_cost,
                        SizeSetting(options_, *metadata_, "read.split.open-file-cost",
                                    "split-file-open-cost", s.open_file_cost));
  FLOE_ASSIGN_OR_RETURN(int64_t lookback,
                        SizeSetting(options_, *metadata_, "read.split.planning-lookback",
                                    "split-lookback", s.lookback));
  if (lookback > 1'000'000) {
    return InvalidArgument("read option read.split.planning-lookback {} is too large", lookback);
  }
  s.lookback = static_cast<int>(lookback);
  return s;
}

Result<TableScan::Selection> TableScan::Resolve() const {
  SnapshotSelector selector{snapshot_id_, as_of_ms_, ref_};
  std::optional<int64_t> from = from_snapshot_id_;
  bool from_inclusive = from_inclusive_;
  bool case_sensitive = case_sensitive_;
  // Options fill in what the setters left unset.
  if (!selector.snapshot_id) {
    FLOE_ASSIGN_OR_RETURN(selector.snapshot_id, LongOption(options_, "snapshot-id"));
  }
  if (!selector.snapshot_id) {
    FLOE_ASSIGN_OR_RETURN(selector.snapshot_id, LongOption(options_, "end-snapshot-id"));
  }
  if (!selector.as_of_ms) {
    FLOE_ASSIGN_OR_RETURN(selector.as_of_ms, LongOption(options_, "as-of-timestamp"));
  }
  if (!selector.ref) {
    const std::string* branch = FindOption(options_, "branch");
    const std::string* tag = FindOption(options_, "tag");
    if (branch && tag) return InvalidArgument("read options branch and tag are both set");
    if (branch || tag) selector.ref = branch ? *branch : *tag;
  }
  if (!from) {
    FLOE_ASSIGN_OR_RETURN(from, LongOption(options_, "start-snapshot-id"));
  }
  if (const std::string* text = FindOption(options_, "case-sensitive")) {
    if (*text != "true" && *text != "false") {
      return InvalidArgument("read option case-sensitive must be true or false, not '{}'", *text);
    }
    case_sensitive = *text == "true";
  }

  Selection s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot, SelectSnapshot(*metadata_, selector));
  FLOE_ASSIGN_OR_RETURN(s.schema, SchemaForSnapshot(*metadata_, s.snapshot.get()));
  s.filter = expr::True();
  if (filter_) {
    FLOE_ASSIGN_OR_RETURN(s.filter, expr::Bind(filter_, *s.schema, case_sensitive));
  }
  s.from = from;
  s.from_inclusive = from_inclusive;
  if (from && !s.snapshot) return NotFound("an incremental scan of a table without snapshots");
  return s;
}

Result<SnapshotPtr> TableScan::snapshot() const {
  FLOE_ASSIGN_OR_RETURN(Selection s, Resolve());
  return s.snapshot;
}

Result<SchemaPtr> TableScan::schema() const {
  FLOE_ASSIGN_OR_RETURN(Selection s, Resolve());
  return s.schema;
}

Result<expr::ExprPtr> TableScan::BoundFilter() const {
  FLOE_ASSIGN_OR_RETURN(Selection s, Resolve());
  return s.filter;
}

Result<SchemaPtr> TableScan::ProjectedSchema() const {
  FLOE_ASSIGN_OR_RETURN(Selection s, Resolve());
  if (!columns_) return s.schema;
  bool case_sensitive = case_sensitive_;
  if (const std::string* text = FindOption(options_, "case-sensitive")) {
    case_sensitive = *text == "true";
  }
  return s.schema->Select(*columns_, case_sensitive);
}

Status TableScan::PlanFiles(const std::function<Status(FileScanTask)>& sink) const {
  FLOE_ASSIGN_OR_RETURN(Selection s, Resolve());
  if (!s.snapshot) return Ok();
  std::shared_ptr<io::FileIO> io = MapLocations(io_, mapping_);

  ManifestGroupOptions options;
  options.metadata = metadata_.get();
  options.schema = s.schema;
  options.filter = s.filter;
  options.io = io.get();
  options.pool = pool_;
  options.mapping = mapping_;
  options.include_column_stats = include_column_stats_;

  if (!s.from) {
    FLOE_ASSIGN_OR_RETURN(auto manifests, SnapshotManifests(*io, *s.snapshot));
    return PlanManifestGroup(options, manifests, sink);
  }

  FLOE_ASSIGN_OR_RETURN(
      auto range, SnapshotsBetween(*metadata_, s.from, s.from_inclusive, s.snapshot->snapshot_id));
  std::unordered_set<int64_t> appends;
  std::vector<manifest::ManifestFile> manifests;
  std::set<std::string> seen;
  for (const SnapshotPtr& snapshot : range) {
    std::string_view op = snapshot->operation();
    if (op == kOperationReplace) continue;
    if (op != kOperationAppend) {
      return Unsupported(
          "snapshot {} in the incremental range is a '{}', not an append: an append scan cannot "
          "express its changes",
          snapshot->snapshot_id, op.empty() ? "snapshot without operation" : op);
    }
    appends.insert(snapshot->snapshot_id);
    FLOE_ASSIGN_OR_RETURN(auto list, SnapshotManifests(*io, *snapshot));
    for (manifest::ManifestFile& m : list) {
      if (m.added_snapshot_id != snapshot->snapshot_id || !seen.insert(m.manifest_path).second) {
        continue;
      }
      manifests.push_back(std::move(m));
    }
  }
  options.added_by = &appends;
  return PlanManifestGroup(options, manifests, sink);
}

Result<std::vector<FileScanTask>> TableScan::PlanFiles() const {
  std::vector<FileScanTask> tasks;
  FLOE_RETURN_IF_ERROR(PlanFiles([&](FileScanTask task) -> Status {
    tasks.push_back(std::move(task));
    return Ok();
  }));
  return tasks;
}

Result<std::vector<CombinedScanTask>> TableScan::PlanTasks() const {
  FLOE_ASSIGN_OR_RETURN(SplitSettings settings, split_settings());
  std::vector<FileScanTask> ranges;
  FLOE_RETURN_IF_ERROR(PlanFiles([&](FileScanTask task) -> Status {
    SplitTask(task, settings.target_size, ranges);
    return Ok();
  }));
  return PackTasks(std::move(ranges), settings.target_size, settings.open_file_cost,
                   settings.lookback);
}

}  // namespace floe::table
