#include "floe/catalog/rest/table_update_json.h"

#include <memory>
#include <type_traits>

#include "floe/spec/json_fields.h"
#include "floe/spec/partition_spec_json.h"
#include "floe/spec/schema_json.h"
#include "floe/spec/snapshot_json.h"
#include "floe/spec/sort_order_json.h"

namespace floe::catalog::rest {
namespace {

using json_fields::GetInt32;
using json_fields::GetInt32List;
using json_fields::GetStringList;
using json_fields::GetStringMap;
using json_fields::StringMapToJson;

// Snapshots are written as the latest format writes them: every field that is set.
constexpr int kWireFormatVersion = 3;

Json Int32List(const std::vector<int32_t>& ids) {
  Json out = Json::MakeArray();
  for (int32_t id : ids) out.Push(Json(int64_t{id}));
  return out;
}

// The object with `key` set to 0 when it lacks it: specs and orders from clients that leave the
// id to the server.
Json WithDefaultId(const Json& json, std::string_view key) {
  if (!json.is_object() || json.Find(key)) return json;
  Json copy = json;
  copy.Set(key, Json(int64_t{0}));
  return copy;
}

Result<std::vector<int64_t>> GetLongList(const Json& json, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json::Array* items, json.GetArray(key));
  std::vector<int64_t> out;
  for (const Json& item : *items) {
    if (!item.is_int()) return CorruptData("field '{}' must hold integers", key);
    out.push_back(item.as_int());
  }
  return out;
}

Result<TableUpdate> ParseUpdate(std::string_view action, const Json& json) {
  if (action == "assign-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, json.GetString("uuid"));
    return AssignUuid{std::move(uuid)};
  }
  if (action == "upgrade-format-version") {
    FLOE_ASSIGN_OR_RETURN(int32_t version, GetInt32(json, "format-version"));
    return UpgradeFormatVersion{version};
  }
  if (action == "add-schema") {
    FLOE_ASSIGN_OR_RETURN(const Json* schema_json, json.Get("schema"));
    FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, SchemaFromJson(*schema_json));
    FLOE_ASSIGN_OR_RETURN(std::optional<int32_t> last_column_id,
                          json_fields::GetOptionalInt32(json, "last-column-id"));
    return AddSchema{std::move(schema), last_column_id};
  }
  if (action == "set-current-schema") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "schema-id"));
    return SetCurrentSchema{id};
  }
  if (action == "add-spec") {
    FLOE_ASSIGN_OR_RETURN(const Json* spec_json, json.Get("spec"));
    FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                          PartitionSpecFromJson(WithDefaultId(*spec_json, "spec-id")));
    return AddPartitionSpec{std::move(spec)};
  }
  if (action == "set-default-spec") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "spec-id"));
    return SetDefaultSpec{id};
  }
  if (action == "add-sort-order") {
    FLOE_ASSIGN_OR_RETURN(const Json* order_json, json.Get("sort-order"));
    FLOE_ASSIGN_OR_RETURN(SortOrderPtr order,
                          SortOrderFromJson(WithDefaultId(*order_json, "order-id")));
    return AddSortOrder{std::move(order)};
  }
  if (action == "set-default-sort-order") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "sort-order-id"));
    return SetDefaultSortOrder{id};
  }
  if (action == "add-snapshot") {
    FLOE_ASSIGN_OR_RETURN(const Json* snapshot_json, json.Get("snapshot"));
    FLOE_ASSIGN_OR_RETURN(Snapshot snapshot, SnapshotFromJson(*snapshot_json));
    return AddSnapshot{std::make_shared<const Snapshot>(std::move(snapshot))};
  }
  if (action == "set-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, json.GetString("ref-name"));
    FLOE_ASSIGN_OR_RETURN(SnapshotRef ref, SnapshotRefFromJson(json));
    return SetSnapshotRef{std::move(name), ref};
  }
  if (action == "remove-snapshots") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, GetLongList(json, "snapshot-ids"));
    return RemoveSnapshots{std::move(ids)};
  }
  if (action == "remove-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, json.GetString("ref-name"));
    return RemoveSnapshotRef{std::move(name)};
  }
  if (action == "set-location") {
    FLOE_ASSIGN_OR_RETURN(std::string location, json.GetString("location"));
    return SetLocation{std::move(location)};
  }
  if (action == "set-properties") {
    if (!json.Find("updates")) return CorruptData("missing required field 'updates'");
    FLOE_ASSIGN_OR_RETURN(StringMap updates, GetStringMap(json, "updates"));
    return SetProperties{std::move(updates)};
  }
  if (action == "remove-properties") {
    if (!json.Find("removals")) return CorruptData("missing required field 'removals'");
    FLOE_ASSIGN_OR_RETURN(std::vector<std::string> removals, GetStringList(json, "removals"));
    return RemoveProperties{std::move(removals)};
  }
  if (action == "set-statistics") {
    FLOE_ASSIGN_OR_RETURN(const Json* stats, json.Get("statistics"));
    FLOE_ASSIGN_OR_RETURN(StatisticsFile file, StatisticsFileFromJson(*stats));
    return SetStatistics{std::move(file)};
  }
  if (action == "remove-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, json.GetInt("snapshot-id"));
    return RemoveStatistics{id};
  }
  if (action == "set-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(const Json* stats, json.Get("partition-statistics"));
    FLOE_ASSIGN_OR_RETURN(PartitionStatisticsFile file, PartitionStatisticsFileFromJson(*stats));
    return SetPartitionStatistics{std::move(file)};
  }
  if (action == "remove-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, json.GetInt("snapshot-id"));
    return RemovePartitionStatistics{id};
  }
  if (action == "remove-partition-specs") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int32_t> ids, GetInt32List(json, "spec-ids"));
    return RemovePartitionSpecs{std::move(ids)};
  }
  if (action == "remove-schemas") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int32_t> ids, GetInt32List(json, "schema-ids"));
    return RemoveSchemas{std::move(ids)};
  }
  return Unsupported("table update action '{}' is not supported", action);
}

Result<TableRequirement> ParseRequirement(std::string_view type, const Json& json) {
  if (type == "assert-create") return AssertCreate{};
  if (type == "assert-table-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, json.GetString("uuid"));
    return AssertTableUuid{std::move(uuid)};
  }
  if (type == "assert-ref-snapshot-id") {
    FLOE_ASSIGN_OR_RETURN(std::string ref, json.GetString("ref"));
    FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> id, json.GetOptionalInt("snapshot-id"));
    return AssertRefSnapshotId{std::move(ref), id};
  }
  if (type == "assert-last-assigned-field-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "last-assigned-field-id"));
    return AssertLastAssignedFieldId{id};
  }
  if (type == "assert-current-schema-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "current-schema-id"));
    return AssertCurrentSchemaId{id};
  }
  if (type == "assert-last-assigned-partition-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "last-assigned-partition-id"));
    return AssertLastAssignedPartitionId{id};
  }
  if (type == "assert-default-spec-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "default-spec-id"));
    return AssertDefaultSpecId{id};
  }
  if (type == "assert-default-sort-order-id") {
    FLOE_ASSIGN_OR_RETURN(int32_t id, GetInt32(json, "default-sort-order-id"));
    return AssertDefaultSortOrderId{id};
  }
  return Unsupported("table requirement type '{}' is not supported", type);
}

}  // namespace

Json TableUpdateToJson(const TableUpdate& update) {
  Json out = Json::MakeObject();
  out.Set("action", Json(UpdateName(update)));
  std::visit(
      [&](const auto& u) {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, AssignUuid>) {
          out.Set("uuid", Json(u.uuid));
        } else if constexpr (std::is_same_v<T, UpgradeFormatVersion>) {
          out.Set("format-version", Json(u.format_version));
        } else if constexpr (std::is_same_v<T, AddSchema>) {
          out.Set("schema", SchemaToJson(*u.schema));
          if (u.last_column_id) out.Set("last-column-id", Json(*u.last_column_id));
        } else if constexpr (std::is_same_v<T, SetCurrentSchema>) {
          out.Set("schema-id", Json(u.schema_id));
        } else if constexpr (std::is_same_v<T, AddPartitionSpec>) {
          out.Set("spec", PartitionSpecToJson(*u.spec));
        } else if constexpr (std::is_same_v<T, SetDefaultSpec>) {
          out.Set("spec-id", Json(u.spec_id));
        } else if constexpr (std::is_same_v<T, AddSortOrder>) {
          out.Set("sort-order", SortOrderToJson(*u.sort_order));
        } else if constexpr (std::is_same_v<T, SetDefaultSortOrder>) {
          out.Set("sort-order-id", Json(u.sort_order_id));
        } else if constexpr (std::is_same_v<T, AddSnapshot>) {
          out.Set("snapshot", SnapshotToJson(*u.snapshot, kWireFormatVersion));
        } else if constexpr (std::is_same_v<T, SetSnapshotRef>) {
          out.Set("ref-name", Json(u.ref_name));
          Json ref = SnapshotRefToJson(u.ref);
          for (auto& [key, value] : ref.as_object()) out.Set(key, std::move(value));
        } else if constexpr (std::is_same_v<T, RemoveSnapshots>) {
          Json ids = Json::MakeArray();
          for (int64_t id : u.snapshot_ids) ids.Push(Json(id));
          out.Set("snapshot-ids", std::move(ids));
        } else if constexpr (std::is_same_v<T, RemoveSnapshotRef>) {
          out.Set("ref-name", Json(u.ref_name));
        } else if constexpr (std::is_same_v<T, SetLocation>) {
          out.Set("location", Json(u.location));
        } else if constexpr (std::is_same_v<T, SetProperties>) {
          out.Set("updates", StringMapToJson(u.updates));
        } else if constexpr (std::is_same_v<T, RemoveProperties>) {
          Json keys = Json::MakeArray();
          for (const std::string& key : u.removals) keys.Push(Json(key));
          out.Set("removals", std::move(keys));
        } else if constexpr (std::is_same_v<T, SetStatistics>) {
          out.Set("snapshot-id", Json(u.statistics.snapshot_id));
          out.Set("statistics", StatisticsFileToJson(u.statistics));
        } else if constexpr (std::is_same_v<T, SetPartitionStatistics>) {
          out.Set("partition-statistics", PartitionStatisticsFileToJson(u.statistics));
        } else if constexpr (std::is_same_v<T, RemoveStatistics> ||
                             std::is_same_v<T, RemovePartitionStatistics>) {
          out.Set("snapshot-id", Json(u.snapshot_id));
        } else if constexpr (std::is_same_v<T, RemovePartitionSpecs>) {
          out.Set("spec-ids", Int32List(u.spec_ids));
        } else {
          static_assert(std::is_same_v<T, RemoveSchemas>);
          out.Set("schema-ids", Int32List(u.schema_ids));
        }
      },
      update);
  return out;
}

Result<TableUpdate> TableUpdateFromJson(const Json& json) {
  if (!json.is_object()) return CorruptData("a table update must be an object");
  FLOE_ASSIGN_OR_RETURN(std::string action, json.GetString("action"));
  auto update = ParseUpdate(action, json);
  if (!update) return std::unexpected(std::move(update.error().AddContext(action)));
  return update;
}

Json TableRequirementToJson(const TableRequirement& requirement) {
  Json out = Json::MakeObject();
  out.Set("type", Json(RequirementName(requirement)));
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, AssertTableUuid>) {
          out.Set("uuid", Json(r.uuid));
        } else if constexpr (std::is_same_v<T, AssertRefSnapshotId>) {
          out.Set("ref", Json(r.ref));
          out.Set("snapshot-id", r.snapshot_id ? Json(*r.snapshot_id) : Json());
        } else if constexpr (std::is_same_v<T, AssertLastAssignedFieldId>) {
          out.Set("last-assigned-field-id", Json(r.last_assigned_field_id));
        } else if constexpr (std::is_same_v<T, AssertCurrentSchemaId>) {
          out.Set("current-schema-id", Json(r.current_schema_id));
        } else if constexpr (std::is_same_v<T, AssertLastAssignedPartitionId>) {
          out.Set("last-assigned-partition-id", Json(r.last_assigned_partition_id));
        } else if constexpr (std::is_same_v<T, AssertDefaultSpecId>) {
          out.Set("default-spec-id", Json(r.default_spec_id));
        } else if constexpr (std::is_same_v<T, AssertDefaultSortOrderId>) {
          out.Set("default-sort-order-id", Json(r.default_sort_order_id));
        } else {
          static_assert(std::is_same_v<T, AssertCreate>);
        }
      },
      requirement);
  return out;
}

Result<TableRequirement> TableRequirementFromJson(const Json& json) {
  if (!json.is_object()) return CorruptData("a table requirement must be an object");
  FLOE_ASSIGN_OR_RETURN(std::string type, json.GetString("type"));
  auto requirement = ParseRequirement(type, json);
  if (!requirement) return std::unexpected(std::move(requirement.error().AddContext(type)));
  return requirement;
}

Json TableCommitToJson(const TableCommit& commit) {
  Json requirements = Json::MakeArray();
  for (const TableRequirement& r : commit.requirements)
    requirements.Push(TableRequirementToJson(r));
  Json updates = Json::MakeArray();
  for (const TableUpdate& u : commit.updates) updates.Push(TableUpdateToJson(u));
  Json out = Json::MakeObject();
  out.Set("requirements", std::move(requirements));
  out.Set("updates", std::move(updates));
  return out;
}

Result<TableCommit> TableCommitFromJson(const Json& json) {
  if (!json.is_object()) return CorruptData("a commit must be an object");
  TableCommit commit;
  FLOE_ASSIGN_OR_RETURN(const Json::Array* requirements, json.GetArray("requirements"));
  for (const Json& r : *requirements) {
    FLOE_ASSIGN_OR_RETURN(TableRequirement requirement, TableRequirementFromJson(r));
    commit.requirements.push_back(std::move(requirement));
  }
  FLOE_ASSIGN_OR_RETURN(const Json::Array* updates, json.GetArray("updates"));
  for (const Json& u : *updates) {
    FLOE_ASSIGN_OR_RETURN(TableUpdate update, TableUpdateFromJson(u));
    commit.updates.push_back(std::move(update));
  }
  return commit;
}

}  // namespace floe::catalog::rest
