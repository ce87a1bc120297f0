#include <charconv>

#include "floe/format/orc/schema_internal.h"

namespace floe::orc {
namespace {

// Each subtype must come after its parent (the footer lists the tree in pre-order), which also
// bounds the recursion by the number of types.
Status CheckSubtypes(const std::vector<Type>& types, uint32_t column, size_t expected) {
  const Type& type = types[column];
  if (expected != SIZE_MAX && type.subtypes.size() != expected) {
    return CorruptData("ORC column {} ({}) has {} subtypes, expected {}", column,
                       TypeKindName(type.kind), type.subtypes.size(), expected);
  }
  for (uint32_t sub : type.subtypes) {
    if (sub <= column || sub >= types.size()) {
      return CorruptData("ORC column {} names subtype {} of {} types", column, sub, types.size());
    }
  }
  return Ok();
}

std::optional<int32_t> FieldId(const Type& type) {
  auto text = type.Attribute("iceberg.id");
  if (!text) return std::nullopt;
  int32_t id = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), id);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return id;
}

}  // namespace

Result<Field> MapField(const std::vector<Type>& types, uint32_t column, std::string name,
                       TimeUnit timestamp_unit) {
  if (column >= types.size()) return CorruptData("ORC column {} of {} types", column, types.size());
  const Type& type = types[column];
  Field field;
  field.name = std::move(name);
  field.field_id = FieldId(type);
  field.nullable = type.Attribute("iceberg.required") != "true";
  switch (type.kind) {
    case TypeKind::kBoolean:
      field.type = DataType::Bool();
      break;
    case TypeKind::kByte:
      field.type = DataType::Int8();
      break;
    case TypeKind::kShort:
      field.type = DataType::Int16();
      break;
    case TypeKind::kInt:
      field.type = DataType::Int32();
      break;
    case TypeKind::kLong:
      field.type = DataType::Int64();
      break;
    case TypeKind::kFloat:
      field.type = DataType::Float32();
      break;
    case TypeKind::kDouble:
      field.type = DataType::Float64();
      break;
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      field.type = DataType::String();
      break;
    case TypeKind::kBinary:
      field.type = DataType::Binary();
      break;
    case TypeKind::kDecimal: {
      const uint32_t precision = type.precision == 0 ? 38 : type.precision;
      if (precision > 38 || type.scale > precision) {
        return CorruptData("ORC column {}: decimal({}, {}) is out of range", column, type.precision,
                           type.scale);
      }
      field.type =
          DataType::Decimal128(static_cast<int32_t>(precision), static_cast<int32_t>(type.scale));
      break;
    }
    case TypeKind::kDate:
      field.type = DataType::Date32();
      break;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      field.type = DataType::Timestamp(timestamp_unit, type.kind == TypeKind::kTimestampInstant);
      break;
    case TypeKind::kList: {
      FLOE_RETURN_IF_ERROR(CheckSubtypes(types, column, 1));
      FLOE_ASSIGN_OR_RETURN(Field element,
                            MapField(types, type.subtypes[0], "element", timestamp_unit));
      field.type = DataType::List(std::move(element));
      break;
    }
    case TypeKind::kMap: {
      FLOE_RETURN_IF_ERROR(CheckSubtypes(types, column, 2));
      FLOE_ASSIGN_OR_RETURN(Field key, MapField(types, type.subtypes[0], "key", timestamp_unit));
      FLOE_ASSIGN_OR_RETURN(Field value,
                            MapField(types, type.subtypes[1], "value", timestamp_unit));
      key.nullable = false;
      field.type = DataType::Map(std::move(key), std::move(value));
      break;
    }
    case TypeKind::kStruct: {
      FLOE_RETURN_IF_ERROR(CheckSubtypes(types, column, type.field_names.size()));
      std::vector<Field> children;
      for (size_t i = 0; i < type.subtypes.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(
            Field child, MapField(types, type.subtypes[i], type.field_names[i], timestamp_unit));
        children.push_back(std::move(child));
      }
      field.type = DataType::Struct(std::move(children));
      break;
    }
    case TypeKind::kUnion:
      return Unsupported("ORC column {} ('{}') is a union, which floe does not read", column,
                         field.name);
  }
  return field;
}

Result<uint32_t> SubtreeEnd(const std::vector<Type>& types, uint32_t column) {
  uint32_t end = column + 1;
  for (uint32_t sub : types[column].subtypes) {
    if (sub <= column || sub >= types.size()) {
      return CorruptData("ORC column {} names subtype {} of {} types", column, sub, types.size());
    }
    FLOE_ASSIGN_OR_RETURN(uint32_t sub_end, SubtreeEnd(types, sub));
    end = std::max(end, sub_end);
  }
  return end;
}

}  // namespace floe::orc
