#include "floe/sql/statements/types.h"

#include <fmt/format.h>

#include <algorithm>

#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

// Flink's default lengths and precisions when the type is written without them.
int64_t ParamOr(const DataType& type, std::size_t index, int64_t fallback) {
  return index < type.params.size() ? type.params[index] : fallback;
}

Result<TypePtr> Convert(const DataType& type, int32_t* next_id);

// `what` names the fields in errors: "column" at the top level, "field" inside a ROW.
Result<std::vector<NestedField>> ConvertFields(const std::vector<RowField>& fields,
                                               int32_t* next_id, std::string_view what) {
  std::vector<NestedField> out(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) out[i].id = (*next_id)++;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto type = Convert(fields[i].type, next_id);
    if (!type) {
      return std::unexpected(
          std::move(type.error()).AddContext(fmt::format("{} '{}'", what, fields[i].name)));
    }
    out[i].name = fields[i].name;
    out[i].type = std::move(*type);
    out[i].required = fields[i].type.not_null;
    out[i].doc = fields[i].comment.value_or("");
  }
  return out;
}

Result<TypePtr> Convert(const DataType& type, int32_t* next_id) {
  switch (type.kind) {
    case TypeKind::kBoolean:
      return types::Boolean();
    case TypeKind::kTinyInt:
    case TypeKind::kSmallInt:
    case TypeKind::kInt:
      return types::Int();
    case TypeKind::kBigInt:
      return types::Long();
    case TypeKind::kFloat:
      return types::Float();
    case TypeKind::kDouble:
      return types::Double();
    case TypeKind::kDecimal: {
      int64_t precision = ParamOr(type, 0, 10);
      int64_t scale = ParamOr(type, 1, 0);
      if (precision < 1 || precision > 38 || scale > precision) {
        return InvalidArgument("{}: precision must be 1 to 38 and scale at most the precision",
                               PrintType(type));
      }
      return types::Decimal(static_cast<int>(precision), static_cast<int>(scale));
    }
    case TypeKind::kChar:
    case TypeKind::kVarChar:
    case TypeKind::kString:
      return types::String();
    case TypeKind::kBinary: {
      int64_t length = ParamOr(type, 0, 1);
      if (length < 1) return InvalidArgument("{}: length must be at least 1", PrintType(type));
      return types::Fixed(length);
    }
    case TypeKind::kVarBinary:
    case TypeKind::kBytes:
      return types::Binary();
    case TypeKind::kDate:
      return types::Date();
    case TypeKind::kTime:
      return types::Time();
    case TypeKind::kTimestamp:
      return types::Timestamp();
    case TypeKind::kTimestampLtz:
      return types::TimestampTz();
    case TypeKind::kArray: {
      int32_t element_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr element, Convert(type.elements[0], next_id));
      return ListType::Make(element_id, std::move(element), type.elements[0].not_null);
    }
    case TypeKind::kMap: {
      int32_t key_id = (*next_id)++;
      int32_t value_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr key, Convert(type.elements[0], next_id));
      FLOE_ASSIGN_OR_RETURN(TypePtr value, Convert(type.elements[1], next_id));
      return MapType::Make(key_id, std::move(key), value_id, std::move(value),
                           type.elements[1].not_null);
    }
    case TypeKind::kMultiset: {
      // A multiset is a map from element to its (required) count.
      int32_t key_id = (*next_id)++;
      int32_t value_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr key, Convert(type.elements[0], next_id));
      return MapType::Make(key_id, std::move(key), value_id, types::Int(), true);
    }
    case TypeKind::kRow: {
      FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields,
                            ConvertFields(type.fields, next_id, "field"));
      return StructType::Make(std::move(fields));
    }
    case TypeKind::kTimestampTz:
    case TypeKind::kNull:
    case TypeKind::kInterval:  // the connector's type tables have no row for it
      break;
  }
  return Unsupported("Flink type {} is not supported in Iceberg tables", PrintType(type));
}

DataType Flink(TypeKind kind, std::vector<int64_t> params = {}) {
  DataType type;
  type.kind = kind;
  type.params = std::move(params);
  return type;
}

}  // namespace

Result<TypePtr> ToIcebergType(const DataType& type, int32_t* next_id) {
  return Convert(type, next_id);
}

Result<std::vector<NestedField>> ToIcebergFields(const std::vector<ColumnDef>& columns,
                                                 const std::vector<std::string>& primary_key) {
  std::vector<RowField> fields;
  fields.reserve(columns.size());
  for (const ColumnDef& column : columns) {
    RowField field{column.name, column.type, column.comment};
    if (std::ranges::find(primary_key, column.name) != primary_key.end())
      field.type.not_null = true;
    fields.push_back(std::move(field));
  }
  int32_t next_id = 1;
  return ConvertFields(fields, &next_id, "column");
}

Result<DataType> ToFlinkType(const Type& type, bool required) {
  constexpr int64_t kMaxLength = 2147483647;
  DataType out;
  switch (type.id()) {
    case TypeId::kBoolean:
      out = Flink(TypeKind::kBoolean);
      break;
    case TypeId::kInt:
      out = Flink(TypeKind::kInt);
      break;
    case TypeId::kLong:
      out = Flink(TypeKind::kBigInt);
      break;
    case TypeId::kFloat:
      out = Flink(TypeKind::kFloat);
      break;
    case TypeId::kDouble:
      out = Flink(TypeKind::kDouble);
      break;
    case TypeId::kDate:
      out = Flink(TypeKind::kDate);
      break;
    case TypeId::kTime:
      out = Flink(TypeKind::kTime);
      break;
    case TypeId::kTimestamp:
      out = Flink(TypeKind::kTimestamp, {6});
      break;
    case TypeId::kTimestampTz:
      out = Flink(TypeKind::kTimestampLtz, {6});
      break;
    case TypeId::kString:
      out = Flink(TypeKind::kVarChar, {kMaxLength});
      break;
    case TypeId::kUuid:
      out = Flink(TypeKind::kBinary, {16});
      break;
    case TypeId::kBinary:
      out = Flink(TypeKind::kVarBinary, {kMaxLength});
      break;
    case TypeId::kFixed: {
      const auto& fixed = static_cast<const PrimitiveType&>(type);
      out = Flink(TypeKind::kBinary, {fixed.length()});
      break;
    }
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(type);
      out = Flink(TypeKind::kDecimal, {decimal.precision(), decimal.scale()});
      break;
    }
    case TypeId::kStruct: {
      out = Flink(TypeKind::kRow);
      for (const NestedField& field : static_cast<const StructType&>(type).fields()) {
        auto converted = ToFlinkType(*field.type, field.required);
        if (!converted) {
          return std::unexpected(
              std::move(converted.error()).AddContext(fmt::format("field '{}'", field.name)));
        }
        std::optional<std::string> doc;
        if (!field.doc.empty()) doc = field.doc;
        out.fields.push_back(RowField{field.name, std::move(*converted), std::move(doc)});
      }
      break;
    }
    case TypeId::kList: {
      const NestedField& element = static_cast<const ListType&>(type).element();
      out = Flink(TypeKind::kArray);
      FLOE_ASSIGN_OR_RETURN(DataType converted, ToFlinkType(*element.type, element.required));
      out.elements.push_back(std::move(converted));
      break;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      out = Flink(TypeKind::kMap);
      FLOE_ASSIGN_OR_RETURN(DataType key, ToFlinkType(*map.key().type, map.key().required));
      FLOE_ASSIGN_OR_RETURN(DataType value, ToFlinkType(*map.value().type, map.value().required));
      out.elements.push_back(std::move(key));
      out.elements.push_back(std::move(value));
      break;
    }
    default:
      return Unsupported("Iceberg type {} has no Flink SQL type", type.ToString());
  }
  out.not_null = required;
  return out;
}

}  // namespace floe::sql
