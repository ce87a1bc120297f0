#include "floe/spec/table_metadata_json.h"

#include <algorithm>

#include "floe/spec/json_fields.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/partition_spec_json.h"
#include "floe/spec/schema.h"
#include "floe/spec/schema_json.h"
#include "floe/spec/snapshot_json.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/sort_order_json.h"

namespace floe {

using json_fields::GetInt32;
using json_fields::GetOptionalArray;
using json_fields::GetOptionalInt32;
using json_fields::GetOptionalLong;
using json_fields::GetStringMap;
using json_fields::StringMapToJson;

namespace {

// Java writes -1 for "no current snapshot" in v1 and v2 tables; the spec lets readers take it as
// absent.
constexpr int64_t kNoSnapshotId = -1;

// Parses each element of the array `key` (if present) with parse, handing the values to add.
// Errors are prefixed with the element: "snapshots[3]: ...".
template <typename Parse, typename Add>
Status ReadEach(const Json& json, std::string_view key, bool required, Parse parse, Add add) {
  FLOE_ASSIGN_OR_RETURN(const Json::Array* array, GetOptionalArray(json, key));
  if (array == nullptr) {
    if (required) return CorruptData("missing required field '{}'", key);
    return Ok();
  }
  for (size_t i = 0; i < array->size(); ++i) {
    auto value = parse((*array)[i]);
    if (!value) return std::unexpected(value.error().AddContext(fmt::format("{}[{}]", key, i)));
    add(std::move(*value));
  }
  return Ok();
}

Status ReadSchemas(const Json& json, int version, TableMetadataBuilder& builder) {
  std::vector<SchemaPtr> schemas;
  FLOE_RETURN_IF_ERROR(ReadEach(json, "schemas", version >= 2, SchemaFromJson,
                                [&](SchemaPtr s) { schemas.push_back(std::move(s)); }));
  FLOE_ASSIGN_OR_RETURN(std::optional<int32_t> current_id,
                        GetOptionalInt32(json, "current-schema-id"));
  if (version >= 2 && !current_id) return CorruptData("missing required field 'current-schema-id'");
  if (version == 1 && (!current_id || schemas.empty())) {
    // v1: the deprecated `schema` is the current schema; `schemas`, when written, should hold it.
    const Json* legacy = json.Find("schema");
    if (legacy == nullptr || legacy->is_null()) {
      return CorruptData(
          "format version 1 metadata needs 'schema', or 'schemas' with 'current-schema-id'");
    }
    auto schema = SchemaFromJson(*legacy);
    if (!schema) return std::unexpected(schema.error().AddContext("schema"));
    current_id = (*schema)->schema_id();
    bool listed = std::any_of(schemas.begin(), schemas.end(),
                              [&](const SchemaPtr& s) { return s->schema_id() == *current_id; });
    if (!listed) schemas.push_back(std::move(*schema));
  }
  // Checked here as well as in the builder, so that a missing schema is reported before problems
  // of the fields after it.
  if (current_id && std::none_of(schemas.begin(), schemas.end(), [&](const SchemaPtr& s) {
        return s->schema_id() == *current_id;
      })) {
    return CorruptData("'current-schema-id' is {}, which is not among 'schemas'", *current_id);
  }
  for (auto& s : schemas) builder.AddSchema(std::move(s));
  if (current_id) builder.SetCurrentSchemaId(*current_id);
  return Ok();
}

Status ReadPartitionSpecs(const Json& json, int version, TableMetadataBuilder& builder) {
  std::vector<PartitionSpecPtr> specs;
  FLOE_RETURN_IF_ERROR(ReadEach(json, "partition-specs", version >= 2, PartitionSpecFromJson,
                                [&](PartitionSpecPtr s) { specs.push_back(std::move(s)); }));
  FLOE_ASSIGN_OR_RETURN(std::optional<int32_t> default_id,
                        GetOptionalInt32(json, "default-spec-id"));
  if (version >= 2 && !default_id) return CorruptData("missing required field 'default-spec-id'");
  if (version == 1 && specs.empty()) {
    const Json* legacy = json.Find("partition-spec");
    if (legacy == nullptr || legacy->is_null()) {
      return CorruptData("format version 1 metadata needs 'partition-spec', or 'partition-specs'");
    }
    // v1: the deprecated `partition-spec` holds the default spec's fields alone.
    auto spec = PartitionSpecFromFieldsJson(*legacy, PartitionSpec::kInitialSpecId);
    if (!spec) return std::unexpected(spec.error().AddContext("partition-spec"));
    default_id = (*spec)->spec_id();
    specs.push_back(std::move(*spec));
  } else if (!default_id && !specs.empty()) {
    // v1 `partition-specs` without `default-spec-id`: the newest spec is the one in use.
    int32_t highest = specs.front()->spec_id();
    for (const auto& s : specs) highest = std::max(highest, s->spec_id());
    default_id = highest;
  }

  FLOE_ASSIGN_OR_RETURN(std::optional<int32_t> last_partition_id,
                        GetOptionalInt32(json, "last-partition-id"));
  if (version >= 2 && !last_partition_id) {
    return CorruptData("missing required field 'last-partition-id'");
  }
  if (!last_partition_id) {
    int32_t highest = TableMetadata::kInitialLastPartitionId;
    for (const auto& s : specs) {
      for (const auto& f : s->fields()) highest = std::max(highest, f.field_id);
    }
    last_partition_id = highest;
  }
  for (auto& s : specs) builder.AddPartitionSpec(std::move(s));
  if (default_id) builder.SetDefaultSpecId(*default_id);
  builder.SetLastPartitionId(*last_partition_id);
  return Ok();
}

Status ReadSortOrders(const Json& json, int version, TableMetadataBuilder& builder) {
  std::vector<SortOrderPtr> orders;
  FLOE_RETURN_IF_ERROR(ReadEach(json, "sort-orders", version >= 2, SortOrderFromJson,
                                [&](SortOrderPtr o) { orders.push_back(std::move(o)); }));
  FLOE_ASSIGN_OR_RETURN(std::optional<int32_t> default_id,
                        GetOptionalInt32(json, "default-sort-order-id"));
  if (version >= 2 && !default_id) {
    return CorruptData("missing required field 'default-sort-order-id'");
  }
  if (version == 1 && orders.empty()) {
    // v1 tables written before sort orders existed are unsorted.
    orders.push_back(SortOrder::Unsorted());
    default_id = orders.back()->order_id();
  } else if (!default_id && !orders.empty()) {
    return CorruptData("'sort-orders' is set but 'default-sort-order-id' is missing");
  }
  for (auto& o : orders) builder.AddSortOrder(std::move(o));
  if (default_id) builder.SetDefaultSortOrderId(*default_id);
  return Ok();
}

Status ReadRefs(const Json& json, TableMetadataBuilder& builder) {
  const Json* refs = json.Find("refs");
  if (refs == nullptr || refs->is_null()) return Ok();
  if (!refs->is_object()) {
    return CorruptData("field 'refs' must be an object, found {}", Json::KindName(refs->kind()));
  }
  for (const auto& [name, value] : refs->as_object()) {
    auto ref = SnapshotRefFromJson(value);
    if (!ref) return std::unexpected(ref.error().AddContext(fmt::format("refs.{}", name)));
    builder.SetRef(name, *ref);
  }
  return Ok();
}

Result<TableMetadataPtr> ParseTableMetadata(const Json& json) {
  if (!json.is_object()) {
    return CorruptData("table metadata must be a JSON object, found {}",
                       Json::KindName(json.kind()));
  }
  FLOE_ASSIGN_OR_RETURN(int32_t version, GetInt32(json, "format-version"));
  if (version < TableMetadata::kMinFormatVersion || version > TableMetadata::kMaxFormatVersion) {
    return Unsupported("format-version {} is not supported (floe reads versions {} to {})", version,
                       TableMetadata::kMinFormatVersion, TableMetadata::kMaxFormatVersion);
  }
  TableMetadataBuilder builder(version);

  if (version >= 2) {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, json.GetString("table-uuid"));
    builder.SetTableUuid(std::move(uuid));
  } else {
    FLOE_ASSIGN_OR_RETURN(auto uuid, json.GetOptionalString("table-uuid"));
    if (uuid) builder.SetTableUuid(std::move(*uuid));
  }
  FLOE_ASSIGN_OR_RETURN(std::string location, json.GetString("location"));
  builder.SetLocation(std::move(location));
  if (version >= 2) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, json.GetInt("last-sequence-number"));
    builder.SetLastSequenceNumber(n);
  }
  FLOE_ASSIGN_OR_RETURN(int64_t last_updated_ms, json.GetInt("last-updated-ms"));
  builder.SetLastUpdatedMs(last_updated_ms);
  FLOE_ASSIGN_OR_RETURN(int32_t last_column_id, GetInt32(json, "last-column-id"));
  builder.SetLastColumnId(last_column_id);

  FLOE_RETURN_IF_ERROR(ReadSchemas(json, version, builder));
  FLOE_RETURN_IF_ERROR(ReadPartitionSpecs(json, version, builder));
  FLOE_RETURN_IF_ERROR(ReadSortOrders(json, version, builder));

  FLOE_ASSIGN_OR_RETURN(StringMap properties, GetStringMap(json, "properties"));
  builder.SetProperties(std::move(properties));

  FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> current,
                        GetOptionalLong(json, "current-snapshot-id"));
  if (current == kNoSnapshotId) current.reset();
  builder.SetCurrentSnapshotId(current);

  FLOE_RETURN_IF_ERROR(ReadEach(json, "snapshots", false, SnapshotFromJson, [&](Snapshot s) {
    builder.AddSnapshot(std::make_shared<const Snapshot>(std::move(s)));
  }));
  FLOE_RETURN_IF_ERROR(ReadRefs(json, builder));
  FLOE_RETURN_IF_ERROR(ReadEach(json, "snapshot-log", false, SnapshotLogEntryFromJson,
                                [&](SnapshotLogEntry e) { builder.AddSnapshotLogEntry(e); }));
  FLOE_RETURN_IF_ERROR(
      ReadEach(json, "metadata-log", false, MetadataLogEntryFromJson,
               [&](MetadataLogEntry e) { builder.AddMetadataLogEntry(std::move(e)); }));
  FLOE_RETURN_IF_ERROR(
      ReadEach(json, "statistics", false, StatisticsFileFromJson,
               [&](StatisticsFile f) { builder.AddStatisticsFile(std::move(f)); }));
  FLOE_RETURN_IF_ERROR(ReadEach(
      json, "partition-statistics", false, PartitionStatisticsFileFromJson,
      [&](PartitionStatisticsFile f) { builder.AddPartitionStatisticsFile(std::move(f)); }));
  FLOE_RETURN_IF_ERROR(ReadEach(json, "encryption-keys", false, EncryptedKeyFromJson,
                                [&](EncryptedKey k) { builder.AddEncryptionKey(std::move(k)); }));
  if (version >= 3) {
    FLOE_ASSIGN_OR_RETURN(int64_t next_row_id, json.GetInt("next-row-id"));
    builder.SetNextRowId(next_row_id);
  }
  return builder.Build(TableMetadataBuilder::Mode::kExisting);
}

// Whether refs say more than the main branch that v1 derives from current-snapshot-id.
bool HasRefsBeyondDerivedMain(const TableMetadata& m) {
  for (const auto& [name, ref] : m.refs()) {
    if (name != SnapshotRef::kMainBranch) return true;
    if (ref.min_snapshots_to_keep || ref.max_snapshot_age_ms || ref.max_ref_age_ms) return true;
  }
  return false;
}

}  // namespace

Result<TableMetadataPtr> TableMetadataFromJson(const Json& json) {
  return ParseTableMetadata(json);
}

Result<TableMetadataPtr> TableMetadataFromJsonString(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(text));
  return ParseTableMetadata(json);
}

Json TableMetadataToJson(const TableMetadata& m) {
  const int version = m.format_version();
  Json out = Json::MakeObject();
  out.Set("format-version", version);
  if (!m.table_uuid().empty()) out.Set("table-uuid", m.table_uuid());
  out.Set("location", m.location());
  if (version >= 2) out.Set("last-sequence-number", m.last_sequence_number());
  out.Set("last-updated-ms", m.last_updated_ms());
  out.Set("last-column-id", m.last_column_id());
  if (version == 1) out.Set("schema", SchemaToJson(*m.current_schema()));
  Json schemas = Json::MakeArray();
  for (const auto& s : m.schemas()) schemas.Push(SchemaToJson(*s));
  out.Set("schemas", std::move(schemas));
  out.Set("current-schema-id", m.current_schema_id());
  if (version == 1) {
    out.Set("partition-spec", PartitionFieldsToJson(*m.default_spec()));
  }
  Json specs = Json::MakeArray();
  for (const auto& s : m.partition_specs()) specs.Push(PartitionSpecToJson(*s));
  out.Set("partition-specs", std::move(specs));
  out.Set("default-spec-id", m.default_spec_id());
  out.Set("last-partition-id", m.last_partition_id());
  out.Set("properties", StringMapToJson(m.properties()));
  if (m.current_snapshot_id()) {
    out.Set("current-snapshot-id", *m.current_snapshot_id());
  } else if (version <= 2) {
    out.Set("current-snapshot-id", kNoSnapshotId);
  }
  if (version >= 2 || HasRefsBeyondDerivedMain(m)) {
    Json refs = Json::MakeObject();
    for (const auto& [name, ref] : m.refs()) refs.Set(name, SnapshotRefToJson(ref));
    out.Set("refs", std::move(refs));
  }
  Json snapshots = Json::MakeArray();
  for (const auto& s : m.snapshots()) snapshots.Push(SnapshotToJson(*s, version));
  out.Set("snapshots", std::move(snapshots));
  Json statistics = Json::MakeArray();
  for (const auto& f : m.statistics()) statistics.Push(StatisticsFileToJson(f));
  out.Set("statistics", std::move(statistics));
  Json partition_statistics = Json::MakeArray();
  for (const auto& f : m.partition_statistics()) {
    partition_statistics.Push(PartitionStatisticsFileToJson(f));
  }
  out.Set("partition-statistics", std::move(partition_statistics));
  Json snapshot_log = Json::MakeArray();
  for (const auto& e : m.snapshot_log()) snapshot_log.Push(SnapshotLogEntryToJson(e));
  out.Set("snapshot-log", std::move(snapshot_log));
  Json metadata_log = Json::MakeArray();
  for (const auto& e : m.metadata_log()) metadata_log.Push(MetadataLogEntryToJson(e));
  out.Set("metadata-log", std::move(metadata_log));
  Json orders = Json::MakeArray();
  for (const auto& o : m.sort_orders()) orders.Push(SortOrderToJson(*o));
  out.Set("sort-orders", std::move(orders));
  out.Set("default-sort-order-id", m.default_sort_order_id());
  if (version >= 3) {
    out.Set("next-row-id", m.next_row_id());
    if (!m.encryption_keys().empty()) {
      Json keys = Json::MakeArray();
      for (const auto& k : m.encryption_keys()) keys.Push(EncryptedKeyToJson(k));
      out.Set("encryption-keys", std::move(keys));
    }
  }
  return out;
}

std::string TableMetadataToJsonString(const TableMetadata& metadata, bool pretty) {
  return TableMetadataToJson(metadata).Dump(pretty);
}

}  // namespace floe
