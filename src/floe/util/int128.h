#pragma once

// Division of 128-bit integers rounding toward negative or positive infinity, for values that
// 64 bits cannot hold on the way (INT96 nanoseconds, scaled decimals and timestamps).

namespace floe {

constexpr __int128 FloorDiv128(__int128 a, __int128 b) {
  const __int128 q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

constexpr __int128 CeilDiv128(__int128 a, __int128 b) {
  const __int128 q = a / b;
  return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q;
}

}  // namespace floe
