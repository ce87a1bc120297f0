#include "floe/batch/data_type.h"

#include <fmt/core.h>

namespace floe {
namespace {

int32_t FixedWidthOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kInt8:
    case TypeKind::kUInt8:
      return 1;
    case TypeKind::kInt16:
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      return 2;
    case TypeKind::kInt32:
    case TypeKind::kUInt32:
    case TypeKind::kFloat32:
    case TypeKind::kDate32:
      return 4;
    case TypeKind::kInt64:
    case TypeKind::kUInt64:
    case TypeKind::kFloat64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      return 8;
    case TypeKind::kDecimal128:
      return 16;
    default:
      return 0;
  }
}

std::string_view UnitName(TimeUnit unit) { return unit == TimeUnit::kMicro ? "us" : "ns"; }

}  // namespace

DataType::DataType(TypeKind kind) : kind_(kind), byte_width_(FixedWidthOf(kind)) {}

#define FLOE_SINGLETON_TYPE(Name, Kind)                                          \
  DataTypePtr DataType::Name() {                                                 \
    static const DataTypePtr kType = std::make_shared<DataType>(TypeKind::Kind); \
    return kType;                                                                \
  }
FLOE_SINGLETON_TYPE(Null, kNull)
FLOE_SINGLETON_TYPE(Bool, kBool)
FLOE_SINGLETON_TYPE(Int8, kInt8)
FLOE_SINGLETON_TYPE(Int16, kInt16)
FLOE_SINGLETON_TYPE(Int32, kInt32)
FLOE_SINGLETON_TYPE(Int64, kInt64)
FLOE_SINGLETON_TYPE(UInt8, kUInt8)
FLOE_SINGLETON_TYPE(UInt16, kUInt16)
FLOE_SINGLETON_TYPE(UInt32, kUInt32)
FLOE_SINGLETON_TYPE(UInt64, kUInt64)
FLOE_SINGLETON_TYPE(Float16, kFloat16)
FLOE_SINGLETON_TYPE(Float32, kFloat32)
FLOE_SINGLETON_TYPE(Float64, kFloat64)
FLOE_SINGLETON_TYPE(Date32, kDate32)
FLOE_SINGLETON_TYPE(Binary, kBinary)
FLOE_SINGLETON_TYPE(String, kString)
FLOE_SINGLETON_TYPE(LargeBinary, kLargeBinary)
FLOE_SINGLETON_TYPE(LargeString, kLargeString)
#undef FLOE_SINGLETON_TYPE

DataTypePtr DataType::Decimal128(int32_t precision, int32_t scale) {
  auto type = std::make_shared<DataType>(TypeKind::kDecimal128);
  type->precision_ = precision;
  type->scale_ = scale;
  return type;
}

DataTypePtr DataType::Time64(TimeUnit unit, std::optional<int32_t> precision) {
  auto type = std::make_shared<DataType>(TypeKind::kTime64);
  type->unit_ = unit;
  type->precision_ = precision.value_or(unit == TimeUnit::kNano ? 9 : 6);
  return type;
}

DataTypePtr DataType::Timestamp(TimeUnit unit, bool utc, std::optional<int32_t> precision) {
  auto type = std::make_shared<DataType>(TypeKind::kTimestamp);
  type->unit_ = unit;
  type->utc_ = utc;
  type->precision_ = precision.value_or(unit == TimeUnit::kNano ? 9 : 6);
  return type;
}

DataTypePtr DataType::FixedSizeBinary(int32_t byte_width) {
  auto type = std::make_shared<DataType>(TypeKind::kFixedSizeBinary);
  type->byte_width_ = byte_width;
  return type;
}

DataTypePtr DataType::List(Field element) {
  auto type = std::make_shared<DataType>(TypeKind::kList);
  type->fields_.push_back(std::move(element));
  return type;
}

DataTypePtr DataType::List(DataTypePtr element_type, bool element_nullable) {
  return List(Field{"element", std::move(element_type), element_nullable, std::nullopt});
}

DataTypePtr DataType::Struct(std::vector<Field> fields) {
  auto type = std::make_shared<DataType>(TypeKind::kStruct);
  type->fields_ = std::move(fields);
  return type;
}

DataTypePtr DataType::Map(Field key, Field value, bool keys_sorted) {
  key.nullable = false;
  auto type = std::make_shared<DataType>(TypeKind::kMap);
  type->keys_sorted_ = keys_sorted;
  type->fields_.push_back(
      Field{"entries", Struct({std::move(key), std::move(value)}), false, std::nullopt});
  return type;
}

DataTypePtr DataType::Map(DataTypePtr key_type, DataTypePtr value_type, bool value_nullable) {
  return Map(Field{"key", std::move(key_type), false, std::nullopt},
             Field{"value", std::move(value_type), value_nullable, std::nullopt});
}

bool DataType::is_fixed_width() const { return byte_width_ > 0; }

bool DataType::is_binary_like() const {
  return kind_ == TypeKind::kBinary || kind_ == TypeKind::kString ||
         kind_ == TypeKind::kLargeBinary || kind_ == TypeKind::kLargeString;
}

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case TypeKind::kDecimal128:
      return precision_ == other.precision_ && scale_ == other.scale_;
    case TypeKind::kTime64:
      return unit_ == other.unit_;
    case TypeKind::kTimestamp:
      return unit_ == other.unit_ && utc_ == other.utc_;
    case TypeKind::kFixedSizeBinary:
      return byte_width_ == other.byte_width_;
    case TypeKind::kMap:
      if (keys_sorted_ != other.keys_sorted_) return false;
      [[fallthrough]];
    case TypeKind::kList:
    case TypeKind::kStruct:
      return fields_ == other.fields_;
    default:
      return true;
  }
}

std::string DataType::ToString() const {
  switch (kind_) {
    case TypeKind::kDecimal128:
      return fmt::format("decimal128({}, {})", precision_, scale_);
    case TypeKind::kTime64:
      return fmt::format("time64[{}]", UnitName(unit_));
    case TypeKind::kTimestamp:
      return utc_ ? fmt::format("timestamp[{}, tz=UTC]", UnitName(unit_))
                  : fmt::format("timestamp[{}]", UnitName(unit_));
    case TypeKind::kFixedSizeBinary:
      return fmt::format("fixed_size_binary[{}]", byte_width_);
    case TypeKind::kList:
      return fmt::format("list<{}>", fields_[0].ToString());
    case TypeKind::kMap:
      return fmt::format("map<{}, {}>", key_field().type->ToString(),
                         item_field().type->ToString());
    case TypeKind::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i > 0) out += ", ";
        out += fields_[i].ToString();
      }
      out += ">";
      return out;
    }
    default:
      return std::string(TypeKindName(kind_));
  }
}

bool Field::Equals(const Field& other) const {
  if (name != other.name || nullable != other.nullable || field_id != other.field_id) return false;
  if (type == other.type) return true;
  return type && other.type && type->Equals(*other.type);
}

std::string Field::ToString() const {
  std::string out = fmt::format("{}: {}", name, type ? type->ToString() : "?");
  if (!nullable) out += " not null";
  if (field_id) out += fmt::format(" id={}", *field_id);
  return out;
}

std::string_view TypeKindName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kNull:
      return "null";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt8:
      return "int8";
    case TypeKind::kInt16:
      return "int16";
    case TypeKind::kInt32:
      return "int32";
    case TypeKind::kInt64:
      return "int64";
    case TypeKind::kUInt8:
      return "uint8";
    case TypeKind::kUInt16:
      return "uint16";
    case TypeKind::kUInt32:
      return "uint32";
    case TypeKind::kUInt64:
      return "uint64";
    case TypeKind::kFloat16:
      return "halffloat";
    case TypeKind::kFloat32:
      return "float";
    case TypeKind::kFloat64:
      return "double";
    case TypeKind::kDecimal128:
      return "decimal128";
    case TypeKind::kDate32:
      return "date32";
    case TypeKind::kTime64:
      return "time64";
    case TypeKind::kTimestamp:
      return "timestamp";
    case TypeKind::kBinary:
      return "binary";
    case TypeKind::kString:
      return "string";
    case TypeKind::kLargeBinary:
      return "large_binary";
    case TypeKind::kLargeString:
      return "large_string";
    case TypeKind::kFixedSizeBinary:
      return "fixed_size_binary";
    case TypeKind::kList:
      return "list";
    case TypeKind::kStruct:
      return "struct";
    case TypeKind::kMap:
      return "map";
  }
  return "unknown";
}

}  // namespace floe
