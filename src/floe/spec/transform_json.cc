#include "floe/spec/transform_json.h"

#include <limits>

namespace floe {
namespace {

Result<int32_t> ToInt32(const Json& value, std::string_view key) {
  if (!value.is_int()) {
    return CorruptData("'{}' must be an integer, found {}", key, Json::KindName(value.kind()));
  }
  const int64_t v = value.as_int();
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return CorruptData("'{}' is {}, outside the 32-bit range", key, v);
  }
  return static_cast<int32_t>(v);
}

}  // namespace

Result<int32_t> GetInt32(const Json& object, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* value, object.Get(key));
  return ToInt32(*value, key);
}

Result<std::vector<int32_t>> SourceIdsFromJson(const Json& field) {
  const Json* ids = field.Find("source-ids");
  const Json* id = field.Find("source-id");
  if (ids == nullptr || ids->is_null()) {
    if (id == nullptr) return CorruptData("missing required field 'source-id'");
    FLOE_ASSIGN_OR_RETURN(int32_t single, ToInt32(*id, "source-id"));
    return std::vector<int32_t>{single};
  }
  if (!ids->is_array() || ids->as_array().empty()) {
    return CorruptData("'source-ids' must be a non-empty array of integers");
  }
  std::vector<int32_t> out;
  for (const Json& element : ids->as_array()) {
    FLOE_ASSIGN_OR_RETURN(int32_t v, ToInt32(element, "source-ids"));
    out.push_back(v);
  }
  if (id != nullptr && !id->is_null()) {
    FLOE_ASSIGN_OR_RETURN(int32_t single, ToInt32(*id, "source-id"));
    if (out.size() != 1 || out.front() != single) {
      return CorruptData("'source-id' {} disagrees with 'source-ids'", single);
    }
  }
  return out;
}

void SetSourceIdsJson(Json& field, std::span<const int32_t> source_ids) {
  if (source_ids.size() == 1) {
    field.Set("source-id", Json(int64_t{source_ids.front()}));
    return;
  }
  Json ids = Json::MakeArray();
  for (int32_t id : source_ids) ids.Push(Json(int64_t{id}));
  field.Set("source-ids", std::move(ids));
}

Result<Transform> TransformFromJson(const Json& field) {
  FLOE_ASSIGN_OR_RETURN(std::string text, field.GetString("transform"));
  auto transform = Transform::Parse(text);
  if (!transform) return CorruptData("{}", transform.error().message());
  return *std::move(transform);
}

}  // namespace floe
