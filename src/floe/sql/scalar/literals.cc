#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/decimal_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/temporal_internal.h"

namespace floe::sql::scalar {
namespace {

// Digits after the point of the fraction in a literal's text.
int FractionDigitsOf(std::string_view text) {
  size_t point = text.find('.');
  if (point == std::string_view::npos) return 0;
  size_t end = point + 1;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  return static_cast<int>(end - point - 1);
}

Result<ScalarExprPtr> IntegerLiteral(const Expr& expr) {
  const std::string& text = expr.text;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && end == text.data() + text.size()) {
    // Flink types an integer literal INT when it fits, else BIGINT.
    DataTypePtr type =
        value >= INT32_MIN && value <= INT32_MAX ? DataType::Int32() : DataType::Int64();
    return MakeLiteral(Value(value), std::move(type), text);
  }
  std::string digits = text;
  while (digits.size() > 1 && digits.front() == '0') digits.erase(0, 1);
  const int precision = static_cast<int>(digits.size());
  std::optional<int128> unscaled = ParseDecimal(digits, 38, 0);
  if (precision > 38 || !unscaled) {
    return std::unexpected(ErrorAt(expr, fmt::format("number {} is out of range", text)));
  }
  return MakeLiteral(DecimalValue{*unscaled, precision, 0}, DataType::Decimal128(precision, 0),
                     text);
}

Result<ScalarExprPtr> DecimalLiteral(const Expr& expr) {
  const std::string& text = expr.text;
  const int scale = FractionDigitsOf(text);
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  // Leading zeros of the fraction count: 0.05 is DECIMAL(2, 2), 1.50 is DECIMAL(3, 2).
  const int integer_digits = std::max(0, digits - scale);
  const int precision = std::max({integer_digits + scale, scale, 1});
  std::optional<int128> unscaled = ParseDecimal(text, 38, scale);
  if (precision > 38 || !unscaled) {
    return std::unexpected(ErrorAt(expr, fmt::format("number {} is out of range", text)));
  }
  return MakeLiteral(DecimalValue{*unscaled, precision, scale},
                     DataType::Decimal128(precision, scale), text);
}

}  // namespace

Result<ScalarExprPtr> BindLiteral(const Expr& expr) {
  const std::string text = TextOf(expr);
  switch (expr.literal) {
    case LiteralKind::kNull:
      return MakeLiteral(Value(), DataType::Null(), "NULL");
    case LiteralKind::kBoolean:
      return MakeLiteral(Value(expr.text == "TRUE"), DataType::Bool(), text);
    case LiteralKind::kInteger:
      return IntegerLiteral(expr);
    case LiteralKind::kDecimal:
      return DecimalLiteral(expr);
    case LiteralKind::kDouble: {
      double value = 0;
      auto [end, ec] =
          std::from_chars(expr.text.data(), expr.text.data() + expr.text.size(), value);
      if (ec != std::errc() || !std::isfinite(value)) {
        return std::unexpected(ErrorAt(expr, fmt::format("number {} is out of range", expr.text)));
      }
      return MakeLiteral(Value(value), DataType::Float64(), text);
    }
    case LiteralKind::kString:
      return MakeLiteral(Value(expr.text), DataType::String(), text);
    case LiteralKind::kDate: {
      std::optional<int32_t> days = ParseDateText(expr.text);
      if (!days) {
        return std::unexpected(ErrorAt(expr, fmt::format("invalid DATE literal '{}'", expr.text)));
      }
      return MakeLiteral(DateValue{*days}, DataType::Date32(), text);
    }
    case LiteralKind::kTime: {
      std::optional<int64_t> micros = ParseTimeText(expr.text, 6);
      if (!micros) {
        return std::unexpected(ErrorAt(expr, fmt::format("invalid TIME literal '{}'", expr.text)));
      }
      // A literal's precision is the number of fraction digits written, as in Flink.
      const int precision = std::min(FractionDigitsOf(expr.text), 6);
      return MakeLiteral(TimeValue{*micros, TimeUnit::kMicro},
                         DataType::Time64(TimeUnit::kMicro, precision), text);
    }
    case LiteralKind::kTimestamp: {
      const int precision = FractionDigitsOf(expr.text);
      const bool nanos = precision > 6;
      std::optional<int64_t> value = ParseTimestampText(expr.text, nanos ? 9 : 6);
      if (!value) {
        return std::unexpected(
            ErrorAt(expr, fmt::format("invalid TIMESTAMP literal '{}'", expr.text)));
      }
      const TimeUnit unit = nanos ? TimeUnit::kNano : TimeUnit::kMicro;
      return MakeLiteral(TimestampValue{*value, unit, false},
                         DataType::Timestamp(unit, false, std::min(precision, 9)), text);
    }
    case LiteralKind::kInterval:
      return std::unexpected(ErrorAt(
          expr, "an INTERVAL can only be added to or subtracted from a date or a timestamp"));
  }
  return std::unexpected(ErrorAt(expr, "unknown literal"));
}

}  // namespace floe::sql::scalar
