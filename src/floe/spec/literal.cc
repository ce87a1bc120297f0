#include "floe/spec/literal.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <compare>
#include <cstring>
#include <limits>

#include "floe/spec/literal_text.h"
#include "floe/util/calendar.h"
#include "floe/util/hex.h"
#include "floe/util/uuid.h"

namespace floe {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;

std::string FormatDate(int64_t days) {
  std::string out;
  AppendIsoDate(out, days);
  return out;
}

std::string FormatTimeOfDay(int64_t units_of_day, int64_t units_per_second) {
  std::string out;
  AppendIsoTimeOfDay(out, units_of_day, units_per_second);
  return out;
}

std::string FormatTimestamp(int64_t value, int64_t units_per_second, bool utc) {
  std::string out;
  AppendIsoTimestamp(out, value, units_per_second, utc);
  return out;
}

// A cursor over text being parsed; every parse function reports what it expected.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}
  bool done() const { return pos_ == text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  // Exactly `count` digits.
  bool Digits(int count, int64_t* out) {
    int64_t value = 0;
    for (int i = 0; i < count; ++i) {
      if (done() || text_[pos_] < '0' || text_[pos_] > '9') return false;
      value = value * 10 + (text_[pos_++] - '0');
    }
    *out = value;
    return true;
  }
  // Between min and max digits; returns how many were read.
  int DigitRun(int max, int64_t* out) {
    int64_t value = 0;
    int n = 0;
    while (n < max && !done() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + (text_[pos_++] - '0');
      ++n;
    }
    *out = value;
    return n;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

Result<int64_t> ParseDateIn(Scanner& s, std::string_view text) {
  int sign = 1;
  int year_digits = 4;
  if (s.Consume('-')) {
    sign = -1;
  } else if (s.Consume('+')) {
    year_digits = 0;  // java.time writes years above 9999 with a sign and any number of digits
  }
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  if (year_digits == 4 && sign == 1) {
    if (!s.Digits(4, &year))
      return InvalidArgument("invalid date '{}': expected a 4-digit year", text);
  } else if (s.DigitRun(9, &year) < 4) {
    return InvalidArgument("invalid date '{}': expected a year of at least 4 digits", text);
  }
  year *= sign;
  if (!s.Consume('-') || !s.Digits(2, &month) || !s.Consume('-') || !s.Digits(2, &day)) {
    return InvalidArgument("invalid date '{}': expected YYYY-MM-DD", text);
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return InvalidArgument("invalid date '{}': no such day", text);
  }
  return DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
}

// HH:MM[:SS[.fraction]] in units of 10^-digits seconds; more fraction digits than `digits` are
// rejected rather than silently truncated.
Result<int64_t> ParseTimeIn(Scanner& s, std::string_view text, int digits) {
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t fraction = 0;
  if (!s.Digits(2, &hour) || !s.Consume(':') || !s.Digits(2, &minute)) {
    return InvalidArgument("invalid time '{}': expected HH:MM:SS", text);
  }
  if (s.Consume(':')) {
    if (!s.Digits(2, &second)) return InvalidArgument("invalid time '{}': expected seconds", text);
    if (s.Consume('.')) {
      int n = s.DigitRun(digits, &fraction);
      if (n == 0) return InvalidArgument("invalid time '{}': expected a fraction", text);
      if (s.peek() >= '0' && s.peek() <= '9') {
        return InvalidArgument("invalid time '{}': more than {} fraction digits", text, digits);
      }
      for (; n < digits; ++n) fraction *= 10;
    }
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return InvalidArgument("invalid time '{}': out of range", text);
  }
  int64_t units = 1;
  for (int i = 0; i < digits; ++i) units *= 10;
  return ((hour * 60 + minute) * 60 + second) * units + fraction;
}

}  // namespace

Result<int64_t> ParseDate(std::string_view text) {
  Scanner s(text);
  FLOE_ASSIGN_OR_RETURN(int64_t days, ParseDateIn(s, text));
  if (!s.done()) return InvalidArgument("invalid date '{}': unexpected trailing characters", text);
  if (days < INT32_MIN || days > INT32_MAX) return InvalidArgument("date '{}' out of range", text);
  return days;
}

namespace {

Result<int64_t> ParseTime(std::string_view text) {
  Scanner s(text);
  FLOE_ASSIGN_OR_RETURN(int64_t micros, ParseTimeIn(s, text, 6));
  if (!s.done()) return InvalidArgument("invalid time '{}': unexpected trailing characters", text);
  return micros;
}

// A timestamp in units of 10^-digits seconds. With `with_zone`, an offset (Z or +-HH:MM) is
// required and the result is adjusted to UTC; without, an offset is an error.
}  // namespace

Result<int64_t> ParseTimestamp(std::string_view text, int digits, bool with_zone) {
  Scanner s(text);
  FLOE_ASSIGN_OR_RETURN(int64_t days, ParseDateIn(s, text));
  if (!s.Consume('T')) return InvalidArgument("invalid timestamp '{}': expected 'T'", text);
  FLOE_ASSIGN_OR_RETURN(int64_t of_day, ParseTimeIn(s, text, digits));
  int64_t offset_seconds = 0;
  if (s.done()) {
    if (with_zone) return InvalidArgument("invalid timestamptz '{}': missing zone offset", text);
  } else {
    if (!with_zone) {
      return InvalidArgument("invalid timestamp '{}': a timestamp without zone has no offset",
                             text);
    }
    if (s.Consume('Z')) {
      offset_seconds = 0;
    } else {
      int sign = s.Consume('+') ? 1 : (s.Consume('-') ? -1 : 0);
      int64_t hours = 0;
      int64_t minutes = 0;
      if (sign == 0 || !s.Digits(2, &hours) || !s.Consume(':') || !s.Digits(2, &minutes) ||
          hours > 18 || minutes > 59) {
        return InvalidArgument("invalid timestamptz '{}': expected offset +HH:MM", text);
      }
      offset_seconds = sign * (hours * 3600 + minutes * 60);
    }
    if (!s.done()) {
      return InvalidArgument("invalid timestamp '{}': unexpected trailing characters", text);
    }
  }
  int64_t units = 1;
  for (int i = 0; i < digits; ++i) units *= 10;
  // In 128 bits, so that the first and last representable instants parse back.
  const int128_t result = static_cast<int128_t>(days) * kSecondsPerDay * units + of_day -
                          static_cast<int128_t>(offset_seconds) * units;
  if (result < INT64_MIN || result > INT64_MAX) {
    return InvalidArgument("timestamp '{}' out of range", text);
  }
  return static_cast<int64_t>(result);
}

namespace {

std::string ToHex(std::string_view bytes) {
  std::string out;
  AppendHex(out, bytes);
  return out;
}

Result<std::string> FromHex(std::string_view text) {
  if (text.size() % 2 != 0) return InvalidArgument("invalid hex '{}': odd length", text);
  std::string out(text.size() / 2, '\0');
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = HexDigitValue(text[2 * i]);
    int lo = HexDigitValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return InvalidArgument("invalid hex '{}' at offset {}", text, 2 * i);
    out[i] = static_cast<char>(hi << 4 | lo);
  }
  return out;
}

std::string Int128ToString(int128_t v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // Work on the magnitude as unsigned so that the smallest int128 negates safely.
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
               : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

// Plain notation for scale >= 0 ("12.30", "-0.05"); for a negative scale the unscaled digits with
// an exponent equal to the negated scale ("2E+20"), as the spec's JSON form says.
std::string FormatDecimal(int128_t unscaled, int scale) {
  std::string digits = Int128ToString(unscaled);
  if (scale < 0) return fmt::format("{}E+{}", digits, -scale);
  if (scale == 0) return digits;
  const bool negative = digits[0] == '-';
  std::string_view magnitude(digits);
  if (negative) magnitude.remove_prefix(1);
  const auto fraction_digits = static_cast<size_t>(scale);
  // Left-pad with zeros so that at least one digit stands before the point.
  const size_t padding =
      magnitude.size() <= fraction_digits ? fraction_digits + 1 - magnitude.size() : 0;
  std::string padded = std::string(padding, '0').append(magnitude);
  const size_t integer_digits = padded.size() - fraction_digits;
  return fmt::format("{}{}.{}", negative ? "-" : "",
                     std::string_view(padded).substr(0, integer_digits),
                     std::string_view(padded).substr(integer_digits));
}

constexpr int kMaxDecimalDigits = 38;

int128_t PowerOfTen(int n) {
  int128_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

// Parses [+-]digits[.digits][(e|E)[+-]digits] into an unscaled value and its scale.
}  // namespace

Result<std::pair<int128_t, int>> ParseDecimal(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128_t unscaled = 0;
  int digit_count = 0;
  int significant = 0;
  int scale = 0;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    ++digit_count;
    if (unscaled != 0 || c != '0') ++significant;
    if (significant > kMaxDecimalDigits) {
      return InvalidArgument("invalid decimal '{}': more than {} digits", text, kMaxDecimalDigits);
    }
    unscaled = unscaled * 10 + (c - '0');
    if (seen_point) ++scale;
  }
  if (digit_count == 0) return InvalidArgument("invalid decimal '{}': no digits", text);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) exp_negative = text[i++] == '-';
    int64_t exponent = 0;
    size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 6; ++i) {
      exponent = exponent * 10 + (text[i] - '0');
    }
    if (i == start) return InvalidArgument("invalid decimal '{}': empty exponent", text);
    scale -= static_cast<int>(exp_negative ? -exponent : exponent);
  }
  if (i != text.size()) {
    return InvalidArgument("invalid decimal '{}': unexpected character at offset {}", text, i);
  }
  return std::pair<int128_t, int>{negative ? -unscaled : unscaled, scale};
}

namespace {

template <typename T>
void AppendLittleEndian(std::string& out, T value) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const auto bits = std::bit_cast<Bits>(value);
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>(bits >> (8 * i) & 0xff));
}

uint64_t ReadLittleEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return v;
}

// Minimal two's-complement big-endian bytes (Java's BigInteger.toByteArray).
std::string DecimalToBytes(int128_t v) {
  unsigned char be[16];
  auto u = static_cast<unsigned __int128>(v);
  for (int i = 15; i >= 0; --i) {
    be[i] = static_cast<unsigned char>(u & 0xff);
    u >>= 8;
  }
  int start = 0;
  // Drop leading bytes that are pure sign extension of the next byte.
  while (start < 15 && ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                        (be[start] == 0xff && (be[start + 1] & 0x80) != 0))) {
    ++start;
  }
  return std::string(reinterpret_cast<const char*>(be + start), 16 - start);
}

int128_t DecimalFromBytes(std::string_view bytes) {
  unsigned __int128 u =
      (static_cast<unsigned char>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : bytes) u = (u << 8) | c;
  return static_cast<int128_t>(u);
}

std::partial_ordering CompareBytes(const std::string& a, const std::string& b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? std::partial_ordering::less : std::partial_ordering::greater;
  return a.size() <=> b.size();
}

Status CheckLength(const TypePtr& type, std::string_view bytes, size_t expected) {
  if (bytes.size() != expected) {
    return InvalidArgument("binary {} value must have {} bytes, got {}", type->ToString(), expected,
                           bytes.size());
  }
  return Ok();
}

// JSON decoding helpers that name the expected form in their errors.
Result<const std::string*> ExpectString(const TypePtr& type, const Json& json) {
  if (!json.is_string()) {
    return InvalidArgument("JSON {} value must be a string, got {}", type->ToString(),
                           Json::KindName(json.kind()));
  }
  return &json.as_string();
}

}  // namespace

Literal Literal::Null(TypePtr type) { return Literal(std::move(type), std::monostate{}); }
Literal Literal::Boolean(bool v) { return Literal(types::Boolean(), v); }
Literal Literal::Int(int32_t v) { return Literal(types::Int(), v); }
Literal Literal::Long(int64_t v) { return Literal(types::Long(), v); }
Literal Literal::Float(float v) { return Literal(types::Float(), v); }
Literal Literal::Double(double v) { return Literal(types::Double(), v); }
Literal Literal::Date(int32_t days) { return Literal(types::Date(), days); }
Literal Literal::Time(int64_t micros) { return Literal(types::Time(), micros); }
Literal Literal::Timestamp(int64_t micros) { return Literal(types::Timestamp(), micros); }
Literal Literal::TimestampTz(int64_t micros) { return Literal(types::TimestampTz(), micros); }
Literal Literal::TimestampNs(int64_t nanos) { return Literal(types::TimestampNs(), nanos); }
Literal Literal::TimestampTzNs(int64_t nanos) { return Literal(types::TimestampTzNs(), nanos); }
Literal Literal::String(std::string v) { return Literal(types::String(), std::move(v)); }
Literal Literal::Uuid(std::string bytes16) { return Literal(types::Uuid(), std::move(bytes16)); }
Literal Literal::Fixed(std::string bytes) {
  auto type = types::Fixed(static_cast<int64_t>(bytes.size()));
  return Literal(std::move(type), std::move(bytes));
}
Literal Literal::Binary(std::string bytes) { return Literal(types::Binary(), std::move(bytes)); }
Literal Literal::Decimal(int128_t unscaled, int precision, int scale) {
  return Literal(types::Decimal(precision, scale), unscaled);
}
Literal Literal::Geometry(TypePtr type, std::string wkb) {
  return Literal(std::move(type), std::move(wkb));
}

std::string Literal::ToString() const {
  if (is_null()) return "null";
  switch (type_id()) {
    case TypeId::kBoolean:
      return bool_value() ? "true" : "false";
    case TypeId::kInt:
      return fmt::format("{}", int_value());
    case TypeId::kLong:
      return fmt::format("{}", long_value());
    case TypeId::kFloat:
      return fmt::format("{}", float_value());
    case TypeId::kDouble:
      return fmt::format("{}", double_value());
    case TypeId::kDate:
      return FormatDate(int_value());
    case TypeId::kTime:
      // A time outside one day (only from corrupt input) prints as its raw count.
      if (long_value() < 0 || long_value() >= kSecondsPerDay * kMicrosPerSecond) {
        return fmt::format("{} us", long_value());
      }
      return FormatTimeOfDay(long_value(), kMicrosPerSecond);
    case TypeId::kTimestamp:
      return FormatTimestamp(long_value(), kMicrosPerSecond, false);
    case TypeId::kTimestampTz:
      return FormatTimestamp(long_value(), kMicrosPerSecond, true);
    case TypeId::kTimestampNs:
      return FormatTimestamp(long_value(), kNanosPerSecond, false);
    case TypeId::kTimestampTzNs:
      return FormatTimestamp(long_value(), kNanosPerSecond, true);
    case TypeId::kString:
      return bytes_value();
    case TypeId::kUuid:
      return UuidToString(bytes_value());
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return ToHex(bytes_value());
    case TypeId::kDecimal:
      return FormatDecimal(decimal_value(), static_cast<const PrimitiveType&>(*type_).scale());
    default:
      return fmt::format("<{}>", type_->ToString());
  }
}

Result<std::string> Literal::ToBinary() const {
  if (is_null()) return InvalidArgument("a null {} has no binary form", type_->ToString());
  std::string out;
  switch (type_id()) {
    case TypeId::kBoolean:
      out.push_back(bool_value() ? 1 : 0);
      break;
    case TypeId::kInt:
    case TypeId::kDate:
      AppendLittleEndian(out, int_value());
      break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      AppendLittleEndian(out, long_value());
      break;
    case TypeId::kFloat:
      AppendLittleEndian(out, float_value());
      break;
    case TypeId::kDouble:
      AppendLittleEndian(out, double_value());
      break;
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      out = bytes_value();
      break;
    case TypeId::kDecimal:
      out = DecimalToBytes(decimal_value());
      break;
    default:
      return Unsupported("type {} has no binary single-value form", type_->ToString());
  }
  return out;
}

Result<Literal> Literal::FromBinary(TypePtr type, std::string_view bytes) {
  switch (type->id()) {
    case TypeId::kBoolean:
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 1));
      return Literal(std::move(type), bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 4));
      return Literal(std::move(type), static_cast<int32_t>(ReadLittleEndian(bytes)));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      // A long bound of 4 bytes was written while the column was an int (spec "Schema Evolution").
      if (type->id() == TypeId::kLong && bytes.size() == 4) {
        return Literal(std::move(type), int64_t{static_cast<int32_t>(ReadLittleEndian(bytes))});
      }
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 8));
      return Literal(std::move(type), static_cast<int64_t>(ReadLittleEndian(bytes)));
    case TypeId::kTimestamp:
    case TypeId::kTimestampNs: {
      // 4 bytes: a date promoted to a timestamp; the bound is a day count.
      if (bytes.size() == 4) {
        const int64_t days = static_cast<int32_t>(ReadLittleEndian(bytes));
        const int64_t per_day =
            kSecondsPerDay *
            (type->id() == TypeId::kTimestamp ? kMicrosPerSecond : kNanosPerSecond);
        int64_t value = 0;
        if (__builtin_mul_overflow(days, per_day, &value)) {
          return InvalidArgument("date bound {} is out of range for {}", days, type->ToString());
        }
        return Literal(std::move(type), value);
      }
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 8));
      return Literal(std::move(type), static_cast<int64_t>(ReadLittleEndian(bytes)));
    }
    case TypeId::kFloat:
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 4));
      return Literal(std::move(type),
                     std::bit_cast<float>(static_cast<uint32_t>(ReadLittleEndian(bytes))));
    case TypeId::kDouble:
      // 4 bytes: written while the column was a float.
      if (bytes.size() == 4) {
        return Literal(std::move(type), static_cast<double>(std::bit_cast<float>(
                                            static_cast<uint32_t>(ReadLittleEndian(bytes)))));
      }
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 8));
      return Literal(std::move(type), std::bit_cast<double>(ReadLittleEndian(bytes)));
    case TypeId::kUuid:
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, 16));
      return Literal(std::move(type), std::string(bytes));
    case TypeId::kFixed: {
      const auto length = static_cast<const PrimitiveType&>(*type).length();
      FLOE_RETURN_IF_ERROR(CheckLength(type, bytes, static_cast<size_t>(length)));
      return Literal(std::move(type), std::string(bytes));
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Literal(std::move(type), std::string(bytes));
    case TypeId::kDecimal:
      if (bytes.empty() || bytes.size() > 16) {
        return InvalidArgument("binary {} value must have 1 to 16 bytes, got {}", type->ToString(),
                               bytes.size());
      }
      return Literal(std::move(type), DecimalFromBytes(bytes));
    default:
      return Unsupported("type {} has no binary single-value form", type->ToString());
  }
}

Result<Json> Literal::ToJson() const {
  if (is_null()) return Json();
  switch (type_id()) {
    case TypeId::kBoolean:
      return Json(bool_value());
    case TypeId::kInt:
      return Json(int64_t{int_value()});
    case TypeId::kLong:
      return Json(long_value());
    case TypeId::kFloat: {
      // Through the float's shortest decimal form, so 1.1f is written as 1.1,
      // not 1.100000023841858.
      const float f = float_value();
      if (!std::isfinite(f)) return InvalidArgument("JSON cannot represent float {}", f);
      return Json(std::strtod(fmt::format("{}", f).c_str(), nullptr));
    }
    case TypeId::kDouble:
      if (!std::isfinite(double_value())) {
        return InvalidArgument("JSON cannot represent double {}", double_value());
      }
      return Json(double_value());
    case TypeId::kTime:
      if (long_value() < 0 || long_value() >= kSecondsPerDay * kMicrosPerSecond) {
        return InvalidArgument("time {} us is not within one day", long_value());
      }
      return Json(ToString());
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kDecimal:
      return Json(ToString());
    default:
      return Unsupported("type {} has no JSON single-value form here", type_->ToString());
  }
}

Result<Literal> Literal::FromJson(TypePtr type, const Json& json) {
  if (json.is_null()) return Null(std::move(type));
  switch (type->id()) {
    case TypeId::kBoolean:
      if (!json.is_bool()) {
        return InvalidArgument("JSON boolean value must be true or false, got {}",
                               Json::KindName(json.kind()));
      }
      return Literal(std::move(type), json.as_bool());
    case TypeId::kInt:
      if (!json.is_int() || json.as_int() < INT32_MIN || json.as_int() > INT32_MAX) {
        return InvalidArgument("JSON int value must be a 32-bit integer, got {}", json.Dump());
      }
      return Literal(std::move(type), static_cast<int32_t>(json.as_int()));
    case TypeId::kLong:
      if (!json.is_int()) {
        return InvalidArgument("JSON long value must be an integer, got {}", json.Dump());
      }
      return Literal(std::move(type), json.as_int());
    case TypeId::kFloat:
      if (!json.is_number()) {
        return InvalidArgument("JSON float value must be a number, got {}", json.Dump());
      }
      // Converting a double beyond float's range is undefined behaviour, so refuse it first.
      if (std::fabs(json.as_double()) > std::numeric_limits<float>::max()) {
        return InvalidArgument("JSON float value {} is out of range", json.Dump());
      }
      return Literal(std::move(type), static_cast<float>(json.as_double()));
    case TypeId::kDouble:
      if (!json.is_number()) {
        return InvalidArgument("JSON double value must be a number, got {}", json.Dump());
      }
      return Literal(std::move(type), json.as_double());
    default:
      break;
  }
  FLOE_ASSIGN_OR_RETURN(const std::string* text, ExpectString(type, json));
  switch (type->id()) {
    case TypeId::kDate: {
      FLOE_ASSIGN_OR_RETURN(int64_t days, ParseDate(*text));
      return Literal(std::move(type), static_cast<int32_t>(days));
    }
    case TypeId::kTime: {
      FLOE_ASSIGN_OR_RETURN(int64_t micros, ParseTime(*text));
      return Literal(std::move(type), micros);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      const bool nanos = type->id() == TypeId::kTimestampNs || type->id() == TypeId::kTimestampTzNs;
      const bool zone = type->id() == TypeId::kTimestampTz || type->id() == TypeId::kTimestampTzNs;
      FLOE_ASSIGN_OR_RETURN(int64_t value, ParseTimestamp(*text, nanos ? 9 : 6, zone));
      return Literal(std::move(type), value);
    }
    case TypeId::kString:
      return Literal(std::move(type), *text);
    case TypeId::kUuid: {
      FLOE_ASSIGN_OR_RETURN(std::string bytes, ParseUuid(*text));
      return Literal(std::move(type), std::move(bytes));
    }
    case TypeId::kFixed:
    case TypeId::kBinary: {
      FLOE_ASSIGN_OR_RETURN(std::string bytes, FromHex(*text));
      if (type->id() == TypeId::kFixed) {
        const auto length = static_cast<const PrimitiveType&>(*type).length();
        if (bytes.size() != static_cast<size_t>(length)) {
          return InvalidArgument("JSON {} value '{}' has {} bytes", type->ToString(), *text,
                                 bytes.size());
        }
      }
      return Literal(std::move(type), std::move(bytes));
    }
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(*type);
      FLOE_ASSIGN_OR_RETURN(auto parsed, ParseDecimal(*text));
      if (parsed.second != decimal.scale()) {
        return InvalidArgument("JSON {} value '{}' has scale {}", type->ToString(), *text,
                               parsed.second);
      }
      if (decimal.precision() < kMaxDecimalDigits &&
          (parsed.first >= PowerOfTen(decimal.precision()) ||
           parsed.first <= -PowerOfTen(decimal.precision()))) {
        return InvalidArgument("JSON {} value '{}' exceeds the precision", type->ToString(), *text);
      }
      return Literal(std::move(type), parsed.first);
    }
    default:
      return Unsupported("type {} has no JSON single-value form here", type->ToString());
  }
}

Result<Literal> Literal::PromoteTo(const TypePtr& type) const {
  if (type_->Equals(*type)) return *this;
  const TypeId from = type_id();
  const TypeId to = type->id();
  const bool allowed =
      (from == TypeId::kInt && to == TypeId::kLong) ||
      (from == TypeId::kFloat && to == TypeId::kDouble) ||
      (from == TypeId::kDate && (to == TypeId::kTimestamp || to == TypeId::kTimestampNs)) ||
      (from == TypeId::kDecimal && to == TypeId::kDecimal &&
       static_cast<const PrimitiveType&>(*type_).scale() ==
           static_cast<const PrimitiveType&>(*type).scale() &&
       static_cast<const PrimitiveType&>(*type_).precision() <
           static_cast<const PrimitiveType&>(*type).precision());
  if (!allowed) {
    return InvalidArgument("cannot promote a {} value to {}", type_->ToString(), type->ToString());
  }
  if (is_null()) return Null(type);
  switch (from) {
    case TypeId::kInt:
      return Literal(type, int64_t{int_value()});
    case TypeId::kFloat:
      return Literal(type, static_cast<double>(float_value()));
    case TypeId::kDate: {
      const int64_t per_day =
          kSecondsPerDay * (to == TypeId::kTimestamp ? kMicrosPerSecond : kNanosPerSecond);
      int64_t value = 0;
      if (__builtin_mul_overflow(int64_t{int_value()}, per_day, &value)) {
        return InvalidArgument("date {} is out of range for {}", ToString(), type->ToString());
      }
      return Literal(type, value);
    }
    default:
      return Literal(type, decimal_value());
  }
}

std::partial_ordering Literal::Compare(const Literal& other) const {
  if (is_null() || other.is_null() || type_id() != other.type_id()) {
    return std::partial_ordering::unordered;
  }
  switch (type_id()) {
    case TypeId::kBoolean:
      return bool_value() <=> other.bool_value();
    case TypeId::kInt:
    case TypeId::kDate:
      return int_value() <=> other.int_value();
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return long_value() <=> other.long_value();
    case TypeId::kFloat:
      return CompareFloating(float_value(), other.float_value());
    case TypeId::kDouble:
      return CompareFloating(double_value(), other.double_value());
    case TypeId::kDecimal: {
      // Unscaled values are comparable only at one scale.
      if (static_cast<const PrimitiveType&>(*type_).scale() !=
          static_cast<const PrimitiveType&>(*other.type_).scale()) {
        return std::partial_ordering::unordered;
      }
      return decimal_value() <=> other.decimal_value();
    }
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return CompareBytes(bytes_value(), other.bytes_value());
    default:
      return std::partial_ordering::unordered;
  }
}

bool operator==(const Literal& a, const Literal& b) {
  if (!a.type_->Equals(*b.type_)) return false;
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  return a.Compare(b) == std::partial_ordering::equivalent;
}

}  // namespace floe
