#pragma once

// Choosing the snapshot a scan reads (time travel) and walking the ancestry between two
// snapshots (incremental reads). Errors: kNotFound naming the snapshot id, ref or time that
// selects nothing; kInvalidArgument for contradicting selections or a range whose start is not an
// ancestor of its end.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::table {

// At most one of the members may be set; none selects the current snapshot.
struct SnapshotSelector {
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> as_of_ms;
  std::optional<std::string> ref;  // branch or tag
};

// The selected snapshot, or nullptr when the table has no current snapshot and nothing else was
// asked for.
Result<SnapshotPtr> SelectSnapshot(const TableMetadata& metadata, const SnapshotSelector& selector);

// The snapshot that was current at timestamp_ms: the last snapshot-log entry at or before it
// (kNotFound when the log starts later).
Result<SnapshotPtr> SnapshotAsOf(const TableMetadata& metadata, int64_t timestamp_ms);

// The schema a snapshot was written with (its schema-id), else the current schema.
Result<SchemaPtr> SchemaForSnapshot(const TableMetadata& metadata, const Snapshot* snapshot);

// The snapshots after from (exclusive, or inclusive) up to to, oldest first, following parent
// links back from to. from must be an ancestor of to (or to itself); with from absent, every
// ancestor of to. A parent missing from the metadata (expired) ends the walk, which is an error
// only when from was not reached.
Result<std::vector<SnapshotPtr>> SnapshotsBetween(const TableMetadata& metadata,
                                                  std::optional<int64_t> from, bool from_inclusive,
                                                  int64_t to);

}  // namespace floe::table
