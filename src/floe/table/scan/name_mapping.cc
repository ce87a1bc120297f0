#include "floe/table/scan/name_mapping.h"

#include "floe/util/json.h"

namespace floe::table {

namespace {

Result<NameMapping> ParseLevel(const Json& json) {
  if (!json.is_array()) return CorruptData("name mapping: expected an array of fields");
  NameMapping level;
  for (const Json& entry : json.as_array()) {
    MappedField field;
    FLOE_ASSIGN_OR_RETURN(auto id, entry.GetOptionalInt("field-id"));
    if (id) field.field_id = static_cast<int32_t>(*id);
    FLOE_ASSIGN_OR_RETURN(const Json::Array* names, entry.GetArray("names"));
    for (const Json& name : *names) {
      if (!name.is_string()) return CorruptData("name mapping: a name is not a string");
      field.names.push_back(name.as_string());
    }
    if (const Json* nested = entry.Find("fields"); nested && !nested->is_null()) {
      FLOE_ASSIGN_OR_RETURN(field.fields, ParseLevel(*nested));
    }
    level.push_back(std::move(field));
  }
  return level;
}

NameMapping MapNested(const Type& type);

MappedField MapField(const NestedField& f) {
  return MappedField{f.id, {f.name}, MapNested(*f.type)};
}

NameMapping MapNested(const Type& type) {
  NameMapping level;
  switch (type.id()) {
    case TypeId::kStruct:
      for (const NestedField& f : static_cast<const StructType&>(type).fields()) {
        level.push_back(MapField(f));
      }
      break;
    case TypeId::kList:
      level.push_back(MapField(static_cast<const ListType&>(type).element()));
      break;
    case TypeId::kMap:
      level.push_back(MapField(static_cast<const MapType&>(type).key()));
      level.push_back(MapField(static_cast<const MapType&>(type).value()));
      break;
    default:
      break;
  }
  return level;
}

const MappedField* Lookup(const NameMapping& level, std::string_view name) {
  for (const MappedField& f : level) {
    for (const std::string& n : f.names) {
      if (n == name) return &f;
    }
  }
  return nullptr;
}

DataTypePtr MapChildren(const DataTypePtr& type, const NameMapping& level) {
  switch (type->kind()) {
    case TypeKind::kStruct: {
      std::vector<Field> fields;
      for (const Field& f : type->fields()) fields.push_back(ApplyNameMapping(f, level));
      return DataType::Struct(std::move(fields));
    }
    case TypeKind::kList:
      return DataType::List(ApplyNameMapping(type->field(0), level));
    case TypeKind::kMap:
      return DataType::Map(ApplyNameMapping(type->key_field(), level),
                           ApplyNameMapping(type->item_field(), level), type->keys_sorted());
    default:
      return type;
  }
}

}  // namespace

Result<NameMapping> ParseNameMapping(std::string_view json) {
  FLOE_ASSIGN_OR_RETURN(Json parsed, Json::Parse(json));
  auto mapping = ParseLevel(parsed);
  if (!mapping) return std::unexpected(std::move(mapping.error().AddContext("name mapping")));
  return mapping;
}

NameMapping NameMappingOf(const Schema& schema) { return MapNested(*schema.as_struct()); }

Field ApplyNameMapping(const Field& field, const NameMapping& level) {
  Field out = field;
  const MappedField* mapped = Lookup(level, field.name);
  if (!out.field_id && mapped) out.field_id = mapped->field_id;
  // A list's element or a map's key and value may be named differently in old files ("item",
  // "array", "key_value"...): they are the only child at their level, so they map by position.
  static const NameMapping kEmpty;
  const NameMapping& children = mapped ? mapped->fields : kEmpty;
  if (field.type->kind() == TypeKind::kList && children.size() == 1) {
    Field element = field.type->field(0);
    Field renamed = element;
    renamed.name = children[0].names.empty() ? element.name : children[0].names[0];
    Field mapped_element = ApplyNameMapping(renamed, children);
    mapped_element.name = element.name;
    out.type = DataType::List(std::move(mapped_element));
    return out;
  }
  out.type = MapChildren(field.type, children);
  return out;
}

}  // namespace floe::table
