#include "floe/format/avro/datum_json.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "floe/util/calendar.h"
#include "floe/util/uuid.h"

namespace floe::avro {
namespace {

int64_t Pow10(int digits) {
  int64_t p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
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

uint32_t LittleEndian32(std::string_view b, size_t at) {
  return uint32_t(uint8_t(b[at])) | (uint32_t(uint8_t(b[at + 1])) << 8) |
         (uint32_t(uint8_t(b[at + 2])) << 16) | (uint32_t(uint8_t(b[at + 3])) << 24);
}

}  // namespace

std::string FormatDate(int64_t days) {
  std::string out;
  AppendIsoDate(out, days);
  return out;
}

std::string FormatTime(int64_t value, int digits) {
  std::string out;
  AppendIsoTimeOfDay(out, value, Pow10(digits));
  return out;
}

std::string FormatTimestamp(int64_t value, int digits, bool utc) {
  std::string out;
  AppendIsoTimestamp(out, value, Pow10(digits), utc);
  return out;
}

std::string FormatHex(std::string_view bytes) {
  std::string out;
  AppendHex(out, bytes);
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
      if (node.logical_type == LogicalType::kUuid && b.size() == 16) return Json(UuidToString(b));
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
