#pragma once

// The engine of scan planning: from a snapshot's manifests to file scan tasks. Delete manifests
// are read first into a DeleteFileIndex; data manifests are then read in parallel (one manifest
// per unit of work), pruned and turned into tasks, which reach the sink in manifest list order
// and, within a manifest, in entry order, whatever the number of threads. Used by TableScan for
// both full and incremental scans.

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_set>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/manifest/data_file.h"
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

struct ManifestGroupOptions {
  const TableMetadata* metadata = nullptr;  // for the partition specs
  SchemaPtr schema;                         // the filter's schema
  expr::ExprPtr filter;                     // bound to schema; nullptr or true keeps everything
  io::FileIO* io = nullptr;                 // reads manifests (already mapping locations)
  ThreadPool* pool = nullptr;               // nullptr: the calling thread
  LocationMapping mapping;                  // applied to the paths in the tasks
  // Keep the data files' column statistics (counts and bounds) in the tasks.
  bool include_column_stats = false;
  // When set, only entries ADDED by one of these snapshots (incremental scans); manifests that
  // none of them added are skipped without reading.
  const std::unordered_set<int64_t>* added_by = nullptr;
};

// Plans the data files of manifests (data and delete manifests of one snapshot, in list order).
Status PlanManifestGroup(const ManifestGroupOptions& options,
                         const std::vector<manifest::ManifestFile>& manifests,
                         const std::function<Status(FileScanTask)>& sink);

}  // namespace floe::table
