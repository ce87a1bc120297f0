#pragma once

// 128-bit decimal helpers for casts and arithmetic: powers of ten, rounding HALF_UP as Flink
// (Java's BigDecimal) does, precision checks, and text in both directions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe::sql::scalar {

using int128 = __int128;

// 10^n for 0 <= n <= 38.
int128 Pow10(int n);
// Whether |value| has at most `precision` digits.
bool FitsPrecision(int128 value, int precision);
// value / 10^digits rounded HALF_UP (ties away from zero).
int128 DivPow10HalfUp(int128 value, int digits);
// The value moved from one scale to another: exact when the scale grows (nullopt on overflow),
// rounded HALF_UP when it shrinks.
std::optional<int128> Rescale(int128 value, int from_scale, int to_scale);
// a / b rounded HALF_UP; b != 0.
int128 DivHalfUp(int128 a, int128 b);
// "-12.30" for (-1230, 2).
std::string DecimalToString(int128 unscaled, int scale);
// Decimal text ("12.3", "-1e3", " 4 ") at the given scale, rounded HALF_UP; nullopt when it is
// not a number or does not fit the precision.
std::optional<int128> ParseDecimal(std::string_view text, int precision, int scale);

}  // namespace floe::sql::scalar
