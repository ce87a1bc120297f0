#include "floe/spec/schema_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "floe/spec/literal.h"
#include "floe/util/strings.h"

namespace floe {
namespace {

// Deeper nesting than this is refused rather than recursed into; real schemas nest a few levels.
constexpr int kMaxNestingDepth = 100;

// The text between `open` and a final `close`, or nullopt when the text is not so shaped.
std::optional<std::string_view> Parameters(std::string_view rest, char open, char close) {
  rest = TrimWhitespace(rest);
  if (rest.size() < 2 || rest.front() != open || rest.back() != close) return std::nullopt;
  return rest.substr(1, rest.size() - 2);
}

std::optional<int64_t> ParseInteger(std::string_view text) {
  text = TrimWhitespace(text);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool IsEdgeAlgorithm(std::string_view name) {
  static constexpr std::string_view kAlgorithms[] = {"spherical", "vincenty", "thomas", "andoyer",
                                                     "karney"};
  const std::string lower = AsciiLower(name);
  return std::find(std::begin(kAlgorithms), std::end(kAlgorithms), lower) != std::end(kAlgorithms);
}

Result<int32_t> GetFieldId(const Json& json, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(int64_t id, json.GetInt(key));
  if (id < INT32_MIN || id > INT32_MAX) {
    return CorruptData("'{}' {} is not a 32-bit field id", key, id);
  }
  return static_cast<int32_t>(id);
}

Result<TypePtr> TypeFromJsonAt(const Json& json, int depth);

// Checks a field default against its type: primitives by their JSON single-value form; nested
// types by JSON shape; types that must default to null (unknown, variant, geo) must be null.
Status CheckDefault(const NestedField& field, const Json& value, std::string_view key) {
  if (value.is_null()) return Ok();
  switch (field.type->id()) {
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return CorruptData("'{}' must be null for type {}", key, field.type->ToString());
    case TypeId::kStruct:
    case TypeId::kMap:
      if (!value.is_object()) {
        return CorruptData("'{}' of a {} must be an object", key, TypeIdName(field.type->id()));
      }
      return Ok();
    case TypeId::kList:
      if (!value.is_array()) return CorruptData("'{}' of a list must be an array", key);
      return Ok();
    default: {
      auto literal = Literal::FromJson(field.type, value);
      if (!literal) return CorruptData("'{}': {}", key, literal.error().message());
      return Ok();
    }
  }
}

Result<NestedField> FieldFromJson(const Json& json, int depth) {
  if (!json.is_object()) {
    return CorruptData("a struct field must be an object, found {}", Json::KindName(json.kind()));
  }
  NestedField field;
  auto parse = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(field.id, GetFieldId(json, "id"));
    FLOE_ASSIGN_OR_RETURN(field.name, json.GetString("name"));
    FLOE_ASSIGN_OR_RETURN(field.required, json.GetBool("required"));
    FLOE_ASSIGN_OR_RETURN(const Json* type, json.Get("type"));
    FLOE_ASSIGN_OR_RETURN(field.type, TypeFromJsonAt(*type, depth + 1));
    FLOE_ASSIGN_OR_RETURN(auto doc, json.GetOptionalString("doc"));
    if (doc) field.doc = std::move(*doc);
    for (auto key : {"initial-default", "write-default"}) {
      const Json* value = json.Find(key);
      if (value == nullptr) continue;
      FLOE_RETURN_IF_ERROR(CheckDefault(field, *value, key));
      (std::string_view(key) == "initial-default" ? field.initial_default : field.write_default) =
          *value;
    }
    return Ok();
  };
  auto status = parse();
  if (!status) {
    Error error = std::move(status).error();
    // Name the field as far as it was read.
    const Json* id = json.Find("id");
    const Json* name = json.Find("name");
    std::string where = "field";
    if (id != nullptr && id->is_int()) where += fmt::format(" {}", id->as_int());
    if (name != nullptr && name->is_string()) where += fmt::format(" '{}'", name->as_string());
    error.AddContext(where);
    return std::unexpected(std::move(error));
  }
  return field;
}

Result<std::vector<NestedField>> FieldsFromJson(const Json& json, int depth) {
  FLOE_ASSIGN_OR_RETURN(const Json::Array* fields, json.GetArray("fields"));
  std::vector<NestedField> out;
  out.reserve(fields->size());
  for (const Json& field : *fields) {
    FLOE_ASSIGN_OR_RETURN(auto parsed, FieldFromJson(field, depth));
    out.push_back(std::move(parsed));
  }
  return out;
}

Result<TypePtr> ListFromJson(const Json& json, int depth) {
  FLOE_ASSIGN_OR_RETURN(int32_t element_id, GetFieldId(json, "element-id"));
  FLOE_ASSIGN_OR_RETURN(bool element_required, json.GetBool("element-required"));
  FLOE_ASSIGN_OR_RETURN(const Json* element, json.Get("element"));
  auto element_type = TypeFromJsonAt(*element, depth + 1);
  if (!element_type) {
    return std::unexpected(
        std::move(element_type.error().AddContext(fmt::format("list element {}", element_id))));
  }
  return ListType::Make(element_id, std::move(*element_type), element_required);
}

Result<TypePtr> MapFromJson(const Json& json, int depth) {
  FLOE_ASSIGN_OR_RETURN(int32_t key_id, GetFieldId(json, "key-id"));
  FLOE_ASSIGN_OR_RETURN(int32_t value_id, GetFieldId(json, "value-id"));
  FLOE_ASSIGN_OR_RETURN(bool value_required, json.GetBool("value-required"));
  FLOE_ASSIGN_OR_RETURN(const Json* key, json.Get("key"));
  FLOE_ASSIGN_OR_RETURN(const Json* value, json.Get("value"));
  auto key_type = TypeFromJsonAt(*key, depth + 1);
  if (!key_type) {
    return std::unexpected(
        std::move(key_type.error().AddContext(fmt::format("map key {}", key_id))));
  }
  auto value_type = TypeFromJsonAt(*value, depth + 1);
  if (!value_type) {
    return std::unexpected(
        std::move(value_type.error().AddContext(fmt::format("map value {}", value_id))));
  }
  return MapType::Make(key_id, std::move(*key_type), value_id, std::move(*value_type),
                       value_required);
}

Result<TypePtr> TypeFromJsonAt(const Json& json, int depth) {
  if (depth > kMaxNestingDepth) {
    return CorruptData("types nested deeper than {} levels", kMaxNestingDepth);
  }
  if (json.is_string()) return PrimitiveTypeFromString(json.as_string());
  if (!json.is_object()) {
    return CorruptData("a type must be a string or an object, found {}",
                       Json::KindName(json.kind()));
  }
  FLOE_ASSIGN_OR_RETURN(std::string kind, json.GetString("type"));
  if (kind == "struct") {
    FLOE_ASSIGN_OR_RETURN(auto fields, FieldsFromJson(json, depth));
    return StructType::Make(std::move(fields));
  }
  if (kind == "list") return ListFromJson(json, depth);
  if (kind == "map") return MapFromJson(json, depth);
  return CorruptData("unknown nested type '{}' (expected struct, list or map)", kind);
}

Json FieldToJson(const NestedField& field) {
  Json out = Json::MakeObject();
  out.Set("id", Json(int64_t{field.id}));
  out.Set("name", Json(field.name));
  out.Set("required", Json(field.required));
  out.Set("type", TypeToJson(*field.type));
  if (!field.doc.empty()) out.Set("doc", Json(field.doc));
  if (field.initial_default) out.Set("initial-default", *field.initial_default);
  if (field.write_default) out.Set("write-default", *field.write_default);
  return out;
}

Json FieldsToJson(std::span<const NestedField> fields) {
  Json out = Json::MakeArray();
  for (const auto& field : fields) out.Push(FieldToJson(field));
  return out;
}

}  // namespace

Result<TypePtr> PrimitiveTypeFromString(std::string_view text) {
  const std::string_view trimmed = TrimWhitespace(text);
  const std::string lower = AsciiLower(trimmed);
  static constexpr TypeId kSimple[] = {
      TypeId::kUnknown,   TypeId::kBoolean,     TypeId::kInt,         TypeId::kLong,
      TypeId::kFloat,     TypeId::kDouble,      TypeId::kDate,        TypeId::kTime,
      TypeId::kTimestamp, TypeId::kTimestampTz, TypeId::kTimestampNs, TypeId::kTimestampTzNs,
      TypeId::kString,    TypeId::kUuid,        TypeId::kBinary,      TypeId::kVariant,
      TypeId::kGeometry,  TypeId::kGeography};
  for (TypeId id : kSimple) {
    if (lower == TypeIdName(id)) return PrimitiveType::Get(id);
  }
  auto starts = [&](std::string_view prefix) { return lower.starts_with(prefix); };
  if (starts("decimal")) {
    auto params = Parameters(trimmed.substr(7), '(', ')');
    const size_t comma = params ? params->find(',') : std::string_view::npos;
    if (comma != std::string_view::npos) {
      auto precision = ParseInteger(params->substr(0, comma));
      auto scale = ParseInteger(params->substr(comma + 1));
      if (precision && scale) {
        if (*precision < 1 || *precision > 38 || *scale < -38 || *scale > 38) {
          return CorruptData("invalid type '{}': decimal precision must be 1 to 38", text);
        }
        return PrimitiveType::Decimal(static_cast<int>(*precision), static_cast<int>(*scale));
      }
    }
    return CorruptData("invalid type '{}': expected decimal(P, S)", text);
  }
  if (starts("fixed")) {
    auto params = Parameters(trimmed.substr(5), '[', ']');
    auto length = params ? ParseInteger(*params) : std::nullopt;
    if (!length) return CorruptData("invalid type '{}': expected fixed[L]", text);
    if (*length < 1 || *length > INT32_MAX) {
      return CorruptData("invalid type '{}': fixed length must be positive", text);
    }
    return PrimitiveType::Fixed(*length);
  }
  if (starts("geometry")) {
    auto params = Parameters(trimmed.substr(8), '(', ')');
    if (!params || TrimWhitespace(*params).empty()) {
      return CorruptData("invalid type '{}': expected geometry(CRS)", text);
    }
    return PrimitiveType::Geometry(std::string(TrimWhitespace(*params)));
  }
  if (starts("geography")) {
    auto params = Parameters(trimmed.substr(9), '(', ')');
    if (!params || TrimWhitespace(*params).empty()) {
      return CorruptData("invalid type '{}': expected geography(CRS, ALGORITHM)", text);
    }
    // The algorithm is a plain word, so the last comma separates it from the CRS.
    const size_t comma = params->rfind(',');
    if (comma == std::string_view::npos) {
      return PrimitiveType::Geography(std::string(TrimWhitespace(*params)));
    }
    std::string_view crs = TrimWhitespace(params->substr(0, comma));
    std::string_view algorithm = TrimWhitespace(params->substr(comma + 1));
    if (crs.empty() || !IsEdgeAlgorithm(algorithm)) {
      return CorruptData("invalid type '{}': unknown edge algorithm '{}'", text, algorithm);
    }
    return PrimitiveType::Geography(std::string(crs), std::string(algorithm));
  }
  return CorruptData("unknown type '{}'", text);
}

Result<TypePtr> TypeFromJson(const Json& json) { return TypeFromJsonAt(json, 0); }

Json TypeToJson(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: {
      Json out = Json::MakeObject();
      out.Set("type", Json("struct"));
      out.Set("fields", FieldsToJson(static_cast<const StructType&>(type).fields()));
      return out;
    }
    case TypeId::kList: {
      const auto& list = static_cast<const ListType&>(type);
      Json out = Json::MakeObject();
      out.Set("type", Json("list"));
      out.Set("element-id", Json(int64_t{list.element().id}));
      out.Set("element", TypeToJson(*list.element().type));
      out.Set("element-required", Json(list.element().required));
      return out;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      Json out = Json::MakeObject();
      out.Set("type", Json("map"));
      out.Set("key-id", Json(int64_t{map.key().id}));
      out.Set("key", TypeToJson(*map.key().type));
      out.Set("value-id", Json(int64_t{map.value().id}));
      out.Set("value", TypeToJson(*map.value().type));
      out.Set("value-required", Json(map.value().required));
      return out;
    }
    default:
      return Json(type.ToString());
  }
}

Result<SchemaPtr> SchemaFromJson(const Json& json) {
  auto parse = [&]() -> Result<SchemaPtr> {
    FLOE_ASSIGN_OR_RETURN(std::string kind, json.GetString("type"));
    if (kind != "struct") return CorruptData("'type' must be \"struct\", found \"{}\"", kind);
    FLOE_ASSIGN_OR_RETURN(auto schema_id, json.GetOptionalInt("schema-id"));
    if (schema_id && (*schema_id < INT32_MIN || *schema_id > INT32_MAX)) {
      return CorruptData("'schema-id' {} is out of range", *schema_id);
    }
    std::vector<int32_t> identifier_field_ids;
    if (const Json* ids = json.Find("identifier-field-ids"); ids != nullptr && !ids->is_null()) {
      if (!ids->is_array()) return CorruptData("'identifier-field-ids' must be an array");
      for (const Json& id : ids->as_array()) {
        if (!id.is_int() || id.as_int() < INT32_MIN || id.as_int() > INT32_MAX) {
          return CorruptData("'identifier-field-ids' holds {}, not a field id", id.Dump());
        }
        identifier_field_ids.push_back(static_cast<int32_t>(id.as_int()));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto fields, FieldsFromJson(json, 0));
    auto schema = Schema::Make(
        std::move(fields), schema_id ? static_cast<int32_t>(*schema_id) : Schema::kInitialSchemaId,
        std::move(identifier_field_ids));
    if (!schema) return CorruptData("{}", schema.error().message());
    return std::move(*schema);
  };
  auto result = parse();
  if (!result) {
    const Json* id = json.Find("schema-id");
    std::string where = id != nullptr && id->is_int() ? fmt::format("schema {}", id->as_int())
                                                      : std::string("schema");
    return std::unexpected(std::move(result.error().AddContext(where)));
  }
  return result;
}

Json SchemaToJson(const Schema& schema) {
  Json out = Json::MakeObject();
  out.Set("type", Json("struct"));
  out.Set("schema-id", Json(int64_t{schema.schema_id()}));
  if (!schema.identifier_field_ids().empty()) {
    Json ids = Json::MakeArray();
    for (int32_t id : schema.identifier_field_ids()) ids.Push(Json(int64_t{id}));
    out.Set("identifier-field-ids", std::move(ids));
  }
  out.Set("fields", FieldsToJson(schema.fields()));
  return out;
}

}  // namespace floe
