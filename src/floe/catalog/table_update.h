#pragma once

// Commits are data (the REST catalog's model, spec "Table Metadata" and the REST OpenAPI's
// TableRequirement / TableUpdate): an operation produces requirements on the base metadata and
// updates to apply to it; a catalog checks the requirements against the table's current metadata
// and applies the updates in one atomic swap.
//
// CheckRequirements fails with kCommitFailed (retryable) when the table changed under the
// operation, so that a transaction can refresh and re-apply. ApplyUpdates fails with
// kInvalidArgument (not retryable) when an update is invalid on any base (a spec that does not
// fit its schema, a ref to a missing snapshot...).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "floe/spec/snapshot.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::catalog {

// --- Requirements -----------------------------------------------------------------------------

struct AssertCreate {};  // the table does not exist yet
struct AssertTableUuid {
  std::string uuid;
};
// The ref points at snapshot_id, or does not exist when snapshot_id is empty.
struct AssertRefSnapshotId {
  std::string ref;
  std::optional<int64_t> snapshot_id;
};
struct AssertLastAssignedFieldId {
  int32_t last_assigned_field_id = 0;
};
struct AssertCurrentSchemaId {
  int32_t current_schema_id = 0;
};
struct AssertLastAssignedPartitionId {
  int32_t last_assigned_partition_id = 0;
};
struct AssertDefaultSpecId {
  int32_t default_spec_id = 0;
};
struct AssertDefaultSortOrderId {
  int32_t default_sort_order_id = 0;
};

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId,
                 AssertCurrentSchemaId, AssertLastAssignedPartitionId, AssertDefaultSpecId,
                 AssertDefaultSortOrderId>;

// --- Updates ----------------------------------------------------------------------------------

// Id -1 in SetCurrentSchema / SetDefaultSpec / SetDefaultSortOrder means "the one added last in
// this commit", as in the REST model.
inline constexpr int32_t kLastAdded = -1;

struct AssignUuid {
  std::string uuid;
};
struct UpgradeFormatVersion {
  int format_version = 2;
};
struct AddSchema {
  SchemaPtr schema;
  std::optional<int32_t> last_column_id;  // defaults to max(base, schema's highest id)
};
struct SetCurrentSchema {
  int32_t schema_id = kLastAdded;
};
struct AddPartitionSpec {
  PartitionSpecPtr spec;
};
struct SetDefaultSpec {
  int32_t spec_id = kLastAdded;
};
struct AddSortOrder {
  SortOrderPtr sort_order;
};
struct SetDefaultSortOrder {
  int32_t sort_order_id = kLastAdded;
};
// Adds the snapshot and raises last-sequence-number (and v3 next-row-id) to cover it. It does not
// make it current: a SetSnapshotRef on "main" does that (and writes the snapshot log).
struct AddSnapshot {
  SnapshotPtr snapshot;
};
struct SetSnapshotRef {
  std::string ref_name;
  SnapshotRef ref;
};
struct RemoveSnapshots {
  std::vector<int64_t> snapshot_ids;
};
struct RemoveSnapshotRef {
  std::string ref_name;
};
struct SetLocation {
  std::string location;
};
struct SetProperties {
  StringMap updates;
};
struct RemoveProperties {
  std::vector<std::string> removals;
};
struct SetStatistics {
  StatisticsFile statistics;
};
struct RemoveStatistics {
  int64_t snapshot_id = 0;
};
struct SetPartitionStatistics {
  PartitionStatisticsFile statistics;
};
struct RemovePartitionStatistics {
  int64_t snapshot_id = 0;
};
struct RemovePartitionSpecs {
  std::vector<int32_t> spec_ids;
};
struct RemoveSchemas {
  std::vector<int32_t> schema_ids;
};

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec,
                 SetDefaultSpec, AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef,
                 RemoveSnapshots, RemoveSnapshotRef, SetLocation, SetProperties, RemoveProperties,
                 SetStatistics, RemoveStatistics, SetPartitionStatistics, RemovePartitionStatistics,
                 RemovePartitionSpecs, RemoveSchemas>;

// A commit as a catalog receives it.
struct TableCommit {
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
};

// OK when every requirement holds on base (nullptr: the table does not exist). kCommitFailed
// (retryable) naming the first requirement that does not hold; kAlreadyExists for AssertCreate
// on an existing table.
Status CheckRequirements(const TableMetadata* base, std::span<const TableRequirement> reqs);

// The metadata after applying updates to base, in order. last-updated-ms is set to now_ms; when
// the current snapshot changes, a snapshot-log entry is added. The caller adds the metadata-log
// entry for base's file, because only it knows where base was stored.
Result<TableMetadataPtr> ApplyUpdates(const TableMetadata& base,
                                      std::span<const TableUpdate> updates, int64_t now_ms);

// True for a commit that creates its table (it holds AssertCreate): catalogs apply it with
// ApplyCreate when the table does not exist.
bool IsCreateCommit(const TableCommit& commit);

// The metadata of a new table made by a create commit's updates (the REST model's create
// transaction): the first add-schema, add-spec and add-sort-order become the table's initial
// schema, spec and order with ids as a fresh table has them, and every update then applies in
// order (snapshots, refs, properties and more schemas or specs included). The format version is
// upgrade-format-version's (default 2), the uuid assign-uuid's (default random), the location
// set-location's (default default_location). kInvalidArgument when there is no add-schema or an
// update does not fit.
Result<TableMetadataPtr> ApplyCreate(std::span<const TableUpdate> updates,
                                     const std::string& default_location, int64_t now_ms);

// The updates that describe `metadata` as a whole, in an order ApplyUpdates accepts: uuid, format
// version, schemas, specs, orders, location, properties, snapshots, refs. For replace-table
// transactions, which apply them to the table being replaced.
std::vector<TableUpdate> UpdatesToCreate(const TableMetadata& metadata);

// A short human name of the update or requirement ("add-snapshot", "assert-ref-snapshot-id"),
// for messages and logs; the names are the REST catalog's `action`/`type` values.
std::string_view UpdateName(const TableUpdate& update);
std::string_view RequirementName(const TableRequirement& requirement);

}  // namespace floe::catalog
