#pragma once

// One typed value of a primitive Iceberg type: partition values, column bounds, field defaults and
// filter constants. Values use the spec's physical representations: date = days since 1970-01-01,
// time = microseconds since midnight, timestamp(tz) = microseconds since the epoch,
// timestamp(tz)_ns = nanoseconds, decimal = unscaled 128-bit integer (the scale is in the type),
// uuid = its 16 bytes, string/binary/fixed = bytes.
//
// Serialization follows the spec's two single-value forms (Appendix D): binary, used for bounds in
// manifests, and JSON, used for field defaults and partition values in JSON. Decoding errors are
// kInvalidArgument and say what was expected; types without a form are kUnsupported.

#include <cmath>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "floe/spec/type.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

using int128_t = __int128;

// Iceberg's order of floating-point values: -0 below +0 (IEEE totalOrder, which strong_order
// gives), NaN above every other value and equal only to itself. Inline: vectorised filters call
// it per value.
inline std::partial_ordering CompareFloating(double a, double b) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) {
    if (a_nan && b_nan) return std::partial_ordering::equivalent;
    return a_nan ? std::partial_ordering::greater : std::partial_ordering::less;
  }
  return std::strong_order(a, b);
}

class Literal {
 public:
  static Literal Null(TypePtr type);
  static Literal Boolean(bool v);
  static Literal Int(int32_t v);
  static Literal Long(int64_t v);
  static Literal Float(float v);
  static Literal Double(double v);
  static Literal Date(int32_t days);
  static Literal Time(int64_t micros);
  static Literal Timestamp(int64_t micros);
  static Literal TimestampTz(int64_t micros);
  static Literal TimestampNs(int64_t nanos);
  static Literal TimestampTzNs(int64_t nanos);
  static Literal String(std::string v);
  static Literal Uuid(std::string bytes16);
  static Literal Fixed(std::string bytes);
  static Literal Binary(std::string bytes);
  static Literal Decimal(int128_t unscaled, int precision, int scale);
  // A geometry or geography value (type says which) as WKB bytes.
  static Literal Geometry(TypePtr type, std::string wkb);

  const TypePtr& type() const { return type_; }
  TypeId type_id() const { return type_->id(); }
  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }

  // Accessors by physical representation; call the one matching the type.
  bool bool_value() const { return std::get<bool>(value_); }
  int32_t int_value() const { return std::get<int32_t>(value_); }   // int, date
  int64_t long_value() const { return std::get<int64_t>(value_); }  // long, time, timestamps
  float float_value() const { return std::get<float>(value_); }
  double double_value() const { return std::get<double>(value_); }
  const std::string& bytes_value() const {
    return std::get<std::string>(value_);
  }  // string, uuid, fixed, binary
  int128_t decimal_value() const { return std::get<int128_t>(value_); }

  // Human-readable, as the CLI prints it: ISO-8601 dates and times, canonical UUIDs, hex binary,
  // decimals with their scale ("12.30").
  std::string ToString() const;

  // Appendix D binary single-value serialization. FromBinary also reads bounds written before a
  // type promotion (spec "Schema Evolution"): 4 bytes for a long (int), a double (float), or a
  // timestamp/timestamp_ns (a date, converted to the start of that day); 1 to 16 bytes for any
  // decimal. Wrong lengths are errors; unknown, variant and nested types are kUnsupported.
  Result<std::string> ToBinary() const;
  static Result<Literal> FromBinary(TypePtr type, std::string_view bytes);

  // JSON single-value serialization (spec Appendix D, "JSON single-value serialization"). Writes
  // 6 fraction digits for micros and 9 for nanos, timestamptz with "+00:00", lowercase hex and
  // UUIDs, decimals in plain notation (or "<digits>E+<n>" for a negative scale). Reads fractions of
  // 0 to 6 (9) digits, any zone offset or "Z" for timestamptz (converted to UTC), either hex case,
  // and decimals in plain or exponent notation whose scale must equal the type's. Null <-> JSON
  // null. Geometry/geography (WKT), nested, unknown and variant values are kUnsupported.
  Result<Json> ToJson() const;
  static Result<Literal> FromJson(TypePtr type, const Json& json);

  // This value in a column promoted to `type` (spec "Schema Evolution"): int -> long, float ->
  // double, date -> timestamp or timestamp_ns (the start of that day), decimal to a wider
  // precision of the same scale; nulls stay null and the same type gives a copy. Other
  // conversions, and dates beyond timestamp_ns' range, are kInvalidArgument.
  Result<Literal> PromoteTo(const TypePtr& type) const;

  // Orders two values of the same type the way Iceberg orders them (signed integers, IEEE floats
  // with -0 < 0 and NaN last, unsigned lexicographic bytes); unordered for different types or
  // nulls.
  std::partial_ordering Compare(const Literal& other) const;
  friend bool operator==(const Literal& a, const Literal& b);

 private:
  using Value =
      std::variant<std::monostate, bool, int32_t, int64_t, float, double, std::string, int128_t>;
  Literal(TypePtr type, Value value) : type_(std::move(type)), value_(std::move(value)) {}

  TypePtr type_;
  Value value_;
};

}  // namespace floe
