#include "floe/spec/json_fields.h"

#include <limits>

namespace floe::json_fields {
namespace {

std::unexpected<Error> WrongKind(std::string_view key, std::string_view expected,
                                 const Json& found) {
  return CorruptData("field '{}' must be {}, found {}", key, expected,
                     Json::KindName(found.kind()));
}

Result<int32_t> ToInt32(std::string_view key, int64_t value) {
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return CorruptData("field '{}' is {}, out of the range of an int", key, value);
  }
  return static_cast<int32_t>(value);
}

}  // namespace

Result<int32_t> GetInt32(const Json& object, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(int64_t value, object.GetInt(key));
  return ToInt32(key, value);
}

Result<std::optional<int32_t>> GetOptionalInt32(const Json& object, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> value, object.GetOptionalInt(key));
  if (!value) return std::nullopt;
  FLOE_ASSIGN_OR_RETURN(int32_t v, ToInt32(key, *value));
  return v;
}

Result<std::optional<int64_t>> GetOptionalLong(const Json& object, std::string_view key) {
  return object.GetOptionalInt(key);
}

Result<StringMap> GetStringMap(const Json& object, std::string_view key) {
  StringMap map;
  const Json* value = object.Find(key);
  if (value == nullptr || value->is_null()) return map;
  if (!value->is_object()) return WrongKind(key, "an object", *value);
  for (const auto& [k, v] : value->as_object()) {
    if (!v.is_string()) {
      return CorruptData("field '{}': value of '{}' must be a string, found {}", key, k,
                         Json::KindName(v.kind()));
    }
    map.insert_or_assign(k, v.as_string());
  }
  return map;
}

Result<std::vector<int32_t>> GetInt32List(const Json& object, std::string_view key) {
  std::vector<int32_t> out;
  FLOE_ASSIGN_OR_RETURN(const Json::Array* array, GetOptionalArray(object, key));
  if (array == nullptr) return out;
  out.reserve(array->size());
  for (const Json& item : *array) {
    if (!item.is_int()) return WrongKind(key, "a list of integers", item);
    FLOE_ASSIGN_OR_RETURN(int32_t v, ToInt32(key, item.as_int()));
    out.push_back(v);
  }
  return out;
}

Result<std::vector<std::string>> GetStringList(const Json& object, std::string_view key) {
  std::vector<std::string> out;
  FLOE_ASSIGN_OR_RETURN(const Json::Array* array, GetOptionalArray(object, key));
  if (array == nullptr) return out;
  out.reserve(array->size());
  for (const Json& item : *array) {
    if (!item.is_string()) return WrongKind(key, "a list of strings", item);
    out.push_back(item.as_string());
  }
  return out;
}

Result<const Json::Array*> GetOptionalArray(const Json& object, std::string_view key) {
  if (!object.is_object()) {
    return CorruptData("expected an object, found {}", Json::KindName(object.kind()));
  }
  const Json* value = object.Find(key);
  if (value == nullptr || value->is_null()) return nullptr;
  if (!value->is_array()) return WrongKind(key, "an array", *value);
  return &value->as_array();
}

Json StringMapToJson(const StringMap& map) {
  Json out = Json::MakeObject();
  for (const auto& [k, v] : map) out.Set(k, v);
  return out;
}

}  // namespace floe::json_fields
