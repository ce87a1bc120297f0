#include "floe/format/parquet/value_format.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "floe/format/parquet/schema.h"

namespace floe::parquet {

namespace {

std::string Hex(std::string_view bytes) {
  std::string out = "0x";
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

template <typename T>
T Load(std::string_view bytes) {
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  while (u > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) digits.insert(digits.begin(), '-');
  return digits;
}

std::string Decimal(__int128 unscaled, int32_t scale) {
  std::string digits = Int128ToString(unscaled);
  if (unscaled < 0) digits.erase(0, 1);
  if (scale > 0 && scale < 80) {
    auto s = static_cast<size_t>(scale);
    std::string out;
    if (unscaled < 0) out += '-';
    if (digits.size() <= s) {
      out += "0.";
      out.append(s - digits.size(), '0');
      out += digits;
    } else {
      out.append(digits, 0, digits.size() - s);
      out += '.';
      out.append(digits, digits.size() - s, s);
    }
    return out;
  }
  return unscaled < 0 ? fmt::format("-{}", digits) : digits;
}

// Big-endian two's complement of up to 16 bytes.
bool BigEndianInt(std::string_view bytes, __int128& out) {
  if (bytes.empty() || bytes.size() > 16) return false;
  unsigned __int128 v =
      static_cast<unsigned char>(bytes[0]) & 0x80 ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : bytes) v = v << 8 | c;
  out = static_cast<__int128>(v);
  return true;
}

std::string Date(int64_t days) {
  using namespace std::chrono;
  year_month_day ymd{sys_days{std::chrono::days{days}}};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

// value in units of 10^-digits seconds since the epoch.
std::string Timestamp(int64_t value, int digits, bool utc) {
  int64_t per_second = 1;
  for (int i = 0; i < digits; ++i) per_second *= 10;
  int64_t per_day = per_second * 86400;
  int64_t days = value / per_day;
  int64_t rest = value % per_day;
  if (rest < 0) {
    rest += per_day;
    --days;
  }
  int64_t seconds = rest / per_second;
  int64_t fraction = rest % per_second;
  std::string out = fmt::format("{}T{:02}:{:02}:{:02}", Date(days), seconds / 3600,
                                seconds / 60 % 60, seconds % 60);
  if (digits > 0) out += fmt::format(".{:0{}}", fraction, digits);
  if (utc) out += "+00:00";
  return out;
}

std::string Time(int64_t value, int digits) {
  int64_t per_second = 1;
  for (int i = 0; i < digits; ++i) per_second *= 10;
  int64_t seconds = value / per_second;
  std::string out =
      fmt::format("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  if (digits > 0) out += fmt::format(".{:0{}}", value % per_second, digits);
  return out;
}

int UnitDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return 3;
    case TimeUnit::kMicros:
      return 6;
    case TimeUnit::kNanos:
      return 9;
  }
  return 0;
}

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Uuid(std::string_view b) {
  std::string hex = Hex(b).substr(2);
  return fmt::format("{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4),
                     hex.substr(16, 4), hex.substr(20));
}

using K = LogicalType::Kind;

std::string FormatInteger(const SchemaNode& leaf, int64_t v, bool is64) {
  const auto& lt = leaf.logical_type;
  auto ct = leaf.converted_type;
  bool is_unsigned = (lt && lt->kind == K::kInteger && !lt->is_signed) ||
                     ct == ConvertedType::kUint8 || ct == ConvertedType::kUint16 ||
                     ct == ConvertedType::kUint32 || ct == ConvertedType::kUint64;
  if (is_unsigned) {
    return is64 ? std::to_string(static_cast<uint64_t>(v))
                : std::to_string(static_cast<uint32_t>(v));
  }
  if ((lt && lt->kind == K::kDecimal) || ct == ConvertedType::kDecimal) {
    return Decimal(v, lt && lt->kind == K::kDecimal ? lt->scale : leaf.scale);
  }
  if ((lt && lt->kind == K::kDate) || ct == ConvertedType::kDate) return Date(v);
  if (lt && lt->kind == K::kTimestamp) {
    return Timestamp(v, UnitDigits(lt->unit), lt->is_adjusted_to_utc);
  }
  if (ct == ConvertedType::kTimestampMillis) return Timestamp(v, 3, true);
  if (ct == ConvertedType::kTimestampMicros) return Timestamp(v, 6, true);
  if (lt && lt->kind == K::kTime) return Time(v, UnitDigits(lt->unit));
  if (ct == ConvertedType::kTimeMillis) return Time(v, 3);
  if (ct == ConvertedType::kTimeMicros) return Time(v, 6);
  return std::to_string(v);
}

}  // namespace

std::string FormatPlainValue(const SchemaNode& leaf, std::string_view bytes) {
  if (!leaf.physical_type) return Hex(bytes);
  const auto& lt = leaf.logical_type;
  auto wrong_size = [&](size_t expected) {
    return fmt::format("{} (expected {} bytes)", Hex(bytes), expected);
  };
  switch (*leaf.physical_type) {
    case PhysicalType::kBoolean:
      if (bytes.size() != 1) return wrong_size(1);
      return bytes[0] ? "true" : "false";
    case PhysicalType::kInt32:
      if (bytes.size() != 4) return wrong_size(4);
      return FormatInteger(leaf, Load<int32_t>(bytes), false);
    case PhysicalType::kInt64:
      if (bytes.size() != 8) return wrong_size(8);
      return FormatInteger(leaf, Load<int64_t>(bytes), true);
    case PhysicalType::kInt96: {
      if (bytes.size() != 12) return wrong_size(12);
      // Nanoseconds of the day, then the Julian day (2440588 is 1970-01-01).
      int64_t nanos = Load<int64_t>(bytes);
      int64_t julian = Load<int32_t>(bytes.substr(8));
      return Timestamp((julian - 2440588) * 86400000000000 + nanos, 9, false);
    }
    case PhysicalType::kFloat:
      if (bytes.size() != 4) return wrong_size(4);
      return fmt::format("{}", Load<float>(bytes));
    case PhysicalType::kDouble:
      if (bytes.size() != 8) return wrong_size(8);
      return fmt::format("{}", Load<double>(bytes));
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      bool text =
          (lt && (lt->kind == K::kString || lt->kind == K::kEnum || lt->kind == K::kJson)) ||
          leaf.converted_type == ConvertedType::kUtf8 ||
          leaf.converted_type == ConvertedType::kEnum ||
          leaf.converted_type == ConvertedType::kJson;
      if (text) return Quoted(bytes);
      if ((lt && lt->kind == K::kDecimal) || leaf.converted_type == ConvertedType::kDecimal) {
        __int128 v;
        if (BigEndianInt(bytes, v)) {
          return Decimal(v, lt && lt->kind == K::kDecimal ? lt->scale : leaf.scale);
        }
      }
      if (lt && lt->kind == K::kUuid && bytes.size() == 16) return Uuid(bytes);
      if (lt && lt->kind == K::kFloat16 && bytes.size() == 2) {
        auto h = static_cast<uint16_t>(static_cast<unsigned char>(bytes[0]) |
                                       static_cast<unsigned char>(bytes[1]) << 8);
        int exponent = (h >> 10) & 0x1f;
        int mantissa = h & 0x3ff;
        double sign = (h & 0x8000) ? -1.0 : 1.0;
        double value;
        if (exponent == 0) {
          value = sign * std::ldexp(mantissa, -24);
        } else if (exponent == 31) {
          value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                           : sign * std::numeric_limits<double>::infinity();
        } else {
          value = sign * std::ldexp(mantissa + 1024, exponent - 25);
        }
        return fmt::format("{}", value);
      }
      return Hex(bytes);
    }
  }
  return Hex(bytes);
}

}  // namespace floe::parquet
