#pragma once

// TableMetadata: the root of an Iceberg table's state (spec "Table Metadata"), one immutable value
// per metadata file, for format versions 1 to 3. It owns the schemas, partition specs, sort
// orders, snapshots, refs, logs, statistics and encryption keys, and answers the lookups every
// reader needs (current schema, default spec, a snapshot by id, the main branch...).
//
// Values are made only by TableMetadataBuilder::Build, which checks the rules that tie the parts
// together (ids unique, current/default ids present, last-column-id and last-partition-id not
// below any id in use, sequence numbers, refs, row lineage) and fails with kCorruptData naming the
// field (kUnsupported for a format version floe cannot read), so a TableMetadata in hand is always
// consistent. JSON lives in table_metadata_json.h, files and folders in table_metadata_io.h.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/snapshot.h"
#include "floe/util/error.h"

namespace floe {

class Schema;
class PartitionSpec;
class SortOrder;
using SchemaPtr = std::shared_ptr<const Schema>;
using PartitionSpecPtr = std::shared_ptr<const PartitionSpec>;
using SortOrderPtr = std::shared_ptr<const SortOrder>;

class TableMetadata;
using TableMetadataPtr = std::shared_ptr<const TableMetadata>;

class TableMetadata {
 public:
  static constexpr int kMinFormatVersion = 1;
  static constexpr int kMaxFormatVersion = 3;
  // The last-partition-id of a table that never had a partition field: partition field ids
  // start at 1000.
  static constexpr int32_t kInitialLastPartitionId = 999;

  int format_version() const { return format_version_; }
  const std::string& table_uuid() const { return table_uuid_; }  // may be empty in v1
  const std::string& location() const { return location_; }
  int64_t last_sequence_number() const { return last_sequence_number_; }  // 0 in v1
  int64_t last_updated_ms() const { return last_updated_ms_; }
  int32_t last_column_id() const { return last_column_id_; }
  // The id a new column must exceed: last-column-id, or a higher field id when a file read from
  // storage had last-column-id too low (see TableMetadataBuilder::Mode::kExisting).
  int32_t highest_assigned_column_id() const;

  const std::vector<SchemaPtr>& schemas() const { return schemas_; }
  int32_t current_schema_id() const { return current_schema_id_; }
  const SchemaPtr& current_schema() const { return current_schema_; }
  SchemaPtr SchemaById(int32_t schema_id) const;  // nullptr when absent

  const std::vector<PartitionSpecPtr>& partition_specs() const { return specs_; }
  int32_t default_spec_id() const { return default_spec_id_; }
  const PartitionSpecPtr& default_spec() const { return default_spec_; }
  PartitionSpecPtr SpecById(int32_t spec_id) const;
  int32_t last_partition_id() const { return last_partition_id_; }

  const std::vector<SortOrderPtr>& sort_orders() const { return sort_orders_; }
  int32_t default_sort_order_id() const { return default_sort_order_id_; }
  const SortOrderPtr& default_sort_order() const { return default_sort_order_; }
  SortOrderPtr SortOrderById(int32_t order_id) const;

  const StringMap& properties() const { return properties_; }
  // A property's value, or fallback when unset.
  std::string_view property(std::string_view key, std::string_view fallback = "") const;

  std::optional<int64_t> current_snapshot_id() const { return current_snapshot_id_; }
  const std::vector<SnapshotPtr>& snapshots() const { return snapshots_; }
  SnapshotPtr SnapshotById(int64_t snapshot_id) const;
  SnapshotPtr current_snapshot() const;  // nullptr for a table without snapshots

  // Always holds "main" when the table has a current snapshot (derived from current-snapshot-id
  // when the file had no refs).
  const std::map<std::string, SnapshotRef, std::less<>>& refs() const { return refs_; }
  const SnapshotRef* FindRef(std::string_view name) const;

  const std::vector<SnapshotLogEntry>& snapshot_log() const { return snapshot_log_; }
  const std::vector<MetadataLogEntry>& metadata_log() const { return metadata_log_; }
  const std::vector<StatisticsFile>& statistics() const { return statistics_; }
  const std::vector<PartitionStatisticsFile>& partition_statistics() const {
    return partition_statistics_;
  }
  const std::vector<EncryptedKey>& encryption_keys() const { return encryption_keys_; }
  // v3 row lineage: higher than every assigned row id; 0 before v3.
  int64_t next_row_id() const { return next_row_id_; }

 private:
  friend class TableMetadataBuilder;
  TableMetadata() = default;

  int format_version_ = 2;
  std::string table_uuid_;
  std::string location_;
  int64_t last_sequence_number_ = 0;
  int64_t last_updated_ms_ = 0;
  int32_t last_column_id_ = 0;
  std::vector<SchemaPtr> schemas_;
  int32_t current_schema_id_ = 0;
  SchemaPtr current_schema_;
  std::vector<PartitionSpecPtr> specs_;
  int32_t default_spec_id_ = 0;
  PartitionSpecPtr default_spec_;
  int32_t last_partition_id_ = kInitialLastPartitionId;
  std::vector<SortOrderPtr> sort_orders_;
  int32_t default_sort_order_id_ = 0;
  SortOrderPtr default_sort_order_;
  StringMap properties_;
  std::optional<int64_t> current_snapshot_id_;
  std::vector<SnapshotPtr> snapshots_;
  std::map<std::string, SnapshotRef, std::less<>> refs_;
  std::vector<SnapshotLogEntry> snapshot_log_;
  std::vector<MetadataLogEntry> metadata_log_;
  std::vector<StatisticsFile> statistics_;
  std::vector<PartitionStatisticsFile> partition_statistics_;
  std::vector<EncryptedKey> encryption_keys_;
  int64_t next_row_id_ = 0;
};

// Assembles a TableMetadata field by field and validates it as a whole in Build(). Start empty
// (a new table, or a file being parsed) or from an existing table to derive the next version.
// Setters never fail; every rule is checked once, in Build().
class TableMetadataBuilder {
 public:
  explicit TableMetadataBuilder(int format_version);
  explicit TableMetadataBuilder(const TableMetadata& base);

  TableMetadataBuilder& SetFormatVersion(int format_version);
  TableMetadataBuilder& SetTableUuid(std::string uuid);
  TableMetadataBuilder& SetLocation(std::string location);
  TableMetadataBuilder& SetLastSequenceNumber(int64_t n);
  TableMetadataBuilder& SetLastUpdatedMs(int64_t ms);
  TableMetadataBuilder& SetLastColumnId(int32_t id);
  TableMetadataBuilder& AddSchema(SchemaPtr schema);
  TableMetadataBuilder& SetCurrentSchemaId(int32_t schema_id);
  TableMetadataBuilder& AddPartitionSpec(PartitionSpecPtr spec);
  TableMetadataBuilder& SetDefaultSpecId(int32_t spec_id);
  TableMetadataBuilder& SetLastPartitionId(int32_t id);
  TableMetadataBuilder& AddSortOrder(SortOrderPtr order);
  TableMetadataBuilder& SetDefaultSortOrderId(int32_t order_id);
  TableMetadataBuilder& SetProperties(StringMap properties);
  TableMetadataBuilder& SetProperty(std::string key, std::string value);
  // Also moves the main branch, when there is one, keeping its retention settings (nullopt
  // removes it): the two must agree.
  TableMetadataBuilder& SetCurrentSnapshotId(std::optional<int64_t> snapshot_id);
  TableMetadataBuilder& AddSnapshot(SnapshotPtr snapshot);
  TableMetadataBuilder& SetRef(std::string name, SnapshotRef ref);
  TableMetadataBuilder& RemoveRef(std::string_view name);
  TableMetadataBuilder& AddSnapshotLogEntry(SnapshotLogEntry entry);
  TableMetadataBuilder& AddMetadataLogEntry(MetadataLogEntry entry);
  // Replaces the whole metadata log (catalogs trim it to write.metadata.previous-versions-max).
  TableMetadataBuilder& SetMetadataLog(std::vector<MetadataLogEntry> log);
  TableMetadataBuilder& AddStatisticsFile(StatisticsFile file);
  TableMetadataBuilder& AddPartitionStatisticsFile(PartitionStatisticsFile file);
  TableMetadataBuilder& AddEncryptionKey(EncryptedKey key);
  TableMetadataBuilder& SetNextRowId(int64_t next_row_id);

  // Removals, for commits that expire snapshots or clean up metadata. RemoveSnapshots also drops
  // the refs, statistics and partition statistics of the removed snapshots; removing the one
  // "main" points at clears the current snapshot.
  TableMetadataBuilder& RemoveSnapshots(const std::vector<int64_t>& snapshot_ids);
  TableMetadataBuilder& SetSnapshotLog(std::vector<SnapshotLogEntry> log);
  TableMetadataBuilder& RemoveProperty(std::string_view key);
  TableMetadataBuilder& RemoveStatisticsFile(int64_t snapshot_id);
  TableMetadataBuilder& RemovePartitionStatisticsFile(int64_t snapshot_id);
  TableMetadataBuilder& RemovePartitionSpecs(const std::vector<int32_t>& spec_ids);
  TableMetadataBuilder& RemoveSchemas(const std::vector<int32_t>& schema_ids);

  enum class Mode : unsigned char {
    // Metadata floe creates or evolves: every rule holds.
    kStrict,
    // Metadata read from storage, written by any engine: the same rules, except that
    // last-column-id may be below a field id (Java, Rust and Impala accept and write such files;
    // new columns must then take ids above highest_assigned_column_id()).
    kExisting,
  };

  // Validates and returns the table. Without a "main" ref, a current snapshot id makes one (the
  // spec's rule for files without refs); with one, the two must agree.
  Result<TableMetadataPtr> Build(Mode mode = Mode::kStrict);

 private:
  Status Validate(Mode mode);

  std::shared_ptr<TableMetadata> metadata_;
};

}  // namespace floe
