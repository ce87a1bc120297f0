#include "floe/stream/connectors/text_columns.h"

#include <charconv>
#include <cstring>

#include "floe/spec/literal_text.h"
#include "floe/spec/schema_json.h"
#include "floe/spec/type.h"

namespace floe::stream {
namespace {

using Kind = TextColumnType::Kind;

template <typename T>
Result<T> ParseNumber(std::string_view cell, std::string_view what) {
  T v{};
  auto [p, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (ec != std::errc() || p != cell.data() + cell.size()) {
    return InvalidArgument("'{}' is not {}", cell, what);
  }
  return v;
}

Result<bool> ParseBool(std::string_view cell) {
  if (cell == "true") return true;
  if (cell == "false") return false;
  return InvalidArgument("'{}' is not a boolean", cell);
}

// Takes the text forms SQL engines write too: a space for the 'T', and zone offsets +HH.
Result<int64_t> ParseTimestampCell(std::string_view cell, bool with_zone) {
  char text[64];
  if (cell.size() < 11 || cell.size() + 3 > sizeof(text)) {
    return ParseTimestamp(cell, 6, with_zone);
  }
  std::memcpy(text, cell.data(), cell.size());
  size_t size = cell.size();
  if (text[10] == ' ') text[10] = 'T';
  if (with_zone && size > 19 && (text[size - 3] == '+' || text[size - 3] == '-')) {
    std::memcpy(text + size, ":00", 3);
    size += 3;
  }
  return ParseTimestamp(std::string_view(text, size), 6, with_zone);
}

__int128 PowerOfTen(int n) {
  __int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

Result<__int128> ParseDecimalCell(std::string_view cell, int precision, int scale) {
  FLOE_ASSIGN_OR_RETURN(auto parsed, ParseDecimal(cell));
  auto [unscaled, cell_scale] = parsed;
  if (cell_scale > scale) {
    __int128 dropped = PowerOfTen(cell_scale - scale);
    if (unscaled % dropped != 0) {
      return InvalidArgument("'{}' has more than {} fraction digits", cell, scale);
    }
    unscaled /= dropped;
  } else if (cell_scale < scale) {
    if (scale - cell_scale > 38) return InvalidArgument("'{}' does not fit", cell);
    unscaled *= PowerOfTen(scale - cell_scale);
  }
  __int128 limit = PowerOfTen(precision);
  if (unscaled >= limit || unscaled <= -limit) {
    return InvalidArgument("'{}' does not fit decimal({}, {})", cell, precision, scale);
  }
  return unscaled;
}

bool AllParse(std::span<const std::string_view> cells, const TextColumnType& type) {
  for (std::string_view cell : cells) {
    bool ok;
    switch (type.kind) {
      case Kind::kInt64:
        ok = ParseNumber<int64_t>(cell, "").has_value();
        break;
      case Kind::kFloat64:
        ok = ParseNumber<double>(cell, "").has_value();
        break;
      case Kind::kBool:
        ok = ParseBool(cell).has_value();
        break;
      case Kind::kDate:
        ok = ParseDate(cell).has_value();
        break;
      case Kind::kTimestamp:
        ok = ParseTimestampCell(cell, false).has_value();
        break;
      case Kind::kTimestampTz:
        ok = ParseTimestampCell(cell, true).has_value();
        break;
      default:
        ok = true;
        break;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace

Result<TextColumnType> TextColumnType::FromDataType(const DataType& type) {
  switch (type.kind()) {
    case TypeKind::kInt32:
      return TextColumnType{Kind::kInt32};
    case TypeKind::kInt64:
      return TextColumnType{Kind::kInt64};
    case TypeKind::kFloat32:
      return TextColumnType{Kind::kFloat32};
    case TypeKind::kFloat64:
      return TextColumnType{Kind::kFloat64};
    case TypeKind::kBool:
      return TextColumnType{Kind::kBool};
    case TypeKind::kDate32:
      return TextColumnType{Kind::kDate};
    case TypeKind::kTimestamp:
      if (type.unit() != TimeUnit::kMicro) break;
      return TextColumnType{type.utc() ? Kind::kTimestampTz : Kind::kTimestamp};
    case TypeKind::kDecimal128:
      return TextColumnType{Kind::kDecimal, type.precision(), type.scale()};
    case TypeKind::kString:
      return TextColumnType{Kind::kString};
    default:
      break;
  }
  return Unsupported("text cannot be read as {}", type.ToString());
}

DataTypePtr TextColumnType::ToDataType() const {
  switch (kind) {
    case Kind::kInt32:
      return DataType::Int32();
    case Kind::kInt64:
      return DataType::Int64();
    case Kind::kFloat32:
      return DataType::Float32();
    case Kind::kFloat64:
      return DataType::Float64();
    case Kind::kBool:
      return DataType::Bool();
    case Kind::kDate:
      return DataType::Date32();
    case Kind::kTimestamp:
      return DataType::Timestamp(TimeUnit::kMicro, false);
    case Kind::kTimestampTz:
      return DataType::Timestamp(TimeUnit::kMicro, true);
    case Kind::kDecimal:
      return DataType::Decimal128(precision, scale);
    case Kind::kString:
      break;
  }
  return DataType::String();
}

Status TextColumnType::Append(std::string_view cell, ArrayBuilder& builder) const {
  switch (kind) {
    case Kind::kInt32: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, ParseNumber<int32_t>(cell, "a 32-bit integer"));
      static_cast<Int32Builder&>(builder).Append(v);
      return {};
    }
    case Kind::kInt64: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, ParseNumber<int64_t>(cell, "an integer"));
      static_cast<Int64Builder&>(builder).Append(v);
      return {};
    }
    case Kind::kFloat32: {
      FLOE_ASSIGN_OR_RETURN(float v, ParseNumber<float>(cell, "a number"));
      static_cast<Float32Builder&>(builder).Append(v);
      return {};
    }
    case Kind::kFloat64: {
      FLOE_ASSIGN_OR_RETURN(double v, ParseNumber<double>(cell, "a number"));
      static_cast<Float64Builder&>(builder).Append(v);
      return {};
    }
    case Kind::kBool: {
      FLOE_ASSIGN_OR_RETURN(bool v, ParseBool(cell));
      static_cast<BooleanBuilder&>(builder).Append(v);
      return {};
    }
    case Kind::kDate: {
      FLOE_ASSIGN_OR_RETURN(int64_t days, ParseDate(cell));
      static_cast<Date32Builder&>(builder).Append(static_cast<int32_t>(days));
      return {};
    }
    case Kind::kTimestamp:
    case Kind::kTimestampTz: {
      FLOE_ASSIGN_OR_RETURN(int64_t micros, ParseTimestampCell(cell, kind == Kind::kTimestampTz));
      static_cast<TimestampBuilder&>(builder).Append(micros);
      return {};
    }
    case Kind::kDecimal: {
      FLOE_ASSIGN_OR_RETURN(__int128 v, ParseDecimalCell(cell, precision, scale));
      static_cast<Decimal128Builder&>(builder).Append(v);
      return {};
    }
    case Kind::kString:
      break;
  }
  static_cast<StringBuilder&>(builder).Append(cell);
  return {};
}

TextColumnType InferTextColumnType(std::span<const std::string_view> cells) {
  if (cells.empty()) return {};
  for (Kind kind : {Kind::kInt64, Kind::kFloat64, Kind::kBool, Kind::kDate, Kind::kTimestamp,
                    Kind::kTimestampTz}) {
    TextColumnType type{kind};
    if (AllParse(cells, type)) return type;
  }
  return {};
}

Result<std::map<std::string, TextColumnType>> ParseTextSchema(std::string_view text) {
  std::map<std::string, TextColumnType> columns;
  while (!text.empty()) {
    // Commas inside parentheses (decimal(15,2)) do not end a column.
    size_t end = 0;
    int depth = 0;
    for (; end < text.size() && (text[end] != ',' || depth > 0); ++end) {
      depth += text[end] == '(' ? 1 : text[end] == ')' ? -1 : 0;
    }
    std::string_view item = text.substr(0, end);
    text.remove_prefix(std::min(text.size(), end + 1));
    size_t colon = item.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return InvalidArgument("--schema: '{}' is not name:type", item);
    }
    std::string name(item.substr(0, colon));
    auto type = PrimitiveTypeFromString(item.substr(colon + 1));
    if (!type) return InvalidArgument("--schema: column {}: {}", name, type.error().message());
    TextColumnType column;
    switch ((*type)->id()) {
      case TypeId::kInt:
        column.kind = Kind::kInt32;
        break;
      case TypeId::kLong:
        column.kind = Kind::kInt64;
        break;
      case TypeId::kFloat:
        column.kind = Kind::kFloat32;
        break;
      case TypeId::kDouble:
        column.kind = Kind::kFloat64;
        break;
      case TypeId::kBoolean:
        column.kind = Kind::kBool;
        break;
      case TypeId::kDate:
        column.kind = Kind::kDate;
        break;
      case TypeId::kTimestamp:
        column.kind = Kind::kTimestamp;
        break;
      case TypeId::kTimestampTz:
        column.kind = Kind::kTimestampTz;
        break;
      case TypeId::kDecimal: {
        const auto& decimal = static_cast<const PrimitiveType&>(**type);
        column.kind = Kind::kDecimal;
        column.precision = decimal.precision();
        column.scale = decimal.scale();
        break;
      }
      case TypeId::kString:
        column.kind = Kind::kString;
        break;
      default:
        return InvalidArgument("--schema: column {}: convert does not take {}", name,
                               (*type)->ToString());
    }
    if (!columns.emplace(name, column).second) {
      return InvalidArgument("--schema: column {} given twice", name);
    }
  }
  return columns;
}

}  // namespace floe::stream
