#include "floe/spec/human_string.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>

#include "floe/spec/literal.h"
#include "floe/util/calendar.h"
#include "floe/util/uuid.h"

namespace floe {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;

std::string IsoYear(int64_t year) {
  std::string out;
  AppendIsoYear(out, year);
  return out;
}

// java.time's ISO_LOCAL_DATE_TIME: seconds always, the fraction only when non-zero and without
// trailing zeros.
std::string IsoLocalDateTime(int64_t seconds, int64_t nanos_of_second) {
  const CivilDate date = CivilFromDays(FloorDiv(seconds, kSecondsPerDay));
  const int64_t second_of_day = FloorMod(seconds, kSecondsPerDay);
  std::string out =
      fmt::format("{}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}", IsoYear(date.year), date.month, date.day,
                  second_of_day / 3600, second_of_day / 60 % 60, second_of_day % 60);
  if (nanos_of_second != 0) {
    std::string fraction = fmt::format("{:09d}", nanos_of_second);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += '.';
    out += fraction;
  }
  return out;
}

std::string TimestampMicros(int64_t micros) {
  return IsoLocalDateTime(FloorDiv(micros, kMicrosPerSecond),
                          FloorMod(micros, kMicrosPerSecond) * 1000);
}

std::string TimestampNanos(int64_t nanos) {
  return IsoLocalDateTime(FloorDiv(nanos, kNanosPerSecond), FloorMod(nanos, kNanosPerSecond));
}

// java.time.LocalTime.toString: seconds only when non-zero, the fraction in groups of three digits.
std::string LocalTime(int64_t micros) {
  if (micros < 0 || micros >= kSecondsPerDay * kMicrosPerSecond) return fmt::format("{}", micros);
  const int64_t seconds = micros / kMicrosPerSecond;
  const int64_t nanos = micros % kMicrosPerSecond * 1000;
  std::string out = fmt::format("{:02d}:{:02d}", seconds / 3600, seconds / 60 % 60);
  if (seconds % 60 == 0 && nanos == 0) return out;
  out += fmt::format(":{:02d}", seconds % 60);
  if (nanos == 0) return out;
  if (nanos % 1'000'000 == 0) return out + fmt::format(".{:03d}", nanos / 1'000'000);
  if (nanos % 1'000 == 0) return out + fmt::format(".{:06d}", nanos / 1'000);
  return out + fmt::format(".{:09d}", nanos);
}

std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (bytes.size() - i == 1) {
    const uint32_t n = byte(i) << 16;
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += "==";
  } else if (bytes.size() - i == 2) {
    const uint32_t n = byte(i) << 16 | byte(i + 1) << 8;
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string Uuid(std::string_view bytes) {
  return bytes.size() == 16 ? UuidToString(bytes) : Base64(bytes);
}

std::string UnsignedDigits(unsigned __int128 v) {
  if (v == 0) return "0";
  std::string digits;
  while (v != 0) {
    digits += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return {digits.rbegin(), digits.rend()};
}

// java.math.BigDecimal.toString: plain unless the scale is negative or the adjusted exponent is
// below -6, then scientific ("1.23E-7", "0E-11", "1.2E+3").
std::string JavaBigDecimal(__int128 unscaled, int scale) {
  const bool negative = unscaled < 0;
  const auto magnitude = negative ? -static_cast<unsigned __int128>(unscaled)
                                  : static_cast<unsigned __int128>(unscaled);
  const std::string digits = UnsignedDigits(magnitude);
  const int64_t length = static_cast<int64_t>(digits.size());
  const int64_t adjusted = -static_cast<int64_t>(scale) + (length - 1);
  std::string out = negative ? "-" : "";
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) return out + digits;
    if (length > scale) {
      return fmt::format("{}{}.{}", out, digits.substr(0, length - scale),
                         digits.substr(length - scale));
    }
    return fmt::format("{}0.{}{}", out, std::string(scale - length, '0'), digits);
  }
  out += digits[0];
  if (length > 1) out += fmt::format(".{}", digits.substr(1));
  out += adjusted > 0 ? fmt::format("E+{}", adjusted) : fmt::format("E{}", adjusted);
  return out;
}

// Double.toString / Float.toString: the shortest digits that read back as the same value, plain
// for magnitudes in [1e-3, 1e7), else "d.dddE<exp>"; always a digit after the point.
template <typename Float>
std::string JavaFloatingPoint(Float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), v, std::chars_format::scientific);
  const std::string_view text(buffer, result.ptr - buffer);
  // text is "[-]d[.ddd]e[+-]xx".
  const size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  std::string out;
  if (mantissa.front() == '-') {
    out += '-';
    mantissa.remove_prefix(1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  if (exponent >= -3 && exponent < 7) {
    if (exponent >= 0) {
      const size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= int_digits) {
        out += fmt::format("{}{}.0", digits, std::string(int_digits - digits.size(), '0'));
      } else {
        out += fmt::format("{}.{}", digits.substr(0, int_digits), digits.substr(int_digits));
      }
    } else {
      out += fmt::format("0.{}{}", std::string(static_cast<size_t>(-exponent - 1), '0'), digits);
    }
    return out;
  }
  out += digits[0];
  out += '.';
  out += digits.size() > 1 ? digits.substr(1) : "0";
  out += fmt::format("E{}", exponent);
  return out;
}

}  // namespace

std::string HumanYear(int32_t years) { return fmt::format("{:04d}", 1970 + int64_t{years}); }

std::string HumanMonth(int32_t months) {
  return fmt::format("{:04d}-{:02d}", 1970 + FloorDiv(months, 12), 1 + FloorMod(months, 12));
}

std::string HumanDay(int32_t days) {
  const CivilDate date = CivilFromDays(days);
  return fmt::format("{:04d}-{:02d}-{:02d}", date.year, date.month, date.day);
}

std::string HumanHour(int32_t hours) {
  const CivilDate date = CivilFromDays(FloorDiv(hours, 24));
  return fmt::format("{:04d}-{:02d}-{:02d}-{:02d}", date.year, date.month, date.day,
                     FloorMod(hours, 24));
}

std::string HumanString(const Literal& value) {
  if (value.is_null()) return "null";
  switch (value.type_id()) {
    case TypeId::kBoolean:
      return value.bool_value() ? "true" : "false";
    case TypeId::kInt:
      return fmt::format("{}", value.int_value());
    case TypeId::kLong:
      return fmt::format("{}", value.long_value());
    case TypeId::kFloat:
      return JavaFloatingPoint(value.float_value());
    case TypeId::kDouble:
      return JavaFloatingPoint(value.double_value());
    case TypeId::kDecimal:
      return JavaBigDecimal(value.decimal_value(),
                            static_cast<const PrimitiveType&>(*value.type()).scale());
    case TypeId::kDate:
      return HumanDay(value.int_value());
    case TypeId::kTime:
      return LocalTime(value.long_value());
    case TypeId::kTimestamp:
      return TimestampMicros(value.long_value());
    case TypeId::kTimestampTz:
      return TimestampMicros(value.long_value()) + "+00:00";
    case TypeId::kTimestampNs:
      return TimestampNanos(value.long_value());
    case TypeId::kTimestampTzNs:
      return TimestampNanos(value.long_value()) + "+00:00";
    case TypeId::kString:
      return value.bytes_value();
    case TypeId::kUuid:
      return Uuid(value.bytes_value());
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Base64(value.bytes_value());
    default:
      return value.ToString();
  }
}

}  // namespace floe
