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
