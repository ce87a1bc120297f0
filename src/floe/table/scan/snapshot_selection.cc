#include "floe/table/scan/snapshot_selection.h"

#include <algorithm>

namespace floe::table {

Result<SnapshotPtr> SnapshotAsOf(const TableMetadata& metadata, int64_t timestamp_ms) {
  std::optional<int64_t> id;
  for (const SnapshotLogEntry& entry : metadata.snapshot_log()) {
    if (entry.timestamp_ms <= timestamp_ms) id = entry.snapshot_id;
  }
  if (!id)
    return NotFound("no snapshot was current at {} ms (the snapshot log starts later)",
                    timestamp_ms);
  SnapshotPtr snapshot = metadata.SnapshotById(*id);
  if (!snapshot) {
    return NotFound("snapshot {}, current at {} ms per the snapshot log, has expired", *id,
                    timestamp_ms);
  }
  return snapshot;
}

Result<SnapshotPtr> SelectSnapshot(const TableMetadata& metadata,
                                   const SnapshotSelector& selector) {
  int given = int{selector.snapshot_id.has_value()} + int{selector.as_of_ms.has_value()} +
              int{selector.ref.has_value()};
  if (given > 1) {
    return InvalidArgument(
        "select a snapshot by one of snapshot-id, as-of-timestamp or ref, not {}", given);
  }
  if (selector.snapshot_id) {
    SnapshotPtr snapshot = metadata.SnapshotById(*selector.snapshot_id);
    if (!snapshot) return NotFound("snapshot {} is not in the table", *selector.snapshot_id);
    return snapshot;
  }
  if (selector.as_of_ms) return SnapshotAsOf(metadata, *selector.as_of_ms);
  if (selector.ref) {
    const SnapshotRef* ref = metadata.FindRef(*selector.ref);
    if (!ref) return NotFound("the table has no branch or tag '{}'", *selector.ref);
    SnapshotPtr snapshot = metadata.SnapshotById(ref->snapshot_id);
    if (!snapshot) {
      return NotFound("ref '{}' names snapshot {}, which is not in the table", *selector.ref,
                      ref->snapshot_id);
    }
    return snapshot;
  }
  return metadata.current_snapshot();
}

Result<SchemaPtr> SchemaForSnapshot(const TableMetadata& metadata, const Snapshot* snapshot) {
  if (snapshot == nullptr || !snapshot->schema_id) return metadata.current_schema();
  SchemaPtr schema = metadata.SchemaById(*snapshot->schema_id);
  if (!schema) {
    return NotFound("snapshot {} names schema {}, which is not in the table", snapshot->snapshot_id,
                    *snapshot->schema_id);
  }
  return schema;
}

Result<std::vector<SnapshotPtr>> SnapshotsBetween(const TableMetadata& metadata,
                                                  std::optional<int64_t> from, bool from_inclusive,
                                                  int64_t to) {
  std::vector<SnapshotPtr> out;
  SnapshotPtr snapshot = metadata.SnapshotById(to);
  if (!snapshot) return NotFound("snapshot {} is not in the table", to);
  bool reached = false;
  // Bounded by the number of snapshots, so a metadata file with a parent cycle cannot loop.
  for (size_t steps = 0; snapshot && steps <= metadata.snapshots().size(); ++steps) {
    if (from && snapshot->snapshot_id == *from) {
      if (from_inclusive) out.push_back(snapshot);
      reached = true;
      break;
    }
    out.push_back(snapshot);
    if (!snapshot->parent_snapshot_id) break;
    snapshot = metadata.SnapshotById(*snapshot->parent_snapshot_id);
  }
  if (from && !reached) {
    return InvalidArgument("snapshot {} is not an ancestor of snapshot {}", *from, to);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace floe::table
