#include "floe/format/avro/datum_json.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace floe::avro {
namespace {

// Days since 1970-01-01 to a proleptic Gregorian date, by 400-year eras (each exactly 146097 days).
void CivilFromDays(int64_t days, int64_t& year, unsigned& month, unsigned& day) {
  days += 719468;  // shift the epoch to 0000-03-01, so leap days end each cycle
  int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  auto day_of_era = static_cast<unsigned>(days - era * 146097);
  unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  unsigned shifted_month = (5 * day_of_year + 2) / 153;  // March = 0
  day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  year = static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
}

int64_t Pow10(int digits) {
  int64_t p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

// Floor division and its non-negative remainder.
void FloorDivMod(int64_t a, int64_t b, int64_t& q, int64_t& r) {
  q = a / b;
  r = a % b;
  if (r < 0) {
    r += b;
    --q;
  }
}

Json FloatJson(double d) {
  if (std::isnan(d)) return Json("NaN");
  if (std::isinf(d)) return Json(d > 0 ? "Infinity" : "-Infinity");
  return Json(d);
}

Json LongJson(const Node& node, int64_t v) {
  switch (node.logical_type) {
    case LogicalType::kTimeMicros:
      return Json(FormatTime(v, 6));
    case LogicalType::kTimestampMillis:
      return Json(FormatTimestamp(v, 3, true));
    case LogicalType::kTimestampMicros:
      return Json(FormatTimestamp(v, 6, true));
    case LogicalType::kTimestampNanos:
      return Json(FormatTimestamp(v, 9, true));
    case LogicalType::kLocalTimestampMillis:
      return Json(FormatTimestamp(v, 3, false));
    case LogicalType::kLocalTimestampMicros:
      return Json(FormatTimestamp(v, 6, false));
    case LogicalType::kLocalTimestampNanos:
      return Json(FormatTimestamp(v, 9, false));
    default:
      return Json(v);
  }
}

std::string FormatUuid(std::string_view b) {
  std::string hex = FormatHex(b);
  return fmt::format("{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4),
                     hex.substr(16, 4), hex.substr(20));
}

uint32_t LittleEndian32(std::string_view b, size_t at) {
  return uint32_t(uint8_t(b[at])) | (uint32_t(uint8_t(b[at + 1])) << 8) |
         (uint32_t(uint8_t(b[at + 2])) << 16) | (uint32_t(uint8_t(b[at + 3])) << 24);
}

}  // namespace

std::string FormatDate(int64_t days) {
  int64_t year;
  unsigned month;
  unsigned day;
  CivilFromDays(days, year, month, day);
  if (year >= 0 && year <= 9999) return fmt::format("{:04}-{:02}-{:02}", year, month, day);
  return fmt::format("{:+05}-{:02}-{:02}", year, month, day);
}

std::string FormatTime(int64_t value, int digits) {
  int64_t unit = Pow10(digits);
  int64_t seconds;
  int64_t fraction;
  FloorDivMod(value, unit, seconds, fraction);
  return fmt::format("{:02}:{:02}:{:02}.{:0{}}", seconds / 3600, seconds / 60 % 60, seconds % 60,
                     fraction, digits);
}

std::string FormatTimestamp(int64_t value, int digits, bool utc) {
  int64_t unit = Pow10(digits);
  int64_t seconds;
  int64_t fraction;
  FloorDivMod(value, unit, seconds, fraction);
  int64_t days;
  int64_t second_of_day;
  FloorDivMod(seconds, 86400, days, second_of_day);
  return fmt::format("{}T{:02}:{:02}:{:02}.{:0{}}{}", FormatDate(days), second_of_day / 3600,
                     second_of_day / 60 % 60, second_of_day % 60, fraction, digits,
                     utc ? "+00:00" : "");
}

std::string FormatHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    auto b = static_cast<uint8_t>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
  return out;
}

std::string FormatDecimal(std::string_view big_endian, int32_t scale) {
  // Magnitude of the two's-complement value, then repeated division by 10 (values are short).
  std::vector<uint8_t> magnitude(big_endian.begin(), big_endian.end());
  bool negative = !magnitude.empty() && (magnitude[0] & 0x80);
  if (negative) {
    for (uint8_t& b : magnitude) b = static_cast<uint8_t>(~b);
    for (size_t i = magnitude.size(); i-- > 0;) {
      if (++magnitude[i] != 0) break;
    }
  }
  std::string digits;
  while (true) {
    bool zero = true;
    unsigned remainder = 0;
    for (uint8_t& b : magnitude) {
      unsigned cur = (remainder << 8) | b;
      b = static_cast<uint8_t>(cur / 10);
      remainder = cur % 10;
      zero = zero && b == 0;
    }
    digits.push_back(static_cast<char>('0' + remainder));
    if (zero) break;
  }
  if (scale > 0) {
    while (digits.size() <= static_cast<size_t>(scale)) digits.push_back('0');
    digits.insert(digits.begin() + scale, '.');
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

Json DatumToJson(const Node& node, const Datum& datum) {
  const Datum::Value& v = datum.value();
  if (const auto* u = std::get_if<Union>(&v)) {
    if (!u->value || u->branch >= node.branches.size()) return Json();
    return DatumToJson(*node.branches[u->branch], *u->value);
  }
  if (node.type == Type::kUnion) return Json();
  switch (node.type) {
    case Type::kNull:
      return Json();
    case Type::kBoolean:
      if (!datum.is<bool>()) return Json();
      return Json(datum.as<bool>());
    case Type::kInt: {
      if (!datum.is<int32_t>()) return Json();
      int32_t i = datum.as<int32_t>();
      if (node.logical_type == LogicalType::kDate) return Json(FormatDate(i));
      if (node.logical_type == LogicalType::kTimeMillis) return Json(FormatTime(i, 3));
      return Json(int64_t{i});
    }
    case Type::kLong:
      if (datum.is<int32_t>()) return LongJson(node, datum.as<int32_t>());
      if (!datum.is<int64_t>()) return Json();
      return LongJson(node, datum.as<int64_t>());
    case Type::kFloat: {
      // Through the float's own shortest decimal form, so 0.1f prints as 0.1, not 0.10000000149.
      if (!datum.is<float>()) return Json();
      float f = datum.as<float>();
      if (!std::isfinite(f)) return FloatJson(f);
      return Json(std::strtod(fmt::format("{}", f).c_str(), nullptr));
    }
    case Type::kDouble:
      if (datum.is<float>()) return FloatJson(datum.as<float>());
      if (!datum.is<double>()) return Json();
      return FloatJson(datum.as<double>());
    case Type::kString:
      if (!datum.is<std::string>()) return Json();
      return Json(datum.as<std::string>());
    case Type::kBytes:
    case Type::kFixed: {
      if (!datum.is<Bytes>()) return Json();
      const std::string& b = datum.as<Bytes>().value;
      if (node.logical_type == LogicalType::kDecimal) return Json(FormatDecimal(b, node.scale));
      if (node.logical_type == LogicalType::kUuid && b.size() == 16) return Json(FormatUuid(b));
      if (node.logical_type == LogicalType::kDuration && b.size() == 12) {
        return Json(Json::Object{{"months", int64_t{LittleEndian32(b, 0)}},
                                 {"days", int64_t{LittleEndian32(b, 4)}},
                                 {"millis", int64_t{LittleEndian32(b, 8)}}});
      }
      return Json(FormatHex(b));
    }
    case Type::kEnum: {
      if (!datum.is<EnumValue>()) return Json();
      int32_t index = datum.as<EnumValue>().index;
      if (index < 0 || static_cast<size_t>(index) >= node.symbols.size())
        return Json(int64_t{index});
      return Json(node.symbols[static_cast<size_t>(index)]);
    }
    case Type::kArray: {
      if (!datum.is<Array>()) return Json();
      Json out = Json::MakeArray();
      for (const Datum& item : datum.as<Array>().items) out.Push(DatumToJson(*node.items, item));
      return out;
    }
    case Type::kMap: {
      if (!datum.is<Map>()) return Json();
      Json out = Json::MakeArray();
      for (const auto& [key, value] : datum.as<Map>().entries) {
        out.Push(Json(Json::Object{{"key", key}, {"value", DatumToJson(*node.values, value)}}));
      }
      return out;
    }
    case Type::kRecord: {
      if (!datum.is<Record>()) return Json();
      Json out = Json::MakeObject();
      const auto& fields = datum.as<Record>().fields;
      for (size_t i = 0; i < node.fields.size() && i < fields.size(); ++i) {
        out.Set(node.fields[i].name, DatumToJson(*node.fields[i].type, fields[i]));
      }
      return out;
    }
    case Type::kUnion:
      break;
  }
  return Json();
}

}  // namespace floe::avro
