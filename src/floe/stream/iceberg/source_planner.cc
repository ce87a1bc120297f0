#include "floe/stream/iceberg/source_planner.h"

#include <algorithm>
#include <map>
#include <utility>

#include "floe/table/scan/snapshot_changes.h"
#include "floe/table/scan/snapshot_selection.h"
#include "floe/table/scan/split_planner.h"
#include "floe/table/scan/table_scan.h"

namespace floe::stream {
namespace {

using table::FileScanTask;

std::vector<std::string> DeletePaths(const FileScanTask& task) {
  std::vector<std::string> out;
  for (const auto& d : task.deletes) out.push_back(d->file_path);
  std::sort(out.begin(), out.end());
  return out;
}

bool IsAppendLike(const Snapshot& snapshot) {
  return snapshot.operation() == kOperationAppend || snapshot.operation() == kOperationReplace;
}

}  // namespace

SourcePlanner::SourcePlanner(IcebergSourceOptions options, expr::ExprPtr filter)
    : options_(std::move(options)), filter_(std::move(filter)) {}

Result<std::vector<IcebergSplit>> SourcePlanner::Pack(const TableMetadataPtr& metadata,
                                                      std::vector<FileScanTask> tasks,
                                                      SplitKind kind, int64_t snapshot_id,
                                                      std::string prefix) const {
  table::TableScan settings_scan(metadata, nullptr);
  settings_scan.Options(options_.ScanOptions());
  FLOE_ASSIGN_OR_RETURN(auto settings, settings_scan.split_settings());
  std::vector<FileScanTask> ranges;
  for (const FileScanTask& task : tasks) table::SplitTask(task, settings.target_size, ranges);
  std::vector<table::CombinedScanTask> packed = table::PackTasks(
      std::move(ranges), settings.target_size, settings.open_file_cost, settings.lookback);
  std::vector<IcebergSplit> out;
  for (table::CombinedScanTask& group : packed) {
    IcebergSplit split;
    split.id = prefix + std::to_string(out.size());
    split.kind = kind;
    split.snapshot_id = snapshot_id;
    split.tasks = std::move(group.tasks);
    out.push_back(std::move(split));
  }
  return out;
}

Result<SourcePlanner::Start> SourcePlanner::PlanBatch(const TableMetadataPtr& metadata,
                                                      const std::shared_ptr<io::FileIO>& io) const {
  Start start;
  if (options_.start_snapshot_id) {
    int64_t to = 0;
    if (options_.end_snapshot_id) {
      to = *options_.end_snapshot_id;
    } else {
      FLOE_ASSIGN_OR_RETURN(SnapshotPtr head, Head(*metadata));
      if (!head) return NotFound("an incremental read of a table without snapshots");
      to = head->snapshot_id;
    }
    FLOE_ASSIGN_OR_RETURN(start.splits, PlanBetween(metadata, io, options_.start_snapshot_id, to));
    start.position = to;
    return start;
  }
  table::TableScan scan(metadata, io);
  scan.Options(options_.ScanOptions());
  if (options_.snapshot_id) scan.UseSnapshot(*options_.snapshot_id);
  if (options_.as_of_timestamp_ms) scan.AsOfTime(*options_.as_of_timestamp_ms);
  if (options_.branch) scan.UseRef(*options_.branch);
  if (options_.tag) scan.UseRef(*options_.tag);
  if (filter_) scan.Filter(filter_);
  FLOE_ASSIGN_OR_RETURN(SnapshotPtr snapshot, scan.snapshot());
  FLOE_ASSIGN_OR_RETURN(auto files, scan.PlanFiles());
  int64_t id = snapshot ? snapshot->snapshot_id : 0;
  FLOE_ASSIGN_OR_RETURN(start.splits, Pack(metadata, std::move(files), SplitKind::kInsert, id,
                                           "scan-" + std::to_string(id) + "-"));
  if (snapshot) start.position = id;
  return start;
}

Result<SnapshotPtr> SourcePlanner::Head(const TableMetadata& metadata) const {
  if (!options_.branch) return metadata.current_snapshot();
  return table::SelectSnapshot(metadata, {.ref = *options_.branch});
}

Result<SourcePlanner::Start> SourcePlanner::PlanStart(const TableMetadataPtr& metadata,
                                                      const std::shared_ptr<io::FileIO>& io) const {
  Start start;
  FLOE_ASSIGN_OR_RETURN(SnapshotPtr head, Head(*metadata));
  SnapshotPtr first;  // read inclusively
  switch (options_.starting_strategy) {
    case StartingStrategy::kTableScanThenIncremental: {
      if (!head) return start;
      table::TableScan scan(metadata, io);
      scan.Options(options_.ScanOptions()).UseSnapshot(head->snapshot_id);
      if (filter_) scan.Filter(filter_);
      FLOE_ASSIGN_OR_RETURN(auto files, scan.PlanFiles());
      FLOE_ASSIGN_OR_RETURN(start.splits,
                            Pack(metadata, std::move(files), SplitKind::kInsert, head->snapshot_id,
                                 "scan-" + std::to_string(head->snapshot_id) + "-"));
      start.position = head->snapshot_id;
      return start;
    }
    case StartingStrategy::kIncrementalFromLatestSnapshotExclusive:
      if (head) start.position = head->snapshot_id;
      return start;
    case StartingStrategy::kIncrementalFromLatestSnapshot:
      first = head;
      break;
    case StartingStrategy::kIncrementalFromEarliestSnapshot:
      if (head) {
        FLOE_ASSIGN_OR_RETURN(auto history, table::SnapshotsBetween(*metadata, std::nullopt, false,
                                                                    head->snapshot_id));
        first = history.front();
      }
      break;
    case StartingStrategy::kIncrementalFromSnapshotId:
      first = metadata->SnapshotById(*options_.start_snapshot_id);
      if (!first) {
        return NotFound("start-snapshot-id {} is not in the table", *options_.start_snapshot_id);
      }
      if (options_.start_snapshot_exclusive) {
        // Its successors only, even while it is still the current snapshot.
        start.position = first->snapshot_id;
        return start;
      }
      break;
    case StartingStrategy::kIncrementalFromSnapshotTimestamp: {
      // The oldest ancestor of the head committed at or after the timestamp.
      if (head) {
        FLOE_ASSIGN_OR_RETURN(auto history, table::SnapshotsBetween(*metadata, std::nullopt, false,
                                                                    head->snapshot_id));
        for (const SnapshotPtr& s : history) {
          if (s->timestamp_ms >= *options_.start_snapshot_timestamp_ms) {
            first = s;
            break;
          }
        }
      }
      if (!first) {
        return NotFound("no snapshot was committed at or after start-snapshot-timestamp {}",
                        *options_.start_snapshot_timestamp_ms);
      }
      break;
    }
  }
  if (first) start.position = first->parent_snapshot_id;
  return start;
}

Result<std::vector<IcebergSplit>> SourcePlanner::PlanBetween(const TableMetadataPtr& metadata,
                                                             const std::shared_ptr<io::FileIO>& io,
                                                             std::optional<int64_t> from,
                                                             int64_t to) const {
  FLOE_ASSIGN_OR_RETURN(auto range, table::SnapshotsBetween(*metadata, from, false, to));
  std::vector<IcebergSplit> out;
  auto append = [&](std::vector<IcebergSplit> splits) {
    for (IcebergSplit& s : splits) out.push_back(std::move(s));
  };
  size_t i = 0;
  while (i < range.size()) {
    if (!IsAppendLike(*range[i])) {
      FLOE_ASSIGN_OR_RETURN(auto splits, PlanChanges(metadata, io, *range[i]));
      append(std::move(splits));
      ++i;
      continue;
    }
    size_t end = i;
    while (end + 1 < range.size() && IsAppendLike(*range[end + 1])) ++end;
    const int64_t last = range[end]->snapshot_id;
    table::TableScan scan(metadata, io);
    scan.Options(options_.ScanOptions())
        .FromSnapshot(range[i]->snapshot_id, /*inclusive=*/true)
        .UseSnapshot(last);
    if (filter_) scan.Filter(filter_);
    FLOE_ASSIGN_OR_RETURN(auto files, scan.PlanFiles());
    FLOE_ASSIGN_OR_RETURN(auto splits, Pack(metadata, std::move(files), SplitKind::kInsert, last,
                                            std::to_string(last) + "-"));
    append(std::move(splits));
    i = end + 1;
  }
  return out;
}

Result<std::vector<IcebergSplit>> SourcePlanner::PlanChanges(const TableMetadataPtr& metadata,
                                                             const std::shared_ptr<io::FileIO>& io,
                                                             const Snapshot& snapshot) const {
  const int64_t id = snapshot.snapshot_id;
  FLOE_ASSIGN_OR_RETURN(table::SnapshotChanges changes,
                        table::ReadSnapshotChanges(*metadata, *io, id));
  // Each file as the snapshot (or its parent) reads it: its deletes, its residual filter. A file
  // the filter prunes holds no matching rows, so it changes nothing this read shows.
  auto tasks_of =
      [&](std::optional<int64_t> snapshot_id) -> Result<std::map<std::string, FileScanTask>> {
    std::map<std::string, FileScanTask> out;
    if (!snapshot_id) return out;
    table::TableScan scan(metadata, io);
    scan.Options(options_.ScanOptions()).UseSnapshot(*snapshot_id);
    if (filter_) scan.Filter(filter_);
    FLOE_RETURN_IF_ERROR(scan.PlanFiles([&](FileScanTask task) -> Status {
      std::string path = task.data_file->file_path;
      out.emplace(std::move(path), std::move(task));
      return Ok();
    }));
    return out;
  };
  std::optional<int64_t> parent = snapshot.parent_snapshot_id;
  if (parent && !metadata->SnapshotById(*parent)) {
    return InvalidArgument(
        "snapshot {}: its parent {} has expired, so the rows it removed are unknown", id, *parent);
  }
  FLOE_ASSIGN_OR_RETURN(auto after, tasks_of(id));
  FLOE_ASSIGN_OR_RETURN(auto before, tasks_of(parent));

  std::vector<FileScanTask> removed, added;
  for (const table::ChangedFile& f : changes.removed_data_files) {
    if (auto it = before.find(f.file->file_path); it != before.end()) removed.push_back(it->second);
  }
  for (const table::ChangedFile& f : changes.added_data_files) {
    if (auto it = after.find(f.file->file_path); it != after.end()) added.push_back(it->second);
  }
  std::vector<IcebergSplit> out;
  const std::string prefix = std::to_string(id) + "-";
  FLOE_ASSIGN_OR_RETURN(auto deleted,
                        Pack(metadata, std::move(removed), SplitKind::kDelete, id, prefix + "d"));
  FLOE_ASSIGN_OR_RETURN(auto inserted,
                        Pack(metadata, std::move(added), SplitKind::kInsert, id, prefix + "i"));
  for (IcebergSplit& s : deleted) out.push_back(std::move(s));
  for (IcebergSplit& s : inserted) out.push_back(std::move(s));
  if (!changes.added_delete_files.empty() || !changes.removed_delete_files.empty()) {
    for (auto& [path, task] : after) {
      auto it = before.find(path);
      if (it == before.end() || DeletePaths(it->second) == DeletePaths(task)) continue;
      IcebergSplit split;
      split.id = prefix + "x" + std::to_string(out.size());
      split.kind = SplitKind::kDiff;
      split.snapshot_id = id;
      split.before.push_back(it->second);
      split.tasks.push_back(task);
      out.push_back(std::move(split));
    }
  }
  return out;
}

}  // namespace floe::stream
