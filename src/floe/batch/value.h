#pragma once

// One cell as a self-describing value, and rows of a batch as JSON lines. This is the slow, generic
// path for tests, debugging and CLI output; hot loops use the typed Array accessors instead.
//
// JSON lines follow floe's CLI convention: 64-bit integers exact, decimals as strings ("14.20", or
// "2E+20" for a negative scale), dates "2017-11-16", times "22:31:08.123456" (nanosecond units:
// nine digits), timestamps "2017-11-16T22:31:08.123456" with "+00:00" when UTC-adjusted, binary and
// fixed as lowercase hex, lists as arrays, structs as objects by field name, maps as arrays of
// {"key":..,"value":..}, NaN and infinities as the strings "NaN", "Infinity", "-Infinity".

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/batch/record_batch.h"

namespace floe {

class Array;
class ArrayBuilder;
class Value;

struct DecimalValue {
  __int128 unscaled = 0;
  int32_t precision = 0;
  int32_t scale = 0;
  friend bool operator==(const DecimalValue&, const DecimalValue&) = default;
};
struct DateValue {
  int32_t days = 0;  // since 1970-01-01
  friend bool operator==(const DateValue&, const DateValue&) = default;
};
struct TimeValue {
  int64_t value = 0;  // since midnight
  TimeUnit unit = TimeUnit::kMicro;
  friend bool operator==(const TimeValue&, const TimeValue&) = default;
};
struct TimestampValue {
  int64_t value = 0;  // since the epoch
  TimeUnit unit = TimeUnit::kMicro;
  bool utc = false;
  friend bool operator==(const TimestampValue&, const TimestampValue&) = default;
};
// Binary and fixed-size binary bytes (strings are std::string).
struct BinaryValue {
  std::string bytes;
  friend bool operator==(const BinaryValue&, const BinaryValue&) = default;
};
struct ListValue {
  std::vector<Value> elements;
};
struct StructValue {
  std::vector<std::pair<std::string, Value>> fields;
};
struct MapValue {
  std::vector<std::pair<Value, Value>> entries;
};

class Value {
 public:
  // Signed integers of any width are int64_t, unsigned uint64_t, float16 widens to float.
  using Variant = std::variant<std::monostate, bool, int64_t, uint64_t, float, double, DecimalValue,
                               DateValue, TimeValue, TimestampValue, std::string, BinaryValue,
                               ListValue, StructValue, MapValue>;

  Value() = default;  // null
  template <typename T>
  requires std::is_constructible_v<Variant, T&&> &&
      (!std::is_same_v<std::decay_t<T>, Value>)Value(T&& value)
      : value_(std::forward<T>(value)) {}
  Value(int32_t value) : value_(int64_t{value}) {}
  Value(const char* value) : value_(std::string(value)) {}

  bool is_null() const { return value_.index() == 0; }
  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(value_);
  }
  template <typename T>
  const T& get() const {
    return std::get<T>(value_);
  }
  const Variant& variant() const { return value_; }

  // The value as JSON (see the file comment).
  std::string ToJson() const;

  friend bool operator==(const Value& a, const Value& b);

 private:
  Variant value_;
};

bool operator==(const ListValue& a, const ListValue& b);
bool operator==(const StructValue& a, const StructValue& b);
bool operator==(const MapValue& a, const MapValue& b);

// Row i of an array as a Value (i < length(); unchecked).
Value GetValue(const Array& array, int64_t i);
// Appends row i of an array as JSON, without building a Value.
void AppendJson(const Array& array, int64_t i, std::string& out);
void AppendJson(const Value& value, std::string& out);
// As above, for a value of `type`: times and timestamps show its precision() in fraction digits
// (digits past it only where not zero), as a column declared TIMESTAMP(3) shows them.
void AppendJson(const Value& value, const DataType& type, std::string& out);
// Walking a value and its type together: the type of member i of `type` when it is of `kind`
// (list: 0, struct: field i, map: 0 is the entry struct), else nullptr; and the fraction digits a
// time or timestamp of `type` shows when it is of `kind`, else 9 (all there are).
const DataType* MemberType(const DataType* type, TypeKind kind, int i);
int ShownPrecision(const DataType* type, TypeKind kind);

// Appends a Value to a builder of any type, converting integers and floats where the value fits
// (range-checked) and matching struct fields by position. Fails on a kind mismatch (an int into a
// string column, a decimal of another scale, a timestamp of another unit...), after which the
// builder may hold a partial nested row: discard it. For tests, literals and small inputs;
// decoders use the typed builders.
Status AppendValue(ArrayBuilder& builder, const Value& value);
// An array of the given type from values.
Result<Array> MakeArray(const DataTypePtr& type, std::span<const Value> values);

// True when both arrays have equal types and rows (by Value: NaN never equals NaN).
bool ArraysEqual(const Array& a, const Array& b);

// True when both batches have equal schemas, rows and row kinds.
bool BatchesEqual(const RecordBatch& a, const RecordBatch& b);

// One row of a batch, by column.
class RowView {
 public:
  RowView(const RecordBatch& batch, int64_t row) : batch_(&batch), row_(row) {}
  int num_columns() const { return batch_->num_columns(); }
  RowKind kind() const { return batch_->row_kind(row_); }
  Value Get(int column) const;
  // The named column's value; null when there is no such column.
  Value Get(std::string_view name) const;
  std::vector<Value> Values() const;
  // {"name":value,...} in column order, without a newline.
  std::string ToJson() const;

 private:
  const RecordBatch* batch_;
  int64_t row_;
};

// Appends every row of the batch as a JSON line ("{...}\n").
void AppendJsonLines(const RecordBatch& batch, std::string& out);

// Half-precision bits to float.
float HalfToFloat(uint16_t bits);

}  // namespace floe
