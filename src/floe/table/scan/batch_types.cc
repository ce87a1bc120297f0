#include "floe/table/scan/batch_types.h"

namespace floe::table {

Result<DataTypePtr> ToBatchType(const Type& type) {
  switch (type.id()) {
    case TypeId::kUnknown:
      return DataType::Null();
    case TypeId::kBoolean:
      return DataType::Bool();
    case TypeId::kInt:
      return DataType::Int32();
    case TypeId::kLong:
      return DataType::Int64();
    case TypeId::kFloat:
      return DataType::Float32();
    case TypeId::kDouble:
      return DataType::Float64();
    case TypeId::kDecimal: {
      const auto& p = static_cast<const PrimitiveType&>(type);
      return DataType::Decimal128(p.precision(), p.scale());
    }
    case TypeId::kDate:
      return DataType::Date32();
    case TypeId::kTime:
      return DataType::Time64(TimeUnit::kMicro);
    case TypeId::kTimestamp:
      return DataType::Timestamp(TimeUnit::kMicro, false);
    case TypeId::kTimestampTz:
      return DataType::Timestamp(TimeUnit::kMicro, true);
    case TypeId::kTimestampNs:
      return DataType::Timestamp(TimeUnit::kNano, false);
    case TypeId::kTimestampTzNs:
      return DataType::Timestamp(TimeUnit::kNano, true);
    case TypeId::kString:
      return DataType::String();
    case TypeId::kUuid:
      return DataType::FixedSizeBinary(16);
    case TypeId::kFixed:
      return DataType::FixedSizeBinary(
          static_cast<int32_t>(static_cast<const PrimitiveType&>(type).length()));
    case TypeId::kBinary:
      return DataType::Binary();
    case TypeId::kStruct: {
      std::vector<Field> fields;
      for (const NestedField& f : static_cast<const StructType&>(type).fields()) {
        FLOE_ASSIGN_OR_RETURN(Field field, ToBatchField(f));
        fields.push_back(std::move(field));
      }
      return DataType::Struct(std::move(fields));
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(Field element,
                            ToBatchField(static_cast<const ListType&>(type).element()));
      return DataType::List(std::move(element));
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      FLOE_ASSIGN_OR_RETURN(Field key, ToBatchField(map.key()));
      FLOE_ASSIGN_OR_RETURN(Field value, ToBatchField(map.value()));
      key.nullable = false;
      return DataType::Map(std::move(key), std::move(value));
    }
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      break;
  }
  return Unsupported("type {} cannot be read into batches", type.ToString());
}

Result<Field> ToBatchField(const NestedField& field) {
  auto type = ToBatchType(*field.type);
  if (!type) return std::unexpected(std::move(type.error().AddContext(field.name)));
  return Field{field.name, *type, !field.required, field.id};
}

Result<std::vector<Field>> ToBatchFields(const Schema& schema) {
  std::vector<Field> fields;
  for (const NestedField& f : schema.fields()) {
    FLOE_ASSIGN_OR_RETURN(Field field, ToBatchField(f));
    fields.push_back(std::move(field));
  }
  return fields;
}

namespace {

Result<NestedField> FromBatchField(const Field& field, int32_t* next_id) {
  const int32_t id = (*next_id)++;
  auto type = FromBatchType(*field.type, next_id);
  if (!type) return std::unexpected(std::move(type.error().AddContext(field.name)));
  return NestedField{.id = id, .name = field.name, .type = *type, .required = !field.nullable};
}

}  // namespace

Result<TypePtr> FromBatchType(const DataType& type, int32_t* next_id) {
  switch (type.kind()) {
    case TypeKind::kBool:
      return types::Boolean();
    case TypeKind::kInt32:
      return types::Int();
    case TypeKind::kInt64:
      return types::Long();
    case TypeKind::kFloat32:
      return types::Float();
    case TypeKind::kFloat64:
      return types::Double();
    case TypeKind::kDecimal128:
      return types::Decimal(type.precision(), type.scale());
    case TypeKind::kDate32:
      return types::Date();
    case TypeKind::kTime64:
      if (type.unit() == TimeUnit::kMicro) return types::Time();
      break;
    case TypeKind::kTimestamp:
      if (type.unit() == TimeUnit::kMicro) {
        return type.utc() ? types::TimestampTz() : types::Timestamp();
      }
      return type.utc() ? types::TimestampTzNs() : types::TimestampNs();
    case TypeKind::kString:
      return types::String();
    case TypeKind::kBinary:
      return types::Binary();
    case TypeKind::kFixedSizeBinary:
      return types::Fixed(type.byte_width());
    case TypeKind::kStruct: {
      std::vector<NestedField> fields;
      for (const Field& child : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(NestedField field, FromBatchField(child, next_id));
        fields.push_back(std::move(field));
      }
      return StructType::Make(std::move(fields));
    }
    case TypeKind::kList: {
      FLOE_ASSIGN_OR_RETURN(NestedField element, FromBatchField(type.field(0), next_id));
      return ListType::Make(element.id, element.type, element.required);
    }
    case TypeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(NestedField key, FromBatchField(type.key_field(), next_id));
      FLOE_ASSIGN_OR_RETURN(NestedField value, FromBatchField(type.item_field(), next_id));
      return MapType::Make(key.id, key.type, value.id, value.type, value.required);
    }
    default:
      break;
  }
  return Unsupported("batch type {} has no Iceberg type of the same layout", type.ToString());
}

Result<SchemaPtr> SchemaFromBatchFields(const std::vector<Field>& fields) {
  int32_t next_id = 1;
  std::vector<NestedField> columns;
  for (const Field& field : fields) {
    FLOE_ASSIGN_OR_RETURN(NestedField column, FromBatchField(field, &next_id));
    columns.push_back(std::move(column));
  }
  return Schema::Make(std::move(columns));
}

Value LiteralToValue(const Literal& literal) {
  if (literal.is_null()) return Value();
  switch (literal.type_id()) {
    case TypeId::kBoolean:
      return Value(literal.bool_value());
    case TypeId::kInt:
      return Value(int64_t{literal.int_value()});
    case TypeId::kDate:
      return Value(DateValue{literal.int_value()});
    case TypeId::kLong:
      return Value(literal.long_value());
    case TypeId::kTime:
      return Value(TimeValue{literal.long_value(), TimeUnit::kMicro});
    case TypeId::kTimestamp:
      return Value(TimestampValue{literal.long_value(), TimeUnit::kMicro, false});
    case TypeId::kTimestampTz:
      return Value(TimestampValue{literal.long_value(), TimeUnit::kMicro, true});
    case TypeId::kTimestampNs:
      return Value(TimestampValue{literal.long_value(), TimeUnit::kNano, false});
    case TypeId::kTimestampTzNs:
      return Value(TimestampValue{literal.long_value(), TimeUnit::kNano, true});
    case TypeId::kFloat:
      return Value(literal.float_value());
    case TypeId::kDouble:
      return Value(literal.double_value());
    case TypeId::kDecimal: {
      const auto& p = static_cast<const PrimitiveType&>(*literal.type());
      return Value(DecimalValue{literal.decimal_value(), p.precision(), p.scale()});
    }
    case TypeId::kString:
      return Value(literal.bytes_value());
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Value(BinaryValue{literal.bytes_value()});
    default:
      return Value();
  }
}

}  // namespace floe::table
