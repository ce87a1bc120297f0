#pragma once

// The physical and logical types of columnar data, independent of Iceberg: what decoders produce,
// operators see and writers consume. The set and layout follow Arrow so that a batch can be handed
// to any Arrow consumer through the C Data Interface (arrow_c.h). Types are immutable and shared as
// DataTypePtr; compare them with Equals (or ==), never by pointer.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace floe {

enum class TypeKind : unsigned char {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,  // IEEE half precision, stored as its 16 bits
  kFloat32,
  kFloat64,
  kDecimal128,   // 16-byte little-endian two's complement unscaled value
  kDate32,       // days since 1970-01-01
  kTime64,       // since midnight, in unit()
  kTimestamp,    // since 1970-01-01T00:00:00, in unit(); utc() tells whether it is an instant
  kBinary,       // int32 offsets + bytes
  kString,       // int32 offsets + UTF-8 bytes
  kLargeBinary,  // int64 offsets + bytes
  kLargeString,  // int64 offsets + UTF-8 bytes
  kFixedSizeBinary,
  kList,    // int32 offsets + one child (the element field)
  kStruct,  // one child per field
  kMap,     // a list of non-null structs <key, value>
};

enum class TimeUnit : unsigned char { kMicro, kNano };

class DataType;
using DataTypePtr = std::shared_ptr<const DataType>;

// A named, typed column or nested member. field_id carries the Iceberg/Parquet field id when known.
struct Field {
  std::string name;
  DataTypePtr type;
  bool nullable = true;
  std::optional<int32_t> field_id;

  bool Equals(const Field& other) const;
  friend bool operator==(const Field& a, const Field& b) { return a.Equals(b); }
  // "name: type" with " not null" and " id=N" when they apply.
  std::string ToString() const;
};

class DataType {
 public:
  // Factories. Parameterless types return shared singletons.
  static DataTypePtr Null();
  static DataTypePtr Bool();
  static DataTypePtr Int8();
  static DataTypePtr Int16();
  static DataTypePtr Int32();
  static DataTypePtr Int64();
  static DataTypePtr UInt8();
  static DataTypePtr UInt16();
  static DataTypePtr UInt32();
  static DataTypePtr UInt64();
  static DataTypePtr Float16();
  static DataTypePtr Float32();
  static DataTypePtr Float64();
  // Precision 1..38; scale may be negative or exceed precision as in Arrow, callers validate
  // further.
  static DataTypePtr Decimal128(int32_t precision, int32_t scale);
  static DataTypePtr Date32();
  // `precision` is the SQL precision (fraction digits, 0..9) the type was declared with; without
  // one it is the unit's (6 for micros, 9 for nanos). Values keep the unit's resolution whatever
  // the precision, and Equals ignores it: it only says how many digits to show.
  static DataTypePtr Time64(TimeUnit unit, std::optional<int32_t> precision = std::nullopt);
  static DataTypePtr Timestamp(TimeUnit unit, bool utc,
                               std::optional<int32_t> precision = std::nullopt);
  static DataTypePtr Binary();
  static DataTypePtr String();
  static DataTypePtr LargeBinary();
  static DataTypePtr LargeString();
  static DataTypePtr FixedSizeBinary(int32_t byte_width);
  static DataTypePtr List(Field element);
  static DataTypePtr List(DataTypePtr element_type, bool element_nullable = true);
  static DataTypePtr Struct(std::vector<Field> fields);
  // The entries child is a non-null struct named "entries" with fields "key" (non-null) and
  // "value".
  static DataTypePtr Map(Field key, Field value, bool keys_sorted = false);
  static DataTypePtr Map(DataTypePtr key_type, DataTypePtr value_type, bool value_nullable = true);

  TypeKind kind() const { return kind_; }
  // Decimal128: digits. Time64, Timestamp: fraction digits as declared in SQL (see Timestamp).
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  // Time64, Timestamp.
  TimeUnit unit() const { return unit_; }
  // Timestamp: true when values are instants (UTC-adjusted), false for local date-times.
  bool utc() const { return utc_; }
  // FixedSizeBinary (and bytes per value of fixed-width types, 0 for others; bool reports 0).
  int32_t byte_width() const { return byte_width_; }
  bool keys_sorted() const { return keys_sorted_; }

  // List: the element; Struct: the fields; Map: one field "entries" of struct<key, value>.
  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(size_t i) const { return fields_[i]; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  // Map helpers.
  const Field& key_field() const { return fields_[0].type->fields_[0]; }
  const Field& item_field() const { return fields_[0].type->fields_[1]; }

  bool is_fixed_width() const;  // one value per byte_width() bytes in the values buffer
  bool is_binary_like() const;  // offsets + data
  bool is_large() const {
    return kind_ == TypeKind::kLargeBinary || kind_ == TypeKind::kLargeString;
  }
  bool is_nested() const {
    return kind_ == TypeKind::kList || kind_ == TypeKind::kStruct || kind_ == TypeKind::kMap;
  }

  bool Equals(const DataType& other) const;
  friend bool operator==(const DataType& a, const DataType& b) { return a.Equals(b); }
  // Arrow-like spelling: "int64", "decimal128(10, 2)", "timestamp[us, tz=UTC]", "list<item:
  // int32>".
  std::string ToString() const;

  // Use the factories; public only for make_shared.
  explicit DataType(TypeKind kind);

 private:
  TypeKind kind_;
  TimeUnit unit_ = TimeUnit::kMicro;
  bool utc_ = false;
  bool keys_sorted_ = false;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t byte_width_ = 0;
  std::vector<Field> fields_;
};

std::string_view TypeKindName(TypeKind kind);

}  // namespace floe
