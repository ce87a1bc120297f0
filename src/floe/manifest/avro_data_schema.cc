#include "floe/manifest/avro_data_schema.h"

#include <fmt/format.h>

#include <set>
#include <string>

#include "floe/format/avro/batch_decoder.h"
#include "floe/format/avro/schema.h"
#include "floe/manifest/manifest_schema.h"
#include "floe/spec/literal.h"

namespace floe::manifest {
namespace {

// Avro names allow [A-Za-z_][A-Za-z0-9_]*: a leading digit gets a "_" before it, any other
// character becomes "_x" and its code in upper-case hex (Iceberg Java's AvroSchemaUtil rule).
std::string AvroName(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    auto c = static_cast<unsigned char>(name[i]);
    bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (letter || (digit && i > 0)) {
      out.push_back(static_cast<char>(c));
    } else if (digit) {
      out.push_back('_');
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("_x{:X}", c);
    }
  }
  return out;
}

// Bytes as an Avro JSON default: one code point per byte.
Json BytesDefault(std::string_view bytes) {
  std::string out;
  for (char ch : bytes) {
    auto b = static_cast<unsigned char>(ch);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
    } else {
      out.push_back(static_cast<char>(0xC0 | (b >> 6)));
      out.push_back(static_cast<char>(0x80 | (b & 0x3F)));
    }
  }
  return Json(std::move(out));
}

// An Iceberg JSON single value (initial-default) as the Avro default of the field's value type.
Result<Json> AvroDefault(const TypePtr& type, const Json& value) {
  if (value.is_null()) return Json();
  if (!type->is_primitive()) {
    return Unsupported("a default of type {} cannot be written to Avro", type->ToString());
  }
  FLOE_ASSIGN_OR_RETURN(Literal literal, Literal::FromJson(type, value));
  switch (type->id()) {
    case TypeId::kBoolean:
      return Json(literal.bool_value());
    case TypeId::kInt:
    case TypeId::kDate:
      return Json(int64_t{literal.int_value()});
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Json(literal.long_value());
    case TypeId::kFloat:
      return Json(static_cast<double>(literal.float_value()));
    case TypeId::kDouble:
      return Json(literal.double_value());
    case TypeId::kString:
      return Json(literal.bytes_value());
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return BytesDefault(literal.bytes_value());
    case TypeId::kDecimal: {
      const auto& p = static_cast<const PrimitiveType&>(*type);
      int size = DecimalBytes(p.precision());
      auto u = static_cast<unsigned __int128>(literal.decimal_value());
      std::string bytes(static_cast<size_t>(size), '\0');
      for (int k = size - 1; k >= 0; --k) {
        bytes[static_cast<size_t>(k)] = static_cast<char>(static_cast<uint8_t>(u & 0xFF));
        u >>= 8;
      }
      return BytesDefault(bytes);
    }
    default:
      return Unsupported("a default of type {} cannot be written to Avro", type->ToString());
  }
}

class AvroSchemaBuilder {
 public:
  Result<Json> Record(std::string_view name, std::span<const NestedField> fields) {
    Json::Array out;
    for (const NestedField& field : fields) {
      auto f = Field(field);
      if (!f) return std::unexpected(std::move(f.error().AddContext("field " + field.name)));
      out.push_back(std::move(*f));
    }
    Json record = Json::MakeObject();
    record.Set("type", "record");
    record.Set("name", name);
    record.Set("fields", Json(std::move(out)));
    return record;
  }

 private:
  Result<Json> Field(const NestedField& field) {
    std::string name = AvroName(field.name);
    FLOE_ASSIGN_OR_RETURN(Json type, Value(*field.type, field.id));
    std::optional<Json> default_value;
    if (field.initial_default) {
      FLOE_ASSIGN_OR_RETURN(Json d, AvroDefault(field.type, *field.initial_default));
      if (!d.is_null()) default_value = std::move(d);
    }
    Json f = Json::MakeObject();
    f.Set("name", name);
    if (field.type->id() == TypeId::kUnknown) {
      f.Set("type", std::move(type));
      f.Set("default", Json());
    } else if (field.required) {
      f.Set("type", std::move(type));
      if (default_value) f.Set("default", std::move(*default_value));
    } else if (default_value) {
      // A union's default must be of its first branch.
      Json u = Json::MakeArray();
      u.Push(std::move(type));
      u.Push("null");
      f.Set("type", std::move(u));
      f.Set("default", std::move(*default_value));
    } else {
      f.Set("type", Optional(std::move(type)));
      f.Set("default", Json());
    }
    if (!field.doc.empty()) f.Set("doc", field.doc);
    f.Set("field-id", Json(int64_t{field.id}));
    if (name != field.name) f.Set("iceberg-field-name", field.name);
    return f;
  }

  static Json Optional(Json type) {
    Json u = Json::MakeArray();
    u.Push("null");
    u.Push(std::move(type));
    return u;
  }

  Result<Json> Element(const NestedField& field) {
    FLOE_ASSIGN_OR_RETURN(Json type, Value(*field.type, field.id));
    if (field.required || field.type->id() == TypeId::kUnknown) return type;
    return Optional(std::move(type));
  }

  // The Avro type of one value; id is the Iceberg field holding it (names nested records).
  Result<Json> Value(const Type& type, int32_t id) {
    switch (type.id()) {
      case TypeId::kStruct:
        return Record(fmt::format("r{}", id), static_cast<const StructType&>(type).fields());
      case TypeId::kList: {
        const auto& list = static_cast<const ListType&>(type);
        FLOE_ASSIGN_OR_RETURN(Json items, Element(list.element()));
        Json array = Json::MakeObject();
        array.Set("type", "array");
        array.Set("items", std::move(items));
        array.Set("element-id", Json(int64_t{list.element().id}));
        return array;
      }
      case TypeId::kMap: {
        const auto& map = static_cast<const MapType&>(type);
        FLOE_ASSIGN_OR_RETURN(Json values, Element(map.value()));
        if (map.key().type->id() == TypeId::kString) {
          Json m = Json::MakeObject();
          m.Set("type", "map");
          m.Set("values", std::move(values));
          m.Set("key-id", Json(int64_t{map.key().id}));
          m.Set("value-id", Json(int64_t{map.value().id}));
          return m;
        }
        FLOE_ASSIGN_OR_RETURN(Json key, Value(*map.key().type, map.key().id));
        Json::Array fields;
        Json k = Json::MakeObject();
        k.Set("name", "key");
        k.Set("type", std::move(key));
        k.Set("field-id", Json(int64_t{map.key().id}));
        fields.push_back(std::move(k));
        Json v = Json::MakeObject();
        v.Set("name", "value");
        v.Set("type", std::move(values));
        v.Set("field-id", Json(int64_t{map.value().id}));
        fields.push_back(std::move(v));
        Json entry = Json::MakeObject();
        entry.Set("type", "record");
        entry.Set("name", fmt::format("k{}_v{}", map.key().id, map.value().id));
        entry.Set("fields", Json(std::move(fields)));
        Json array = Json::MakeObject();
        array.Set("type", "array");
        array.Set("items", std::move(entry));
        array.Set("logicalType", "map");
        return array;
      }
      case TypeId::kVariant:
        return Unsupported("variant columns are not written to Avro data files yet");
      default: {
        FLOE_ASSIGN_OR_RETURN(Json j, AvroTypeJson(type));
        // A named type (fixed, decimal, uuid) is defined once and referenced by name after.
        if (const Json* name = j.is_object() ? j.Find("name") : nullptr) {
          if (!defined_.insert(name->as_string()).second) return Json(name->as_string());
        }
        return j;
      }
    }
  }

  std::set<std::string> defined_;
};

Result<int32_t> RequireId(std::optional<int64_t> id, std::string_view what, std::string_view at) {
  if (!id || *id < 0 || *id > INT32_MAX) {
    return InvalidArgument("{}: Avro {} has no valid Iceberg id", at, what);
  }
  return static_cast<int32_t>(*id);
}

Result<TypePtr> IcebergType(const avro::Node& node, const std::string& at, int depth);

// An Avro value position: [null, T] unions are optional T.
Result<std::pair<TypePtr, bool>> Slot(const avro::Node& node, const std::string& at, int depth) {
  if (node.type == avro::Type::kUnion) {
    auto null_branch = node.NullBranch();
    if (!null_branch || node.branches.size() != 2) {
      return InvalidArgument("{}: Iceberg allows only unions of null and one type", at);
    }
    FLOE_ASSIGN_OR_RETURN(TypePtr t, IcebergType(*node.branches[1 - *null_branch], at, depth));
    return std::make_pair(t, false);
  }
  FLOE_ASSIGN_OR_RETURN(TypePtr t, IcebergType(node, at, depth));
  return std::make_pair(t, node.type != avro::Type::kNull);
}

Result<std::vector<NestedField>> Fields(const avro::Node& record, const std::string& at,
                                        int depth) {
  std::vector<NestedField> fields;
  for (const avro::Field& f : record.fields) {
    std::string path = at.empty() ? f.name : at + "." + f.name;
    FLOE_ASSIGN_OR_RETURN(int32_t id, RequireId(f.field_id, "field", path));
    FLOE_ASSIGN_OR_RETURN(auto slot, Slot(*f.type, path, depth + 1));
    NestedField field{.id = id, .name = f.name, .type = slot.first, .required = slot.second};
    for (const auto& [key, value] : f.attributes) {
      if (key == "iceberg-field-name" && value.is_string()) field.name = value.as_string();
    }
    if (f.doc) field.doc = *f.doc;
    fields.push_back(std::move(field));
  }
  return fields;
}

Result<TypePtr> IcebergType(const avro::Node& node, const std::string& at, int depth) {
  if (depth > 200) return InvalidArgument("{}: nested too deeply", at);
  switch (node.type) {
    case avro::Type::kRecord: {
      FLOE_ASSIGN_OR_RETURN(auto fields, Fields(node, at, depth));
      return StructType::Make(std::move(fields));
    }
    case avro::Type::kArray: {
      if (node.IsKeyValueArray()) {
        const avro::Node& entry = *node.items;
        FLOE_ASSIGN_OR_RETURN(int32_t key_id, RequireId(entry.fields[0].field_id, "key", at));
        FLOE_ASSIGN_OR_RETURN(int32_t value_id, RequireId(entry.fields[1].field_id, "value", at));
        FLOE_ASSIGN_OR_RETURN(auto key, Slot(*entry.fields[0].type, at + ".key", depth + 1));
        FLOE_ASSIGN_OR_RETURN(auto value, Slot(*entry.fields[1].type, at + ".value", depth + 1));
        return MapType::Make(key_id, key.first, value_id, value.first, value.second);
      }
      FLOE_ASSIGN_OR_RETURN(int32_t id, RequireId(node.IntAttribute("element-id"), "array", at));
      FLOE_ASSIGN_OR_RETURN(auto element, Slot(*node.items, at + ".element", depth + 1));
      return ListType::Make(id, element.first, element.second);
    }
    case avro::Type::kMap: {
      FLOE_ASSIGN_OR_RETURN(int32_t key_id, RequireId(node.IntAttribute("key-id"), "map key", at));
      FLOE_ASSIGN_OR_RETURN(int32_t value_id,
                            RequireId(node.IntAttribute("value-id"), "map value", at));
      FLOE_ASSIGN_OR_RETURN(auto value, Slot(*node.values, at + ".value", depth + 1));
      return MapType::Make(key_id, types::String(), value_id, value.first, value.second);
    }
    case avro::Type::kUnion:
      return InvalidArgument("{}: a union inside a union", at);
    case avro::Type::kEnum:
      return PrimitiveType::Get(TypeId::kString);
    default:
      return IcebergTypeOf(node);
  }
}

}  // namespace

Result<std::shared_ptr<const avro::Schema>> ToAvroDataSchema(const Schema& schema,
                                                             std::string_view record_name) {
  AvroSchemaBuilder builder;
  FLOE_ASSIGN_OR_RETURN(Json root, builder.Record(record_name, schema.fields()));
  return avro::Schema::FromJson(root);
}

Result<SchemaPtr> FromAvroDataSchema(const avro::Schema& schema) {
  if (schema.root().type != avro::Type::kRecord) {
    return InvalidArgument("an Avro data file schema must be a record, not {}",
                           avro::TypeName(schema.root().type));
  }
  FLOE_ASSIGN_OR_RETURN(auto fields, Fields(schema.root(), "", 0));
  return Schema::Make(std::move(fields));
}

Result<BatchSchemaPtr> AvroBatchSchema(const Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(auto avro_schema, ToAvroDataSchema(schema));
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, avro::ToBatchType(avro_schema->root()));
  return std::make_shared<const BatchSchema>(type->fields());
}

}  // namespace floe::manifest
