#include "floe/sql/scalar/result_format.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <variant>

#include "floe/batch/value.h"
#include "floe/util/calendar.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

// Java's Double.toString: plain decimals for 1e-3 <= |x| < 1e7, else d.dddE[-]n; always one
// digit after the point at least; the shortest digits that read back to the same value.
void AppendJavaFloating(double value, bool is_float, std::string& out) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "Infinity" : "-Infinity";
    return;
  }
  if (value == 0) {
    out += std::signbit(value) ? "-0.0" : "0.0";
    return;
  }
  // to_chars without a precision gives the shortest digits that read back: "1.5e+10", "-2e-05".
  char buffer[64];
  auto written = is_float ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value),
                                          std::chars_format::scientific)
                          : std::to_chars(buffer, buffer + sizeof buffer, value,
                                          std::chars_format::scientific);
  std::string digits(buffer, written.ptr);
  bool negative = digits.front() == '-';
  if (negative) digits.erase(0, 1);
  size_t e = digits.find('e');
  int exponent = std::stoi(digits.substr(e + 1));
  std::string mantissa = digits.substr(0, e);
  std::string significant;
  for (char c : mantissa) {
    if (c != '.') significant += c;
  }
  if (negative) out += '-';
  double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent >= 0) {
      size_t int_digits = static_cast<size_t>(exponent) + 1;
      while (significant.size() < int_digits) significant += '0';
      out += significant.substr(0, int_digits);
      out += '.';
      std::string fraction = significant.substr(int_digits);
      out += fraction.empty() ? "0" : fraction;
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += significant;
    }
    return;
  }
  out += significant.front();
  out += '.';
  out += significant.size() > 1 ? significant.substr(1) : "0";
  out += 'E';
  out += std::to_string(exponent);
}

template <typename Items, typename AppendItem>
void AppendJoined(const Items& items, char open, char close, AppendItem append, std::string& out) {
  out += open;
  bool first = true;
  int i = 0;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    append(item, i++);
  }
  out += close;
}

void AppendCell(const Value& value, const DataType* type, std::string_view null_text,
                std::string& out) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          out += null_text;
        } else if constexpr (std::is_same_v<T, bool>) {
          out += v ? "TRUE" : "FALSE";
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) {
          out += std::to_string(v);
        } else if constexpr (std::is_same_v<T, float>) {
          AppendJavaFloating(v, true, out);
        } else if constexpr (std::is_same_v<T, double>) {
          AppendJavaFloating(v, false, out);
        } else if constexpr (std::is_same_v<T, DecimalValue> || std::is_same_v<T, DateValue>) {
          std::string json = value.ToJson();  // "14.20", "2024-01-02"
          out.append(json, 1, json.size() - 2);
        } else if constexpr (std::is_same_v<T, TimeValue>) {
          std::string json;  // "10:30:00.123"
          AppendJson(value, type ? *type : *DataType::Time64(v.unit), json);
          out.append(json, 1, json.size() - 2);
        } else if constexpr (std::is_same_v<T, TimestampValue>) {
          int64_t per_second = v.unit == TimeUnit::kNano ? 1'000'000'000 : 1'000'000;
          std::string iso;
          AppendIsoTimestamp(iso, v.value, per_second, false,
                             ShownPrecision(type, TypeKind::kTimestamp));
          iso[iso.find('T')] = ' ';
          out += iso;
        } else if constexpr (std::is_same_v<T, std::string>) {
          out += v;
        } else if constexpr (std::is_same_v<T, BinaryValue>) {
          out += "x'";
          AppendHex(out, v.bytes);
          out += '\'';
        } else if constexpr (std::is_same_v<T, ListValue>) {
          const DataType* element = MemberType(type, TypeKind::kList, 0);
          AppendJoined(
              v.elements, '[', ']',
              [&](const Value& e, int) { AppendCell(e, element, null_text, out); }, out);
        } else if constexpr (std::is_same_v<T, StructValue>) {
          AppendJoined(
              v.fields, '(', ')',
              [&](const auto& f, int i) {
                AppendCell(f.second, MemberType(type, TypeKind::kStruct, i), null_text, out);
              },
              out);
        } else {
          static_assert(std::is_same_v<T, MapValue>);
          const DataType* entry = MemberType(type, TypeKind::kMap, 0);
          AppendJoined(
              v.entries, '{', '}',
              [&](const auto& e, int) {
                AppendCell(e.first, MemberType(entry, TypeKind::kStruct, 0), null_text, out);
                out += '=';
                AppendCell(e.second, MemberType(entry, TypeKind::kStruct, 1), null_text, out);
              },
              out);
        }
      },
      value.variant());
}

}  // namespace

std::string FormatCell(const Array& column, int64_t row, const floe::DataType& type,
                       std::string_view null_text) {
  std::string out;
  Value value = GetValue(column, row);
  if (value.is_null()) {
    out += null_text;
    return out;
  }
  // Inside an array, map or row the tableau writes what Flink's CAST to STRING writes: NULL.
  AppendCell(value, &type, null_text == kNullText ? kNestedNullText : null_text, out);
  return out;
}

std::string FormatCell(const Array& column, int64_t row, std::string_view null_text) {
  return FormatCell(column, row, *column.type(), null_text);
}

std::string JsonLine(const BatchSchema& schema, const RecordBatch& batch, int64_t row,
                     bool row_kind) {
  std::string json = "{";
  if (row_kind) json += fmt::format(R"("op":"{}")", RowKindSymbol(batch.row_kind(row)));
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (json.size() > 1) json += ',';
    const Field& field = schema.field(c);
    AppendJsonString(json, field.name);
    json += ':';
    AppendJson(GetValue(batch.column(c), row), *field.type, json);
  }
  json += '}';
  return json;
}

}  // namespace floe::sql
