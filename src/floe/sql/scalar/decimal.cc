#include <algorithm>

#include "floe/sql/scalar/decimal_internal.h"

namespace floe::sql::scalar {

int128 Pow10(int n) {
  static const auto kPowers = [] {
    struct Table {
      int128 values[39];
    } table{};
    table.values[0] = 1;
    for (int i = 1; i <= 38; ++i) table.values[i] = table.values[i - 1] * 10;
    return table;
  }();
  return kPowers.values[std::clamp(n, 0, 38)];
}

bool FitsPrecision(int128 value, int precision) {
  if (value < 0) value = -value;
  return value < Pow10(precision);
}

int128 DivPow10HalfUp(int128 value, int digits) {
  if (digits <= 0) return value;
  if (digits > 38) return 0;
  return DivHalfUp(value, Pow10(digits));
}

int128 DivHalfUp(int128 a, int128 b) {
  int128 quotient = a / b;
  int128 remainder = a % b;
  if (remainder < 0) remainder = -remainder;
  int128 divisor = b < 0 ? -b : b;
  if (remainder * 2 >= divisor) quotient += ((a < 0) != (b < 0)) ? -1 : 1;
  return quotient;
}

std::optional<int128> Rescale(int128 value, int from_scale, int to_scale) {
  if (to_scale == from_scale) return value;
  if (to_scale < from_scale) return DivPow10HalfUp(value, from_scale - to_scale);
  if (to_scale - from_scale > 38) return value == 0 ? std::optional<int128>(0) : std::nullopt;
  int128 out;
  if (__builtin_mul_overflow(value, Pow10(to_scale - from_scale), &out)) return std::nullopt;
  return out;
}

std::string DecimalToString(int128 unscaled, int scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1 : unscaled;
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  while (scale > 0 && static_cast<int>(digits.size()) <= scale) digits += '0';
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) digits.insert(digits.size() - scale, 1, '.');
  if (negative) digits.insert(0, 1, '-');
  return digits;
}

std::optional<int128> ParseDecimal(std::string_view text, int precision, int scale) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  // Digits of the significand, and the power of ten that scales them.
  std::string digits;
  int exponent = 0;
  bool seen_point = false;
  bool any_digit = false;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (digits.empty() && c == '0') {
        if (seen_point) --exponent;
        continue;
      }
      digits += c;
      if (seen_point) --exponent;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  if (i < text.size()) {
    if (text[i] != 'e' && text[i] != 'E') return std::nullopt;
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) exp_negative = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    int value = 0;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      value = std::min(value * 10 + (text[i] - '0'), 100000);
    }
    exponent += exp_negative ? -value : value;
  }
  // value = digits * 10^exponent; wanted: round(value * 10^scale).
  const int shift = exponent + scale;
  if (digits.empty()) return int128{0};
  if (shift >= 0) {
    if (static_cast<int>(digits.size()) + shift > precision) return std::nullopt;
    int128 out = 0;
    for (char c : digits) out = out * 10 + (c - '0');
    out *= Pow10(shift);
    return negative ? -out : out;
  }
  const int drop = -shift;
  if (drop > static_cast<int>(digits.size())) return int128{0};
  const std::string_view kept(digits.data(), digits.size() - drop);
  if (static_cast<int>(kept.size()) > precision + 1) return std::nullopt;
  int128 out = 0;
  for (char c : kept) out = out * 10 + (c - '0');
  if (digits[digits.size() - drop] >= '5') ++out;
  if (!FitsPrecision(out, precision)) return std::nullopt;
  return negative ? -out : out;
}

}  // namespace floe::sql::scalar
