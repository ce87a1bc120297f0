#pragma once

// What IcebergSource's enumerator plans, apart from when it plans it: the splits of a batch read,
// the start of a streaming read (per starting strategy), and the splits of the snapshots committed
// after a position. Built on table/scan: TableScan for table scans and incremental append scans,
// ReadSnapshotChanges for the snapshots an append scan cannot express.
//
// Snapshots after a position are planned in commit order, oldest first: runs of appends (and
// replaces, which change no rows and are skipped) as one incremental append scan; each overwrite,
// delete or other snapshot S as a change set against its parent P — files S removed are read as P
// read them (with P's deletes) and emitted as -D, files S added as +I, and files whose deletes S
// changed as a diff of the two reads (iceberg_split.h). Planning such a snapshot plans the whole
// scans of it and of its parent (to learn which deletes applied to each file), so it costs two
// table scans' manifest reads; appends cost only their own manifests.
//
// Errors: a start snapshot id, timestamp or branch that selects nothing (kNotFound), a position
// that is not an ancestor of the table's head any more (kInvalidArgument: the table was rolled
// back or its history rewritten), and the scan layer's errors.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/stream/iceberg/iceberg_split.h"
#include "floe/stream/iceberg/source_options.h"

namespace floe::stream {

class SourcePlanner {
 public:
  SourcePlanner(IcebergSourceOptions options, expr::ExprPtr filter);

  // Where a streaming read starts: splits to read first (TABLE_SCAN_THEN_INCREMENTAL's table
  // scan, else none) and the position after which incremental reading continues (nullopt: every
  // snapshot of the head's history is still to be read).
  struct Start {
    std::vector<IcebergSplit> splits;
    std::optional<int64_t> position;
  };

  // A batch read: the selected snapshot's table scan, or (start-snapshot-id) the snapshots after
  // start-snapshot-id up to end-snapshot-id or the current snapshot. The position is the snapshot
  // read (the last one of an incremental read; nullopt for a table without snapshots).
  Result<Start> PlanBatch(const TableMetadataPtr& metadata,
                          const std::shared_ptr<io::FileIO>& io) const;
  Result<Start> PlanStart(const TableMetadataPtr& metadata,
                          const std::shared_ptr<io::FileIO>& io) const;

  // The snapshot streaming reads follow: the branch's head, else the current snapshot (nullptr
  // for a table without one).
  Result<SnapshotPtr> Head(const TableMetadata& metadata) const;

  // The snapshots after `from` (exclusive; nullopt: from the start of to's history) up to `to`.
  Result<std::vector<IcebergSplit>> PlanBetween(const TableMetadataPtr& metadata,
                                                const std::shared_ptr<io::FileIO>& io,
                                                std::optional<int64_t> from, int64_t to) const;

 private:
  Result<std::vector<IcebergSplit>> PlanChanges(const TableMetadataPtr& metadata,
                                                const std::shared_ptr<io::FileIO>& io,
                                                const Snapshot& snapshot) const;
  // Packs whole-file tasks into splits of `kind` by the split settings.
  Result<std::vector<IcebergSplit>> Pack(const TableMetadataPtr& metadata,
                                         std::vector<table::FileScanTask> tasks, SplitKind kind,
                                         int64_t snapshot_id, std::string prefix) const;

  IcebergSourceOptions options_;
  expr::ExprPtr filter_;  // unbound, or null
};

}  // namespace floe::stream
