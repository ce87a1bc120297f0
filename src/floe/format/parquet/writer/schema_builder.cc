// The batch-to-Parquet schema mapping of the Iceberg spec's Parquet appendix.

#include <algorithm>

#include "floe/format/parquet/writer/parquet_writer.h"

namespace floe::parquet {
namespace {

// The fewest bytes whose two's complement holds every unscaled value of this precision.
int32_t DecimalBytes(int32_t precision) {
  // 2^(8 * bytes - 1) must exceed 10^precision - 1, the largest unscaled magnitude.
  unsigned __int128 max_unscaled = 1;
  for (int i = 0; i < precision; ++i) max_unscaled *= 10;
  int32_t bytes = 1;
  while (bytes < 16 && (static_cast<unsigned __int128>(1) << (8 * bytes - 1)) < max_unscaled) {
    ++bytes;
  }
  return bytes;
}

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType type;
  type.kind = kind;
  return type;
}

Status AddField(const Field& field, const WriterOptions& options, std::vector<SchemaElement>& out);

Status AddNested(const Field& field, const WriterOptions& options, SchemaElement group,
                 std::vector<SchemaElement>& out) {
  const DataType& type = *field.type;
  if (type.kind() == TypeKind::kStruct) {
    int children = 0;
    for (const Field& child : type.fields()) children += child.type->kind() != TypeKind::kNull;
    if (children == 0) {
      return InvalidArgument("field {}: Parquet has no empty groups", field.name);
    }
    group.num_children = children;
    out.push_back(std::move(group));
    for (const Field& child : type.fields()) FLOE_RETURN_IF_ERROR(AddField(child, options, out));
    return {};
  }
  bool is_map = type.kind() == TypeKind::kMap;
  group.num_children = 1;
  group.logical_type = Logical(is_map ? LogicalType::Kind::kMap : LogicalType::Kind::kList);
  group.converted_type = is_map ? ConvertedType::kMap : ConvertedType::kList;
  out.push_back(std::move(group));
  SchemaElement repeated;
  repeated.repetition_type = Repetition::kRepeated;
  if (is_map) {
    repeated.name = "key_value";
    repeated.num_children = 2;
    out.push_back(std::move(repeated));
    Field key = type.key_field();
    key.name = "key";
    Field value = type.item_field();
    value.name = "value";
    FLOE_RETURN_IF_ERROR(AddField(key, options, out));
    return AddField(value, options, out);
  }
  repeated.name = "list";
  repeated.num_children = 1;
  out.push_back(std::move(repeated));
  Field element = type.field(0);
  element.name = "element";
  return AddField(element, options, out);
}

Status AddField(const Field& field, const WriterOptions& options, std::vector<SchemaElement>& out) {
  const DataType& type = *field.type;
  if (type.kind() == TypeKind::kNull) return {};
  SchemaElement e;
  e.name = field.name;
  e.field_id = field.field_id;
  e.repetition_type = field.nullable ? Repetition::kOptional : Repetition::kRequired;
  if (type.is_nested()) return AddNested(field, options, std::move(e), out);
  auto integer = [&](int8_t bits, bool is_signed) {
    LogicalType t = Logical(LogicalType::Kind::kInteger);
    t.bit_width = bits;
    t.is_signed = is_signed;
    e.logical_type = t;
  };
  switch (type.kind()) {
    case TypeKind::kBool:
      e.type = PhysicalType::kBoolean;
      break;
    case TypeKind::kInt8:
      e.type = PhysicalType::kInt32;
      integer(8, true);
      e.converted_type = ConvertedType::kInt8;
      break;
    case TypeKind::kInt16:
      e.type = PhysicalType::kInt32;
      integer(16, true);
      e.converted_type = ConvertedType::kInt16;
      break;
    case TypeKind::kInt32:
      e.type = PhysicalType::kInt32;
      break;
    case TypeKind::kInt64:
      e.type = PhysicalType::kInt64;
      break;
    case TypeKind::kUInt8:
      e.type = PhysicalType::kInt32;
      integer(8, false);
      e.converted_type = ConvertedType::kUint8;
      break;
    case TypeKind::kUInt16:
      e.type = PhysicalType::kInt32;
      integer(16, false);
      e.converted_type = ConvertedType::kUint16;
      break;
    case TypeKind::kUInt32:
      e.type = PhysicalType::kInt32;
      integer(32, false);
      e.converted_type = ConvertedType::kUint32;
      break;
    case TypeKind::kUInt64:
      e.type = PhysicalType::kInt64;
      integer(64, false);
      e.converted_type = ConvertedType::kUint64;
      break;
    case TypeKind::kFloat16:
      e.type = PhysicalType::kFixedLenByteArray;
      e.type_length = 2;
      e.logical_type = Logical(LogicalType::Kind::kFloat16);
      break;
    case TypeKind::kFloat32:
      e.type = PhysicalType::kFloat;
      break;
    case TypeKind::kFloat64:
      e.type = PhysicalType::kDouble;
      break;
    case TypeKind::kDecimal128: {
      if (type.precision() < 1 || type.precision() > 38 || type.scale() < 0 ||
          type.scale() > type.precision()) {
        return InvalidArgument("field {}: {} has no Parquet form", field.name, type.ToString());
      }
      if (type.precision() <= 9) {
        e.type = PhysicalType::kInt32;
      } else if (type.precision() <= 18) {
        e.type = PhysicalType::kInt64;
      } else {
        e.type = PhysicalType::kFixedLenByteArray;
        e.type_length = DecimalBytes(type.precision());
      }
      LogicalType t = Logical(LogicalType::Kind::kDecimal);
      t.precision = type.precision();
      t.scale = type.scale();
      e.logical_type = t;
      e.converted_type = ConvertedType::kDecimal;
      e.precision = type.precision();
      e.scale = type.scale();
      break;
    }
    case TypeKind::kDate32:
      e.type = PhysicalType::kInt32;
      e.logical_type = Logical(LogicalType::Kind::kDate);
      e.converted_type = ConvertedType::kDate;
      break;
    case TypeKind::kTime64:
    case TypeKind::kTimestamp: {
      bool micros = type.unit() == floe::TimeUnit::kMicro;
      bool is_time = type.kind() == TypeKind::kTime64;
      e.type = PhysicalType::kInt64;
      LogicalType t = Logical(is_time ? LogicalType::Kind::kTime : LogicalType::Kind::kTimestamp);
      t.unit = micros ? parquet::TimeUnit::kMicros : parquet::TimeUnit::kNanos;
      t.is_adjusted_to_utc = !is_time && type.utc();
      e.logical_type = t;
      if (micros) {
        e.converted_type = is_time ? ConvertedType::kTimeMicros : ConvertedType::kTimestampMicros;
      }
      break;
    }
    case TypeKind::kString:
    case TypeKind::kLargeString:
      e.type = PhysicalType::kByteArray;
      e.logical_type = Logical(LogicalType::Kind::kString);
      e.converted_type = ConvertedType::kUtf8;
      break;
    case TypeKind::kBinary:
    case TypeKind::kLargeBinary:
      e.type = PhysicalType::kByteArray;
      break;
    case TypeKind::kFixedSizeBinary:
      e.type = PhysicalType::kFixedLenByteArray;
      e.type_length = type.byte_width();
      if (field.field_id && type.byte_width() == 16 &&
          std::ranges::find(options.uuid_field_ids, *field.field_id) !=
              options.uuid_field_ids.end()) {
        e.logical_type = Logical(LogicalType::Kind::kUuid);
      }
      break;
    default:
      return InvalidArgument("field {}: type {} cannot be written to Parquet", field.name,
                             type.ToString());
  }
  out.push_back(std::move(e));
  return {};
}

}  // namespace

Result<std::vector<SchemaElement>> MakeParquetSchema(const BatchSchema& schema,
                                                     const WriterOptions& options) {
  std::vector<SchemaElement> out(1);
  out[0].name = "schema";
  for (const Field& field : schema.fields()) FLOE_RETURN_IF_ERROR(AddField(field, options, out));
  out[0].num_children = 0;
  for (const Field& field : schema.fields()) {
    *out[0].num_children += field.type->kind() != TypeKind::kNull;
  }
  return out;
}

}  // namespace floe::parquet
