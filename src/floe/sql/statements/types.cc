#include <fmt/format.h>

#include <algorithm>

#include "floe/sql/statements/types_internal.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

// Flink's default lengths and precisions when the type is written without them.
int64_t ParamOr(const SqlType& type, std::size_t index, int64_t fallback) {
  return index < type.params.size() ? type.params[index] : fallback;
}

Result<TypePtr> Convert(const SqlType& type, int32_t* next_id);

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

Result<TypePtr> Convert(const SqlType& type, int32_t* next_id) {
  switch (type.kind) {
    case SqlTypeKind::kBoolean:
      return types::Boolean();
    case SqlTypeKind::kTinyInt:
    case SqlTypeKind::kSmallInt:
    case SqlTypeKind::kInt:
      return types::Int();
    case SqlTypeKind::kBigInt:
      return types::Long();
    case SqlTypeKind::kFloat:
      return types::Float();
    case SqlTypeKind::kDouble:
      return types::Double();
    case SqlTypeKind::kDecimal: {
      int64_t precision = ParamOr(type, 0, 10);
      int64_t scale = ParamOr(type, 1, 0);
      if (precision < 1 || precision > 38 || scale > precision) {
        return InvalidArgument("{}: precision must be 1 to 38 and scale at most the precision",
                               PrintType(type));
      }
      return types::Decimal(static_cast<int>(precision), static_cast<int>(scale));
    }
    case SqlTypeKind::kChar:
    case SqlTypeKind::kVarChar:
    case SqlTypeKind::kString:
      return types::String();
    case SqlTypeKind::kBinary: {
      int64_t length = ParamOr(type, 0, 1);
      if (length < 1) return InvalidArgument("{}: length must be at least 1", PrintType(type));
      return types::Fixed(length);
    }
    case SqlTypeKind::kVarBinary:
    case SqlTypeKind::kBytes:
      return types::Binary();
    case SqlTypeKind::kDate:
      return types::Date();
    case SqlTypeKind::kTime:
      return types::Time();
    case SqlTypeKind::kTimestamp:
      return types::Timestamp();
    case SqlTypeKind::kTimestampLtz:
      return types::TimestampTz();
    case SqlTypeKind::kArray: {
      int32_t element_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr element, Convert(type.elements[0], next_id));
      return ListType::Make(element_id, std::move(element), type.elements[0].not_null);
    }
    case SqlTypeKind::kMap: {
      int32_t key_id = (*next_id)++;
      int32_t value_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr key, Convert(type.elements[0], next_id));
      FLOE_ASSIGN_OR_RETURN(TypePtr value, Convert(type.elements[1], next_id));
      return MapType::Make(key_id, std::move(key), value_id, std::move(value),
                           type.elements[1].not_null);
    }
    case SqlTypeKind::kMultiset: {
      // A multiset is a map from element to its (required) count.
      int32_t key_id = (*next_id)++;
      int32_t value_id = (*next_id)++;
      FLOE_ASSIGN_OR_RETURN(TypePtr key, Convert(type.elements[0], next_id));
      return MapType::Make(key_id, std::move(key), value_id, types::Int(), true);
    }
    case SqlTypeKind::kRow: {
      FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields,
                            ConvertFields(type.fields, next_id, "field"));
      return StructType::Make(std::move(fields));
    }
    case SqlTypeKind::kTimestampTz:
    case SqlTypeKind::kNull:
    case SqlTypeKind::kInterval:  // the connector's type tables have no row for it
      break;
  }
  return Unsupported("Flink type {} is not supported in Iceberg tables", PrintType(type));
}

SqlType Flink(SqlTypeKind kind, std::vector<int64_t> params = {}) {
  SqlType type;
  type.kind = kind;
  type.params = std::move(params);
  return type;
}

}  // namespace

Result<TypePtr> ToIcebergType(const SqlType& type, int32_t* next_id) {
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

Result<SqlType> ToFlinkType(const Type& type, bool required) {
  constexpr int64_t kMaxLength = 2147483647;
  SqlType out;
  switch (type.id()) {
    case TypeId::kBoolean:
      out = Flink(SqlTypeKind::kBoolean);
      break;
    case TypeId::kInt:
      out = Flink(SqlTypeKind::kInt);
      break;
    case TypeId::kLong:
      out = Flink(SqlTypeKind::kBigInt);
      break;
    case TypeId::kFloat:
      out = Flink(SqlTypeKind::kFloat);
      break;
    case TypeId::kDouble:
      out = Flink(SqlTypeKind::kDouble);
      break;
    case TypeId::kDate:
      out = Flink(SqlTypeKind::kDate);
      break;
    case TypeId::kTime:
      out = Flink(SqlTypeKind::kTime);
      break;
    case TypeId::kTimestamp:
      out = Flink(SqlTypeKind::kTimestamp, {6});
      break;
    case TypeId::kTimestampTz:
      out = Flink(SqlTypeKind::kTimestampLtz, {6});
      break;
    case TypeId::kString:
      out = Flink(SqlTypeKind::kVarChar, {kMaxLength});
      break;
    case TypeId::kUuid:
      out = Flink(SqlTypeKind::kBinary, {16});
      break;
    case TypeId::kBinary:
      out = Flink(SqlTypeKind::kVarBinary, {kMaxLength});
      break;
    case TypeId::kFixed: {
      const auto& fixed = static_cast<const PrimitiveType&>(type);
      out = Flink(SqlTypeKind::kBinary, {fixed.length()});
      break;
    }
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(type);
      out = Flink(SqlTypeKind::kDecimal, {decimal.precision(), decimal.scale()});
      break;
    }
    case TypeId::kStruct: {
      out = Flink(SqlTypeKind::kRow);
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
      out = Flink(SqlTypeKind::kArray);
      FLOE_ASSIGN_OR_RETURN(SqlType converted, ToFlinkType(*element.type, element.required));
      out.elements.push_back(std::move(converted));
      break;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      out = Flink(SqlTypeKind::kMap);
      FLOE_ASSIGN_OR_RETURN(SqlType key, ToFlinkType(*map.key().type, map.key().required));
      FLOE_ASSIGN_OR_RETURN(SqlType value, ToFlinkType(*map.value().type, map.value().required));
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
