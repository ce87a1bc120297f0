#pragma once

// Planning a read of an Iceberg table (spec "Scan Planning"): which snapshot, which data files,
// which delete files apply to each, what filter remains per file, and how the files are split and
// grouped into units of work for readers.
//
//   TableScan scan(metadata, io);
//   scan.UseRef("audit").Filter(expr::Equal("region", Literal::String("eu"))).Select({"id"});
//   FLOE_ASSIGN_OR_RETURN(std::vector<CombinedScanTask> tasks, scan.PlanTasks());
//
// Snapshot selection: the current snapshot unless UseSnapshot, AsOfTime or UseRef says otherwise
// (at most one of them). A table without snapshots plans nothing. FromSnapshot turns the scan
// into an incremental append scan: only the data files that `append` snapshots after (or from)
// that snapshot up to the selected one added, with no delete files (appends add none); a
// snapshot of another operation in that range fails planning with kUnsupported naming it, except
// `replace` (compaction), which rewrites rows without changing them and is skipped.
//
// Pruning, in order: manifests by their partition summaries, entries by their partition tuple,
// data files by column metrics; each manifest uses the filter projected through its own partition
// spec, so tables with partition evolution prune correctly. Only live entries (ADDED, EXISTING)
// are planned. Results come in a deterministic order (manifest list order, then manifest order)
// whatever the number of planning threads.
//
// Options (Option/Options), as Flink's read options and table properties name them; a scan option
// overrides the table property, which overrides the default:
//   read.split.target-size (alias split-size)             bytes per combined task, 128 MiB
//   read.split.open-file-cost (alias split-file-open-cost) the least weight of a file, 4 MiB
//   read.split.planning-lookback (alias split-lookback)    open bins while packing, 10
//   snapshot-id, as-of-timestamp (ms), branch, tag         snapshot selection, as the setters
//   start-snapshot-id, end-snapshot-id                     incremental append scan (start
//                                                          exclusive), as FromSnapshot/UseSnapshot
//   case-sensitive                                         "true"/"false", as CaseSensitive
// Unknown keys are ignored (they belong to other layers); malformed values are kInvalidArgument.
//
// What can go wrong: a snapshot id, ref or timestamp that selects nothing (kNotFound), a filter
// or column that does not bind to the snapshot's schema (kInvalidArgument), unreadable manifests
// (the reader's errors, with the manifest's location).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/spec/snapshot.h"
#include "floe/spec/table_metadata.h"
#include "floe/table/scan/file_scan_task.h"
#include "floe/table/scan/location_mapping.h"
#include "floe/util/error.h"

namespace floe {
class ThreadPool;
}
namespace floe::io {
class FileIO;
}

namespace floe::table {

class TableScan {
 public:
  TableScan(TableMetadataPtr metadata, std::shared_ptr<io::FileIO> io);

  TableScan& UseSnapshot(int64_t snapshot_id);
  // The snapshot that was current at timestamp_ms, per the snapshot log.
  TableScan& AsOfTime(int64_t timestamp_ms);
  // A branch or tag.
  TableScan& UseRef(std::string name);
  // Makes this an incremental append scan starting after (or, inclusive, at) snapshot_id, which
  // must be an ancestor of the selected snapshot.
  TableScan& FromSnapshot(int64_t snapshot_id, bool inclusive = false);

  // Rows must match filter (unbound, or bound to the selected snapshot's schema); several calls
  // are and-ed.
  TableScan& Filter(expr::ExprPtr filter);
  TableScan& CaseSensitive(bool case_sensitive);
  // Top-level or dotted column names; all columns when never called.
  TableScan& Select(std::vector<std::string> columns);

  TableScan& Option(std::string key, std::string value);
  TableScan& Options(const StringMap& options);

  // Keeps the data files' column statistics (value/null/NaN counts, sizes, bounds) in the
  // tasks, e.g. for watermarks from column bounds. Off by default: they are most of a task's
  // memory and cost a third of planning time.
  TableScan& IncludeColumnStats(bool include = true);

  // Applied to manifest lists and manifests read, and to the file paths of planned tasks.
  TableScan& WithLocationMapping(LocationMapping mapping);
  // Reads manifests on pool's workers (borrowed; must outlive planning). Without one, planning
  // runs on the calling thread.
  TableScan& WithThreadPool(ThreadPool* pool);

  const TableMetadataPtr& metadata() const { return metadata_; }

  // The selected snapshot; nullptr for a table without snapshots.
  Result<SnapshotPtr> snapshot() const;
  // The schema of the selected snapshot (the current schema when it records none, or for a
  // table without snapshots).
  Result<SchemaPtr> schema() const;
  // The columns the reader should produce: schema() narrowed to Select's columns.
  Result<SchemaPtr> ProjectedSchema() const;
  // The filter bound to schema(); always-true when none was given.
  Result<expr::ExprPtr> BoundFilter() const;

  // One task per live data file that may hold matching rows (whole files, not split).
  Result<std::vector<FileScanTask>> PlanFiles() const;
  // The same tasks, handed one at a time to sink in the same order; planning stops at the first
  // error sink returns.
  Status PlanFiles(const std::function<Status(FileScanTask)>& sink) const;
  // The tasks split at split_offsets (or every target size when a file has none) and packed into
  // combined tasks of about the target size.
  Result<std::vector<CombinedScanTask>> PlanTasks() const;

  // The split planning settings in effect (options, then table properties, then defaults).
  struct SplitSettings {
    int64_t target_size = int64_t{128} << 20;
    int64_t open_file_cost = int64_t{4} << 20;
    int lookback = 10;
  };
  Result<SplitSettings> split_settings() const;

 private:
  struct Selection;
  Result<Selection> Resolve() const;

  TableMetadataPtr metadata_;
  std::shared_ptr<io::FileIO> io_;
  std::optional<int64_t> snapshot_id_;
  std::optional<int64_t> as_of_ms_;
  std::optional<std::string> ref_;
  std::optional<int64_t> from_snapshot_id_;
  bool from_inclusive_ = false;
  expr::ExprPtr filter_;
  bool case_sensitive_ = true;
  std::optional<std::vector<std::string>> columns_;
  StringMap options_;
  LocationMapping mapping_;
  ThreadPool* pool_ = nullptr;
  bool include_column_stats_ = false;
};

}  // namespace floe::table
