#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "floe/batch/builder.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/decimal_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/scalar/temporal_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/calendar.h"

namespace floe::sql::scalar {
namespace {

bool IsTemporal(const DataType& type) {
  return type.kind() == TypeKind::kDate32 || type.kind() == TypeKind::kTime64 ||
         type.kind() == TypeKind::kTimestamp;
}

int64_t UnitsPerSecond(const DataType& type) {
  return type.unit() == TimeUnit::kNano ? 1'000'000'000 : kMicrosPerSecond;
}

int FractionDigits(const DataType& type) { return type.unit() == TimeUnit::kNano ? 9 : 6; }

Error CastError(const Array& input, int64_t i, const DataType& target, std::string_view what) {
  return Error(ErrorKind::kInvalidArgument,
               fmt::format("{}: cannot cast {} '{}' to {}", what, SqlTypeName(*input.type()),
                           FormatCell(input, i), SqlTypeName(target)));
}

// A cast into fixed-width values: convert(i, out) converts valid row i, false when it cannot.
template <typename T, typename Convert>
Result<Array> CastFixed(const Array& input, const DataTypePtr& target, bool safe,
                        std::string_view what, Convert&& convert) {
  const int64_t n = input.length();
  BufferBuilder validity;
  validity.Resize(bit_util::BytesForBits(n));
  uint8_t* valid = validity.mutable_data();
  BufferBuilder values;
  values.Resize(n * static_cast<int64_t>(sizeof(T)));
  T* out = values.mutable_data_as<T>();
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (input.IsNull(i)) {
      ++nulls;
      continue;
    }
    if (convert(i, out[i])) {
      bit_util::SetBit(valid, i);
    } else if (safe) {
      out[i] = T{};
      ++nulls;
    } else {
      return std::unexpected(CastError(input, i, *target, what));
    }
  }
  return Array(target, n, nulls ? validity.Finish() : Buffer(), values.Finish(), {}, {}, nulls);
}

template <typename Convert>
Result<Array> CastBool(const Array& input, bool safe, std::string_view what, Convert&& convert) {
  const int64_t n = input.length();
  BufferBuilder validity;
  validity.Resize(bit_util::BytesForBits(n));
  BufferBuilder values;
  values.Resize(bit_util::BytesForBits(n));
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (input.IsNull(i)) {
      ++nulls;
      continue;
    }
    bool value = false;
    if (convert(i, value)) {
      bit_util::SetBit(validity.mutable_data(), i);
      if (value) bit_util::SetBit(values.mutable_data(), i);
    } else if (safe) {
      ++nulls;
    } else {
      return std::unexpected(CastError(input, i, *DataType::Bool(), what));
    }
  }
  return Array(DataType::Bool(), n, nulls ? validity.Finish() : Buffer(), values.Finish(), {}, {},
               nulls);
}

template <typename S, typename T>
bool ConvertNumber(S v, const DataType& from, const DataType& to, T& out) {
  constexpr bool kFromDecimal = std::is_same_v<S, int128>;
  constexpr bool kToDecimal = std::is_same_v<T, int128>;
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (kFromDecimal) {
      out = static_cast<T>(std::strtod(DecimalToString(v, from.scale()).c_str(), nullptr));
    } else {
      out = static_cast<T>(v);
    }
    return true;
  } else if constexpr (kToDecimal) {
    std::optional<int128> scaled;
    if constexpr (kFromDecimal) {
      scaled = Rescale(v, from.scale(), to.scale());
    } else if constexpr (std::is_floating_point_v<S>) {
      // The shortest digits that read back as the value, rounded as decimal text: Flink goes
      // through BigDecimal.valueOf(double), so CAST(2.675E0 AS DECIMAL(3, 2)) is 2.68.
      if (!std::isfinite(v)) return false;
      char buffer[64];
      auto written = std::to_chars(buffer, buffer + sizeof buffer, static_cast<double>(v));
      scaled = ParseDecimal(std::string_view(buffer, written.ptr), to.precision(), to.scale());
    } else {
      scaled = Rescale(static_cast<int128>(v), 0, to.scale());
    }
    if (!scaled || !FitsPrecision(*scaled, to.precision())) return false;
    out = *scaled;
    return true;
  } else {
    int128 whole;
    if constexpr (kFromDecimal) {
      whole = v / Pow10(from.scale());  // truncates toward zero, as BigDecimal.longValue
    } else if constexpr (std::is_floating_point_v<S>) {
      if (!std::isfinite(v) || std::fabs(v) >= 1e38) return false;
      whole = static_cast<int128>(std::trunc(static_cast<double>(v)));
    } else {
      whole = v;
    }
    if (whole < std::numeric_limits<T>::min() || whole > std::numeric_limits<T>::max()) {
      return false;
    }
    out = static_cast<T>(whole);
    return true;
  }
}

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Flink reads integers from text with an optional sign and ignores a fractional part
// (BinaryStringDataUtil.toLong: "1.9" is 1).
std::optional<int128> ParseInteger(std::string_view text) {
  text = TrimSpaces(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  int128 value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    value = value * 10 + (text[i] - '0');
    if (value > Pow10(20)) return std::nullopt;
  }
  if (i == 0) return std::nullopt;
  if (i < text.size()) {
    if (text[i] != '.') return std::nullopt;
    for (++i; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
    }
  }
  return negative ? -value : value;
}

std::optional<double> ParseFloating(std::string_view text) {
  text = TrimSpaces(text);
  if (text == "NaN") return std::nan("");
  if (text == "Infinity" || text == "+Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<bool> ParseBoolean(std::string_view text) {
  text = TrimSpaces(text);
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "t" || lower == "yes" || lower == "y" || lower == "1") {
    return true;
  }
  if (lower == "false" || lower == "f" || lower == "no" || lower == "n" || lower == "0") {
    return false;
  }
  return std::nullopt;
}

Result<Array> CastFromString(const Array& input, const DataTypePtr& target, bool safe,
                             std::string_view what) {
  const DataType& to = *target;
  if (to.kind() == TypeKind::kBool) {
    return CastBool(input, safe, what, [&](int64_t i, bool& out) {
      std::optional<bool> b = ParseBoolean(input.GetView(i));
      if (b) out = *b;
      return b.has_value();
    });
  }
  if (to.kind() == TypeKind::kDate32) {
    return CastFixed<int32_t>(input, target, safe, what, [&](int64_t i, int32_t& out) {
      std::optional<int32_t> days = ParseDateText(input.GetView(i));
      if (days) out = *days;
      return days.has_value();
    });
  }
  if (to.kind() == TypeKind::kTime64 || to.kind() == TypeKind::kTimestamp) {
    const int digits = FractionDigits(to);
    const bool time = to.kind() == TypeKind::kTime64;
    return CastFixed<int64_t>(input, target, safe, what, [&](int64_t i, int64_t& out) {
      std::optional<int64_t> v = time ? ParseTimeText(input.GetView(i), digits)
                                      : ParseTimestampText(input.GetView(i), digits);
      if (v) out = *v;
      return v.has_value();
    });
  }
  std::optional<Result<Array>> out =
      DispatchFixed(to.kind(), [&](auto tag) -> std::optional<Result<Array>> {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, std::monostate>) {
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, int128>) {
          return CastFixed<T>(input, target, safe, what, [&](int64_t i, T& value) {
            std::optional<int128> v = ParseDecimal(input.GetView(i), to.precision(), to.scale());
            if (v) value = *v;
            return v.has_value();
          });
        } else if constexpr (std::is_floating_point_v<T>) {
          return CastFixed<T>(input, target, safe, what, [&](int64_t i, T& value) {
            std::optional<double> v = ParseFloating(input.GetView(i));
            if (v) value = static_cast<T>(*v);
            return v.has_value();
          });
        } else {
          return CastFixed<T>(input, target, safe, what, [&](int64_t i, T& value) {
            std::optional<int128> v = ParseInteger(input.GetView(i));
            if (!v || *v < std::numeric_limits<T>::min() || *v > std::numeric_limits<T>::max()) {
              return false;
            }
            value = static_cast<T>(*v);
            return true;
          });
        }
      });
  if (out) return *std::move(out);
  return InvalidArgument("{}: cannot cast STRING to {}", what, SqlTypeName(to));
}

// `shown` is the input's declared type: a TIMESTAMP(3) becomes "2024-01-02 10:30:00.000".
Result<Array> CastToString(const Array& input, const DataType& shown, const DataTypePtr& target) {
  if (input.kind() == TypeKind::kBinary || input.kind() == TypeKind::kString) {
    return Array(target, input.length(), input.validity(), input.values(), input.data(), {},
                 input.null_count(), input.offset());
  }
  StringColumn column(input.length(), target);
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      column.AppendNull();
    } else if (input.kind() == TypeKind::kFixedSizeBinary) {
      column.Append(input.GetView(i));
    } else {
      column.Append(FormatCell(input, i, shown));
    }
  }
  return column.Finish();
}

// BINARY(n) as Flink casts to it: shorter values padded with zero bytes, longer ones cut.
Result<Array> CastToFixed(const Array& input, const DataTypePtr& target) {
  const size_t width = static_cast<size_t>(target->byte_width());
  FixedSizeBinaryBuilder builder(target);
  builder.Reserve(input.length());
  std::string padded;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    padded.assign(input.GetView(i).substr(0, width));
    padded.resize(width, '\0');
    builder.Append(padded);
  }
  return builder.Finish();
}

Result<Array> CastNumeric(const Array& input, const DataTypePtr& target, bool safe,
                          std::string_view what) {
  const DataType& from = *input.type();
  const DataType& to = *target;
  if (to.kind() == TypeKind::kBool) {
    return DispatchFixed(from.kind(), [&](auto tag) -> Result<Array> {
      using S = decltype(tag);
      if constexpr (std::is_same_v<S, std::monostate>) {
        return InternalError("not numeric");
      } else {
        const S* values = input.Values<S>().data();
        return CastBool(input, safe, what, [&](int64_t i, bool& out) {
          out = values[i] != S{};
          return true;
        });
      }
    });
  }
  if (from.kind() == TypeKind::kBool) {
    return DispatchFixed(to.kind(), [&](auto tag) -> Result<Array> {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, std::monostate>) {
        return InternalError("not numeric");
      } else {
        return CastFixed<T>(input, target, safe, what, [&](int64_t i, T& out) {
          const int64_t one = input.GetBool(i) ? 1 : 0;
          return ConvertNumber<int64_t, T>(one, *DataType::Int64(), to, out);
        });
      }
    });
  }
  return DispatchFixed(from.kind(), [&](auto source_tag) -> Result<Array> {
    using S = decltype(source_tag);
    if constexpr (std::is_same_v<S, std::monostate>) {
      return InternalError("not numeric");
    } else {
      const S* values = input.Values<S>().data();
      return DispatchFixed(to.kind(), [&](auto target_tag) -> Result<Array> {
        using T = decltype(target_tag);
        if constexpr (std::is_same_v<T, std::monostate>) {
          return InternalError("not numeric");
        } else {
          return CastFixed<T>(input, target, safe, what, [&](int64_t i, T& out) {
            return ConvertNumber<S, T>(values[i], from, to, out);
          });
        }
      });
    }
  });
}

Result<Array> CastTemporal(const Array& input, const DataTypePtr& target, bool safe,
                           std::string_view what) {
  const DataType& from = *input.type();
  const DataType& to = *target;
  if (from.kind() == TypeKind::kDate32 && to.kind() == TypeKind::kTimestamp) {
    const int64_t per_day = 86'400 * UnitsPerSecond(to);
    const int32_t* days = input.Values<int32_t>().data();
    return CastFixed<int64_t>(input, target, safe, what, [&](int64_t i, int64_t& out) {
      out = days[i] * per_day;
      return true;
    });
  }
  if (from.kind() == TypeKind::kTimestamp) {
    const int64_t per_second = UnitsPerSecond(from);
    const int64_t* values = input.Values<int64_t>().data();
    if (to.kind() == TypeKind::kDate32) {
      return CastFixed<int32_t>(input, target, safe, what, [&](int64_t i, int32_t& out) {
        out = static_cast<int32_t>(FloorDiv(values[i], 86'400 * per_second));
        return true;
      });
    }
    if (to.kind() == TypeKind::kTime64) {
      return CastFixed<int64_t>(input, target, safe, what, [&](int64_t i, int64_t& out) {
        out = FloorMod(values[i], 86'400 * per_second) * kMicrosPerSecond / per_second;
        return true;
      });
    }
    if (to.kind() == TypeKind::kTimestamp) {
      // Flink's session time zone is UTC here, so TIMESTAMP <-> TIMESTAMP_LTZ keep the value.
      const int64_t to_per_second = UnitsPerSecond(to);
      return CastFixed<int64_t>(input, target, safe, what, [&](int64_t i, int64_t& out) {
        if (to_per_second == per_second) {
          out = values[i];
          return true;
        }
        if (to_per_second < per_second) {
          out = FloorDiv(values[i], per_second / to_per_second);
          return true;
        }
        return !__builtin_mul_overflow(values[i], to_per_second / per_second, &out);
      });
    }
  }
  if (from.kind() == TypeKind::kTime64 && to.kind() == TypeKind::kTime64) {
    const int64_t* values = input.Values<int64_t>().data();
    const int64_t from_per_second = UnitsPerSecond(from);
    const int64_t to_per_second = UnitsPerSecond(to);
    return CastFixed<int64_t>(input, target, safe, what, [&](int64_t i, int64_t& out) {
      out = values[i] * to_per_second / from_per_second;
      return true;
    });
  }
  return InvalidArgument("{}: cannot cast {} to {}", what, SqlTypeName(from), SqlTypeName(to));
}

// A TIME(p) or TIMESTAMP(p) keeps p fraction digits: a cast into one drops finer digits (towards
// the past), as Flink's casts truncate to the target precision.
Result<Array> TruncateFraction(const Array& values, const DataTypePtr& target,
                               std::string_view what) {
  if (target->kind() != TypeKind::kTime64 && target->kind() != TypeKind::kTimestamp) return values;
  int64_t factor = 1;
  for (int digits = FractionDigits(*target); digits > target->precision(); --digits) factor *= 10;
  if (factor == 1) return values;
  const int64_t* v = values.Values<int64_t>().data();
  return CastFixed<int64_t>(values, target, false, what, [&](int64_t i, int64_t& out) {
    out = v[i] - FloorMod(v[i], factor);
    return true;
  });
}

Result<Array> CastValues(const Array& input, const DataType* input_type, const DataTypePtr& target,
                         bool safe, std::string_view what);

}  // namespace

bool CanCast(const DataType& from, const DataType& to) {
  if (from.Equals(to) || IsNullType(from)) return true;
  if (from.is_nested() || to.is_nested()) {
    // ARRAY, MAP and ROW cast element by element (field by field), as Flink's casts of
    // constructed values into a table's nested columns do.
    if (from.kind() != to.kind() || from.num_fields() != to.num_fields()) return false;
    for (int i = 0; i < from.num_fields(); ++i) {
      if (!CanCast(*from.field(i).type, *to.field(i).type)) return false;
    }
    return true;
  }
  if (IsString(to)) return true;
  if (IsString(from)) {
    return IsNumeric(to) || IsTemporal(to) || to.kind() == TypeKind::kBool ||
           to.kind() == TypeKind::kBinary || to.kind() == TypeKind::kFixedSizeBinary;
  }
  const bool from_number = IsNumeric(from) || from.kind() == TypeKind::kBool;
  const bool to_number = IsNumeric(to) || to.kind() == TypeKind::kBool;
  if (from_number && to_number) return true;
  if (from.kind() == TypeKind::kDate32) return to.kind() == TypeKind::kTimestamp;
  if (from.kind() == TypeKind::kTimestamp) return IsTemporal(to);
  if (from.kind() == TypeKind::kTime64) return to.kind() == TypeKind::kTime64;
  if (from.is_binary_like() || from.kind() == TypeKind::kFixedSizeBinary) {
    return to.kind() == TypeKind::kBinary || to.kind() == TypeKind::kFixedSizeBinary;
  }
  return false;
}

Result<Array> CastArray(const Array& input, const DataTypePtr& target, bool safe,
                        std::string_view what, const DataType* input_type) {
  FLOE_ASSIGN_OR_RETURN(Array cast, CastValues(input, input_type, target, safe, what));
  return TruncateFraction(cast, target, what);
}

namespace {

Result<Array> CastValues(const Array& input, const DataType* input_type, const DataTypePtr& target,
                         bool safe, std::string_view what) {
  const DataType& from = *input.type();
  if (from.Equals(*target)) return input;
  if (IsNullType(from)) return Array::MakeNulls(target, input.length());
  if (!CanCast(from, *target)) {
    return InvalidArgument("{}: cannot cast {} to {}", what, SqlTypeName(from),
                           SqlTypeName(*target));
  }
  if (from.is_nested()) {
    std::vector<Array> children;
    for (int i = 0; i < input.num_children(); ++i) {
      FLOE_ASSIGN_OR_RETURN(Array child,
                            CastArray(input.children()[i], target->field(i).type, safe, what));
      children.push_back(std::move(child));
    }
    return Array(target, input.length(), input.validity(), input.values(), input.data(),
                 std::move(children), input.null_count(), input.offset());
  }
  if (IsString(*target)) return CastToString(input, input_type ? *input_type : from, target);
  if (target->kind() == TypeKind::kBinary) {
    if (from.kind() == TypeKind::kFixedSizeBinary) {
      StringColumn column(input.length(), target);
      for (int64_t i = 0; i < input.length(); ++i) {
        if (input.IsNull(i)) {
          column.AppendNull();
        } else {
          column.Append(input.GetView(i));
        }
      }
      return column.Finish();
    }
    return Array(target, input.length(), input.validity(), input.values(), input.data(), {},
                 input.null_count(), input.offset());
  }
  if (target->kind() == TypeKind::kFixedSizeBinary) return CastToFixed(input, target);
  if (IsString(from)) return CastFromString(input, target, safe, what);
  const bool from_number = IsNumeric(from) || from.kind() == TypeKind::kBool;
  if (from_number) {
    if (from.kind() == TypeKind::kBool && target->kind() == TypeKind::kBool) return input;
    return CastNumeric(input, target, safe, what);
  }
  return CastTemporal(input, target, safe, what);
}

}  // namespace

Result<ScalarExprPtr> MakeCast(ScalarExprPtr input, const DataTypePtr& target, bool safe,
                               std::string text, std::string what, bool implicit) {
  if (!CanCast(*input->type(), *target)) {
    return InvalidArgument("{}: cannot cast {} to {}", what.empty() ? text : what,
                           SqlTypeName(*input->type()), SqlTypeName(*target));
  }
  if (what.empty()) what = text;
  const bool nullable = input->nullable() || safe;
  return MakeCall(
      implicit ? NodeKind::kCoerce : NodeKind::kCall, {input}, target, nullable, std::move(text),
      [source = input->type(), target, safe, what](std::span<const Array> args, int64_t) {
        return CastArray(args[0], target, safe, what, source.get());
      });
}

Result<ScalarExprPtr> Coerce(ScalarExprPtr input, const DataTypePtr& target) {
  if (SameSqlType(*input->type(), *target)) return input;
  std::string text = input->ToString();
  return MakeCast(std::move(input), target, false, std::move(text), {}, true);
}

}  // namespace floe::sql::scalar
