#include "floe/spec/partition_spec_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "floe/spec/transform_json.h"

namespace floe {
namespace {

Result<std::vector<PartitionField>> FieldsFromJson(const Json& fields, int32_t spec_id) {
  if (!fields.is_array()) {
    return CorruptData("partition spec {}: 'fields' must be an array, found {}", spec_id,
                       Json::KindName(fields.kind()));
  }
  std::vector<PartitionField> out;
  int32_t last_id = PartitionSpec::kFirstFieldId - 1;
  for (size_t i = 0; i < fields.as_array().size(); ++i) {
    const Json& json = fields.as_array()[i];
    auto field = [&]() -> Result<PartitionField> {
      if (!json.is_object()) {
        return CorruptData("expected an object, found {}", Json::KindName(json.kind()));
      }
      PartitionField field;
      FLOE_ASSIGN_OR_RETURN(field.source_ids, SourceIdsFromJson(json));
      FLOE_ASSIGN_OR_RETURN(field.name, json.GetString("name"));
      FLOE_ASSIGN_OR_RETURN(field.transform, TransformFromJson(json));
      if (json.Find("field-id") != nullptr) {
        FLOE_ASSIGN_OR_RETURN(field.field_id, GetInt32(json, "field-id"));
      } else if (last_id == std::numeric_limits<int32_t>::max()) {
        return CorruptData("no field id left to assign");
      } else {
        field.field_id = last_id + 1;
      }
      last_id = std::max(last_id, field.field_id);
      return field;
    }();
    if (!field) {
      return std::unexpected(
          std::move(field.error())
              .AddContext(fmt::format("partition spec {} field {}", spec_id, i)));
    }
    out.push_back(*std::move(field));
  }
  return out;
}

}  // namespace

Json PartitionFieldsToJson(const PartitionSpec& spec) {
  Json fields = Json::MakeArray();
  for (const auto& field : spec.fields()) {
    Json json = Json::MakeObject();
    SetSourceIdsJson(json, field.source_ids);
    json.Set("field-id", Json(int64_t{field.field_id}));
    json.Set("name", Json(field.name));
    json.Set("transform", Json(field.transform.ToString()));
    fields.Push(std::move(json));
  }
  return fields;
}

Json PartitionSpecToJson(const PartitionSpec& spec) {
  Json json = Json::MakeObject();
  json.Set("spec-id", Json(int64_t{spec.spec_id()}));
  json.Set("fields", PartitionFieldsToJson(spec));
  return json;
}

Result<PartitionSpecPtr> PartitionSpecFromJson(const Json& json) {
  if (!json.is_object()) {
    return CorruptData("partition spec: expected an object, found {}", Json::KindName(json.kind()));
  }
  auto spec_id = GetInt32(json, "spec-id");
  if (!spec_id) return std::unexpected(std::move(spec_id.error()).AddContext("partition spec"));
  auto fields = json.Get("fields");
  if (!fields) {
    return std::unexpected(
        std::move(fields.error()).AddContext(fmt::format("partition spec {}", *spec_id)));
  }
  return PartitionSpecFromFieldsJson(**fields, *spec_id);
}

Result<PartitionSpecPtr> PartitionSpecFromFieldsJson(const Json& fields, int32_t spec_id) {
  FLOE_ASSIGN_OR_RETURN(auto parsed, FieldsFromJson(fields, spec_id));
  return std::make_shared<const PartitionSpec>(spec_id, std::move(parsed));
}

}  // namespace floe
