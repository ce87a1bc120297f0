#pragma once

// The partition transforms on raw values (spec "Partition Transforms"), shared by Transform::Apply
// (one Literal at a time) and the writers' column-at-a-time partitioning, so both compute exactly
// the same tuples. Inputs are the spec's physical representations: days since 1970-01-01,
// microseconds (or nanoseconds) since the epoch. None of these fail.

#include <cstdint>
#include <limits>
#include <string_view>

#include "floe/util/calendar.h"

namespace floe::transform_values {

inline constexpr int64_t kMicrosPerHour = 3'600'000'000LL;
inline constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
inline constexpr int64_t kNanosPerMicro = 1000;

// Whole units since the epoch, rounded toward negative infinity so that 1969-12-31T23:00 is day
// -1 and hour -1.
inline int64_t MicrosFromNanos(int64_t nanos) { return FloorDiv(nanos, kNanosPerMicro); }
inline int64_t DaysFromMicros(int64_t micros) { return FloorDiv(micros, kMicrosPerDay); }
inline int64_t HoursFromMicros(int64_t micros) { return FloorDiv(micros, kMicrosPerHour); }
inline int64_t YearsFromDays(int64_t days) { return CivilFromDays(days).year - 1970; }
inline int64_t MonthsFromDays(int64_t days) {
  const CivilDate date = CivilFromDays(days);
  return (date.year - 1970) * 12 + date.month - 1;
}

// bucket[n] of a value's Murmur3 hash (util/murmur3.h): the sign bit dropped, then modulo n.
inline int32_t BucketOf(int32_t hash, int32_t n) {
  return (hash & std::numeric_limits<int32_t>::max()) % n;
}

// truncate[w] of integers: v - (v mod w) with a non-negative remainder. Java int arithmetic wraps,
// and so does this, so extreme values truncate to what the reference implementation writes
// rather than to undefined behaviour.
template <typename Int, typename Unsigned>
Int TruncateInteger(Int v, Int width) {
  const Int remainder = v % width;
  const auto positive =
      static_cast<Int>(static_cast<Unsigned>(remainder) + static_cast<Unsigned>(width)) % width;
  return static_cast<Int>(static_cast<Unsigned>(v) - static_cast<Unsigned>(positive));
}
inline int32_t TruncateInt(int32_t v, int32_t width) {
  return TruncateInteger<int32_t, uint32_t>(v, width);
}
inline int64_t TruncateLong(int64_t v, int64_t width) {
  return TruncateInteger<int64_t, uint64_t>(v, width);
}
inline __int128 TruncateDecimal(__int128 v, __int128 width) {
  __int128 remainder = v % width;
  if (remainder < 0) remainder += width;
  return static_cast<__int128>(static_cast<unsigned __int128>(v) -
                               static_cast<unsigned __int128>(remainder));
}

// The first `length` code points of UTF-8 text: a code point starts at every byte that is not a
// continuation byte (10xxxxxx), so malformed text is still cut without reading past its end.
inline std::string_view TruncateUtf8(std::string_view text, int64_t length) {
  int64_t code_points = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (code_points == length) return text.substr(0, i);
      ++code_points;
    }
  }
  return text;
}

}  // namespace floe::transform_values
