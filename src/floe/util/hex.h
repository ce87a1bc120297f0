#pragma once

// Hexadecimal digits, as UUIDs, %XX escapes and hex literals write them.

namespace floe {

// The value of a hex digit of either case, or -1 for any other character.
constexpr int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace floe
