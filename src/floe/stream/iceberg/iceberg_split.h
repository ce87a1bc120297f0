#pragma once

// The unit of work IcebergSource's enumerator hands to its readers, and its encoding in
// checkpoints.
//
// A split reads scan tasks (byte ranges of data files with their delete files) and says what the
// rows it yields mean:
//   kInsert  the rows are emitted as +I (table scans, appended files, files an overwrite added);
//   kDelete  the rows are emitted as -D (files an overwrite or delete removed, read with the
//            deletes that applied to them before);
//   kDiff    one data file whose delete files changed (a row delta): `before` holds it as the
//            parent snapshot read it, `tasks` as the snapshot reads it; rows only before are -D,
//            rows only after are +I (compared by value, as a multiset).
//
// Encoding: JSON with the files' paths, formats, sizes, counts, partition tuples (as the partition
// type's single-value JSON), split offsets, equality ids, referenced files and deletion-vector
// ranges: what reading needs, no column statistics. A task's residual filter is not kept: a
// decoded task has none, and the reader applies the whole filter instead, which selects the same
// rows. Decoding needs the table's metadata for the partition specs; an unknown spec or a
// malformed document is kInvalidArgument naming the split.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/table/scan/file_scan_task.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe::stream {

enum class SplitKind { kInsert, kDelete, kDiff };

struct IcebergSplit {
  // Unique within a job: "<snapshot id>-<n>" for incremental splits, "scan-<n>" for a table scan.
  std::string id;
  SplitKind kind = SplitKind::kInsert;
  // The snapshot whose planning made it (0 for none): for ordering and messages.
  int64_t snapshot_id = 0;
  std::vector<table::FileScanTask> tasks;
  std::vector<table::FileScanTask> before;  // kDiff only
};

// Splits travel between enumerator and readers as std::any holding this (copyable, shared).
using IcebergSplitPtr = std::shared_ptr<const IcebergSplit>;

// A split as a JSON value, to be embedded in the enumerator's and readers' state.
Json SplitToJson(const IcebergSplit& split);
Result<IcebergSplit> SplitFromJson(const Json& json, const TableMetadata& metadata);

}  // namespace floe::stream
