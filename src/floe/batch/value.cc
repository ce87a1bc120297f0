#include "floe/batch/value.h"

#include <fmt/core.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>
#include <utility>

#include "floe/batch/array.h"
#include "floe/batch/builder.h"
#include "floe/util/calendar.h"
#include "floe/util/json.h"

namespace floe {

bool operator==(const Value& a, const Value& b) { return a.value_ == b.value_; }
bool operator==(const ListValue& a, const ListValue& b) { return a.elements == b.elements; }
bool operator==(const StructValue& a, const StructValue& b) { return a.fields == b.fields; }
bool operator==(const MapValue& a, const MapValue& b) { return a.entries == b.entries; }

float HalfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) {
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {
    // Subnormal (or zero): mantissa * 2^-24.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

namespace {

void AppendDecimal(__int128 unscaled, int32_t scale, std::string& out) {
  bool negative = unscaled < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(unscaled)
               : static_cast<unsigned __int128>(unscaled);
  char buffer[48];
  int n = 0;
  do {
    buffer[n++] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  std::string digits(std::make_reverse_iterator(buffer + n), std::make_reverse_iterator(buffer));
  if (negative) out.push_back('-');
  if (scale <= 0) {
    out += digits;
    if (scale < 0) fmt::format_to(std::back_inserter(out), "E+{}", -static_cast<int64_t>(scale));
    return;
  }
  if (static_cast<int64_t>(digits.size()) <= scale) {
    digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
  }
  out.append(digits, 0, digits.size() - scale);
  out.push_back('.');
  out.append(digits, digits.size() - scale, std::string::npos);
}

int64_t UnitsPerSecond(TimeUnit unit) { return unit == TimeUnit::kMicro ? 1000000 : 1000000000; }

void AppendTimestamp(int64_t value, TimeUnit unit, bool utc, int precision, std::string& out) {
  AppendIsoTimestamp(out, value, UnitsPerSecond(unit), utc, precision);
}

void AppendTime(int64_t value, TimeUnit unit, int precision, std::string& out) {
  int64_t per_day = UnitsPerSecond(unit) * 86400;
  if (value < 0 || value >= per_day) {
    // Out of a day's range: not a time of day, show the raw count rather than a wrong clock.
    fmt::format_to(std::back_inserter(out), "{}", value);
    return;
  }
  AppendIsoTimeOfDay(out, value, UnitsPerSecond(unit), precision);
}

template <typename F>
void AppendFloating(F value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else if (value == std::trunc(value) && std::fabs(value) < F(1e15)) {
    fmt::format_to(std::back_inserter(out), "{:.1f}", value);
  } else {
    // Shortest text that reads back as the same F (float prints 0.1f as 0.1).
    fmt::format_to(std::back_inserter(out), "{}", value);
  }
}

void AppendQuoted(auto&& append, std::string& out) {
  out.push_back('"');
  append();
  out.push_back('"');
}

void AppendJsonOf(const Value& value, const DataType* type, std::string& out) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          out += "null";
        } else if constexpr (std::is_same_v<T, bool>) {
          out += v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) {
          fmt::format_to(std::back_inserter(out), "{}", v);
        } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          AppendFloating(v, out);
        } else if constexpr (std::is_same_v<T, DecimalValue>) {
          AppendQuoted([&] { AppendDecimal(v.unscaled, v.scale, out); }, out);
        } else if constexpr (std::is_same_v<T, DateValue>) {
          AppendQuoted([&] { AppendIsoDate(out, v.days); }, out);
        } else if constexpr (std::is_same_v<T, TimeValue>) {
          AppendQuoted(
              [&] { AppendTime(v.value, v.unit, ShownPrecision(type, TypeKind::kTime64), out); },
              out);
        } else if constexpr (std::is_same_v<T, TimestampValue>) {
          AppendQuoted(
              [&] {
                AppendTimestamp(v.value, v.unit, v.utc, ShownPrecision(type, TypeKind::kTimestamp),
                                out);
              },
              out);
        } else if constexpr (std::is_same_v<T, std::string>) {
          AppendJsonString(out, v);
        } else if constexpr (std::is_same_v<T, BinaryValue>) {
          AppendQuoted([&] { AppendHex(out, v.bytes); }, out);
        } else if constexpr (std::is_same_v<T, ListValue>) {
          out.push_back('[');
          for (size_t i = 0; i < v.elements.size(); ++i) {
            if (i > 0) out.push_back(',');
            AppendJsonOf(v.elements[i], MemberType(type, TypeKind::kList, 0), out);
          }
          out.push_back(']');
        } else if constexpr (std::is_same_v<T, StructValue>) {
          out.push_back('{');
          for (size_t i = 0; i < v.fields.size(); ++i) {
            if (i > 0) out.push_back(',');
            AppendJsonString(out, v.fields[i].first);
            out.push_back(':');
            AppendJsonOf(v.fields[i].second,
                         MemberType(type, TypeKind::kStruct, static_cast<int>(i)), out);
          }
          out.push_back('}');
        } else {
          static_assert(std::is_same_v<T, MapValue>);
          out.push_back('[');
          for (size_t i = 0; i < v.entries.size(); ++i) {
            if (i > 0) out.push_back(',');
            const DataType* entry = MemberType(type, TypeKind::kMap, 0);
            out += "{\"key\":";
            AppendJsonOf(v.entries[i].first, MemberType(entry, TypeKind::kStruct, 0), out);
            out += ",\"value\":";
            AppendJsonOf(v.entries[i].second, MemberType(entry, TypeKind::kStruct, 1), out);
            out.push_back('}');
          }
          out.push_back(']');
        }
      },
      value.variant());
}

}  // namespace

const DataType* MemberType(const DataType* type, TypeKind kind, int i) {
  if (type == nullptr || type->kind() != kind || i >= type->num_fields()) return nullptr;
  return type->field(static_cast<size_t>(i)).type.get();
}

int ShownPrecision(const DataType* type, TypeKind kind) {
  return type != nullptr && type->kind() == kind ? type->precision() : 9;
}

void AppendJson(const Value& value, std::string& out) { AppendJsonOf(value, nullptr, out); }

void AppendJson(const Value& value, const DataType& type, std::string& out) {
  AppendJsonOf(value, &type, out);
}

std::string Value::ToJson() const {
  std::string out;
  AppendJson(*this, out);
  return out;
}

Value GetValue(const Array& array, int64_t i) {
  if (array.IsNull(i)) return Value();
  const DataType& type = *array.type();
  switch (type.kind()) {
    case TypeKind::kNull:
      return Value();
    case TypeKind::kBool:
      return Value(array.GetBool(i));
    case TypeKind::kInt8:
      return Value(int64_t{array.Value<int8_t>(i)});
    case TypeKind::kInt16:
      return Value(int64_t{array.Value<int16_t>(i)});
    case TypeKind::kInt32:
      return Value(int64_t{array.Value<int32_t>(i)});
    case TypeKind::kInt64:
      return Value(array.Value<int64_t>(i));
    case TypeKind::kUInt8:
      return Value(uint64_t{array.Value<uint8_t>(i)});
    case TypeKind::kUInt16:
      return Value(uint64_t{array.Value<uint16_t>(i)});
    case TypeKind::kUInt32:
      return Value(uint64_t{array.Value<uint32_t>(i)});
    case TypeKind::kUInt64:
      return Value(array.Value<uint64_t>(i));
    case TypeKind::kFloat16:
      return Value(HalfToFloat(array.Value<uint16_t>(i)));
    case TypeKind::kFloat32:
      return Value(array.Value<float>(i));
    case TypeKind::kFloat64:
      return Value(array.Value<double>(i));
    case TypeKind::kDecimal128:
      return Value(DecimalValue{array.GetDecimal(i), type.precision(), type.scale()});
    case TypeKind::kDate32:
      return Value(DateValue{array.Value<int32_t>(i)});
    case TypeKind::kTime64:
      return Value(TimeValue{array.Value<int64_t>(i), type.unit()});
    case TypeKind::kTimestamp:
      return Value(TimestampValue{array.Value<int64_t>(i), type.unit(), type.utc()});
    case TypeKind::kString:
    case TypeKind::kLargeString:
      return Value(std::string(array.GetView(i)));
    case TypeKind::kBinary:
    case TypeKind::kLargeBinary:
    case TypeKind::kFixedSizeBinary:
      return Value(BinaryValue{std::string(array.GetView(i))});
    case TypeKind::kList: {
      ListValue list;
      for (int64_t k = array.ValueOffset(i); k < array.ValueOffset(i + 1); ++k) {
        list.elements.push_back(GetValue(array.list_values(), k));
      }
      return Value(std::move(list));
    }
    case TypeKind::kStruct: {
      StructValue record;
      for (int f = 0; f < type.num_fields(); ++f) {
        record.fields.emplace_back(type.field(f).name,
                                   GetValue(array.child(f), array.offset() + i));
      }
      return Value(std::move(record));
    }
    case TypeKind::kMap: {
      MapValue map;
      const Array& entries = array.list_values();
      for (int64_t k = array.ValueOffset(i); k < array.ValueOffset(i + 1); ++k) {
        map.entries.emplace_back(GetValue(entries.child(0), entries.offset() + k),
                                 GetValue(entries.child(1), entries.offset() + k));
      }
      return Value(std::move(map));
    }
  }
  return Value();
}

void AppendJson(const Array& array, int64_t i, std::string& out) {
  if (array.IsNull(i)) {
    out += "null";
    return;
  }
  const DataType& type = *array.type();
  switch (type.kind()) {
    case TypeKind::kString:
    case TypeKind::kLargeString:
      AppendJsonString(out, array.GetView(i));
      return;
    case TypeKind::kBinary:
    case TypeKind::kLargeBinary:
    case TypeKind::kFixedSizeBinary:
      AppendQuoted([&] { AppendHex(out, array.GetView(i)); }, out);
      return;
    case TypeKind::kList: {
      out.push_back('[');
      for (int64_t k = array.ValueOffset(i); k < array.ValueOffset(i + 1); ++k) {
        if (k > array.ValueOffset(i)) out.push_back(',');
        AppendJson(array.list_values(), k, out);
      }
      out.push_back(']');
      return;
    }
    case TypeKind::kStruct: {
      out.push_back('{');
      for (int f = 0; f < type.num_fields(); ++f) {
        if (f > 0) out.push_back(',');
        AppendJsonString(out, type.field(f).name);
        out.push_back(':');
        AppendJson(array.child(f), array.offset() + i, out);
      }
      out.push_back('}');
      return;
    }
    case TypeKind::kMap: {
      const Array& entries = array.list_values();
      out.push_back('[');
      for (int64_t k = array.ValueOffset(i); k < array.ValueOffset(i + 1); ++k) {
        if (k > array.ValueOffset(i)) out.push_back(',');
        out += "{\"key\":";
        AppendJson(entries.child(0), entries.offset() + k, out);
        out += ",\"value\":";
        AppendJson(entries.child(1), entries.offset() + k, out);
        out.push_back('}');
      }
      out.push_back(']');
      return;
    }
    default:
      // Scalars allocate nothing as Values.
      AppendJson(GetValue(array, i), out);
      return;
  }
}

namespace {

std::string_view ValueKindName(const Value& value) {
  static constexpr std::string_view kNames[] = {"null",   "bool",    "int64", "uint64", "float",
                                                "double", "decimal", "date",  "time",   "timestamp",
                                                "string", "binary",  "list",  "struct", "map"};
  return kNames[value.variant().index()];
}

Status Mismatch(const ArrayBuilder& builder, const Value& value) {
  return InvalidArgument("cannot append a {} value ({}) to a {} column", ValueKindName(value),
                         value.ToJson(), builder.type()->ToString());
}

// The value as an integer of type T, when it is an integer that fits.
template <typename T>
std::optional<T> AsInteger(const Value& value) {
  if (value.is<int64_t>()) {
    int64_t v = value.get<int64_t>();
    if (std::in_range<T>(v)) return static_cast<T>(v);
  } else if (value.is<uint64_t>()) {
    uint64_t v = value.get<uint64_t>();
    if (std::in_range<T>(v)) return static_cast<T>(v);
  }
  return std::nullopt;
}

template <typename T>
Status AppendInteger(ArrayBuilder& builder, const Value& value) {
  std::optional<T> v = AsInteger<T>(value);
  if (!v) return Mismatch(builder, value);
  static_cast<NumericBuilder<T>&>(builder).Append(*v);
  return Ok();
}

template <typename F>
Status AppendFloating(ArrayBuilder& builder, const Value& value) {
  F v;
  if (value.is<double>()) {
    v = static_cast<F>(value.get<double>());
  } else if (value.is<float>()) {
    v = static_cast<F>(value.get<float>());
  } else if (value.is<int64_t>()) {
    v = static_cast<F>(value.get<int64_t>());
  } else {
    return Mismatch(builder, value);
  }
  static_cast<NumericBuilder<F>&>(builder).Append(v);
  return Ok();
}

}  // namespace

Status AppendValue(ArrayBuilder& builder, const Value& value) {
  if (value.is_null()) {
    builder.AppendNull();
    return Ok();
  }
  const DataType& type = *builder.type();
  switch (type.kind()) {
    case TypeKind::kNull:
      return Mismatch(builder, value);
    case TypeKind::kBool:
      if (!value.is<bool>()) return Mismatch(builder, value);
      static_cast<BooleanBuilder&>(builder).Append(value.get<bool>());
      return Ok();
    case TypeKind::kInt8:
      return AppendInteger<int8_t>(builder, value);
    case TypeKind::kInt16:
      return AppendInteger<int16_t>(builder, value);
    case TypeKind::kInt32:
      return AppendInteger<int32_t>(builder, value);
    case TypeKind::kInt64:
      return AppendInteger<int64_t>(builder, value);
    case TypeKind::kUInt8:
      return AppendInteger<uint8_t>(builder, value);
    case TypeKind::kUInt16:
      return AppendInteger<uint16_t>(builder, value);
    case TypeKind::kUInt32:
      return AppendInteger<uint32_t>(builder, value);
    case TypeKind::kUInt64:
      return AppendInteger<uint64_t>(builder, value);
    case TypeKind::kFloat16:
      return Unsupported("appending a Value to a float16 column");
    case TypeKind::kFloat32:
      return AppendFloating<float>(builder, value);
    case TypeKind::kFloat64:
      return AppendFloating<double>(builder, value);
    case TypeKind::kDecimal128:
      if (!value.is<DecimalValue>() || value.get<DecimalValue>().scale != type.scale()) {
        return Mismatch(builder, value);
      }
      static_cast<Decimal128Builder&>(builder).Append(value.get<DecimalValue>().unscaled);
      return Ok();
    case TypeKind::kDate32:
      if (!value.is<DateValue>()) return Mismatch(builder, value);
      static_cast<Date32Builder&>(builder).Append(value.get<DateValue>().days);
      return Ok();
    case TypeKind::kTime64:
      if (!value.is<TimeValue>() || value.get<TimeValue>().unit != type.unit()) {
        return Mismatch(builder, value);
      }
      static_cast<Time64Builder&>(builder).Append(value.get<TimeValue>().value);
      return Ok();
    case TypeKind::kTimestamp:
      if (!value.is<TimestampValue>() || value.get<TimestampValue>().unit != type.unit() ||
          value.get<TimestampValue>().utc != type.utc()) {
        return Mismatch(builder, value);
      }
      static_cast<TimestampBuilder&>(builder).Append(value.get<TimestampValue>().value);
      return Ok();
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kLargeString:
    case TypeKind::kLargeBinary:
    case TypeKind::kFixedSizeBinary: {
      std::string_view bytes;
      if (value.is<std::string>()) {
        bytes = value.get<std::string>();
      } else if (value.is<BinaryValue>() &&
                 (type.kind() != TypeKind::kString && type.kind() != TypeKind::kLargeString)) {
        bytes = value.get<BinaryValue>().bytes;
      } else {
        return Mismatch(builder, value);
      }
      if (type.kind() == TypeKind::kFixedSizeBinary) {
        if (static_cast<int64_t>(bytes.size()) != type.byte_width())
          return Mismatch(builder, value);
        static_cast<FixedSizeBinaryBuilder&>(builder).Append(bytes);
      } else if (type.is_large()) {
        static_cast<LargeStringBuilder&>(builder).Append(bytes);
      } else {
        static_cast<StringBuilder&>(builder).Append(bytes);
      }
      return Ok();
    }
    case TypeKind::kList: {
      if (!value.is<ListValue>()) return Mismatch(builder, value);
      auto& list = static_cast<ListBuilder&>(builder);
      list.Append();
      for (const Value& element : value.get<ListValue>().elements) {
        FLOE_RETURN_IF_ERROR(AppendValue(*list.value_builder(), element));
      }
      return Ok();
    }
    case TypeKind::kStruct: {
      if (!value.is<StructValue>() ||
          static_cast<int>(value.get<StructValue>().fields.size()) != type.num_fields()) {
        return Mismatch(builder, value);
      }
      auto& record = static_cast<StructBuilder&>(builder);
      const auto& fields = value.get<StructValue>().fields;
      for (int f = 0; f < type.num_fields(); ++f) {
        FLOE_RETURN_IF_ERROR_CTX(AppendValue(*record.field_builder(f), fields[f].second),
                                 type.field(f).name);
      }
      record.Append();
      return Ok();
    }
    case TypeKind::kMap: {
      if (!value.is<MapValue>()) return Mismatch(builder, value);
      auto& map = static_cast<MapBuilder&>(builder);
      map.Append();
      for (const auto& [key, item] : value.get<MapValue>().entries) {
        if (key.is_null()) return InvalidArgument("a map key is null");
        FLOE_RETURN_IF_ERROR(AppendValue(*map.key_builder(), key));
        FLOE_RETURN_IF_ERROR(AppendValue(*map.item_builder(), item));
      }
      return Ok();
    }
  }
  return Mismatch(builder, value);
}

Result<Array> MakeArray(const DataTypePtr& type, std::span<const Value> values) {
  auto builder = MakeBuilder(type);
  builder->Reserve(static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    FLOE_RETURN_IF_ERROR_CTX(AppendValue(*builder, values[i]), fmt::format("row {}", i));
  }
  return builder->Finish();
}

bool ArraysEqual(const Array& a, const Array& b) {
  if (!a.type() || !b.type() || !a.type()->Equals(*b.type()) || a.length() != b.length()) {
    return false;
  }
  for (int64_t i = 0; i < a.length(); ++i) {
    if (!(GetValue(a, i) == GetValue(b, i))) return false;
  }
  return true;
}

bool BatchesEqual(const RecordBatch& a, const RecordBatch& b) {
  if (a.num_rows() != b.num_rows() || !(*a.schema() == *b.schema())) return false;
  for (int64_t row = 0; row < a.num_rows(); ++row) {
    if (a.row_kind(row) != b.row_kind(row)) return false;
  }
  for (int c = 0; c < a.num_columns(); ++c) {
    if (!ArraysEqual(a.column(c), b.column(c))) return false;
  }
  return true;
}

Value RowView::Get(int column) const { return GetValue(batch_->column(column), row_); }

Value RowView::Get(std::string_view name) const {
  const Array* column = batch_->GetColumnByName(name);
  return column ? GetValue(*column, row_) : Value();
}

std::vector<Value> RowView::Values() const {
  std::vector<Value> values;
  values.reserve(batch_->num_columns());
  for (int c = 0; c < batch_->num_columns(); ++c) values.push_back(Get(c));
  return values;
}

std::string RowView::ToJson() const {
  std::string out;
  out.push_back('{');
  for (int c = 0; c < batch_->num_columns(); ++c) {
    if (c > 0) out.push_back(',');
    AppendJsonString(out, batch_->field(c).name);
    out.push_back(':');
    AppendJson(batch_->column(c), row_, out);
  }
  out.push_back('}');
  return out;
}

void AppendJsonLines(const RecordBatch& batch, std::string& out) {
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    out += RowView(batch, row).ToJson();
    out.push_back('\n');
  }
}

}  // namespace floe
