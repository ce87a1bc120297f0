#include <array>
#include <cstring>
#include <utility>

#include "floe/format/parquet/encoding/bit_unpack_internal.h"

namespace floe::parquet {

namespace {

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // Parquet is little-endian, as is every platform floe builds on
}

template <int kWidth>
void UnpackFixed32(const uint8_t* in, size_t count, uint32_t* out) {
  constexpr uint64_t kMask = (uint64_t{1} << kWidth) - 1;
  size_t total_bytes = BitPackedBytes(count, kWidth);
  size_t i = 0;
  // Fast path: an unaligned 8-byte load covers any value of up to 32 bits at any bit offset, as
  // long as 8 bytes remain from the value's first byte.
  for (; i < count; ++i) {
    size_t bit = i * kWidth;
    size_t byte = bit / 8;
    if (byte + 8 > total_bytes) break;
    out[i] = static_cast<uint32_t>((Load64(in + byte) >> (bit % 8)) & kMask);
  }
  for (; i < count; ++i) {
    size_t bit = i * kWidth;
    uint64_t v = 0;
    size_t first = bit / 8;
    size_t last = (bit + kWidth + 7) / 8;  // exclusive
    for (size_t b = first; b < last && b < total_bytes; ++b)
      v |= uint64_t{in[b]} << (8 * (b - first));
    out[i] = static_cast<uint32_t>((v >> (bit % 8)) & kMask);
  }
}

using Unpack32Fn = void (*)(const uint8_t*, size_t, uint32_t*);

template <int... kWidths>
constexpr auto MakeTable(std::integer_sequence<int, kWidths...>) {
  return std::array<Unpack32Fn, sizeof...(kWidths)>{&UnpackFixed32<kWidths>...};
}

}  // namespace

void UnpackBits32(const uint8_t* in, size_t count, int bit_width, uint32_t* out) {
  if (count == 0) return;  // in and out may be null
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint32_t));
    return;
  }
  if (bit_width == 32) {
    std::memcpy(out, in, count * 4);
    return;
  }
  // One specialization per width so that shifts and masks are constants in the hot loop.
  static constexpr auto kTable = MakeTable(std::make_integer_sequence<int, 32>{});
  kTable[bit_width](in, count, out);
}

void UnpackBits64(const uint8_t* in, size_t count, int bit_width, uint64_t* out) {
  if (count == 0) return;  // in and out may be null
  if (bit_width == 0) {
    std::memset(out, 0, count * sizeof(uint64_t));
    return;
  }
  if (bit_width == 64) {
    std::memcpy(out, in, count * 8);
    return;
  }
  const uint64_t mask = (uint64_t{1} << bit_width) - 1;
  size_t total_bytes = BitPackedBytes(count, bit_width);
  size_t i = 0;
  if (bit_width <= 56) {
    for (; i < count; ++i) {
      size_t bit = i * static_cast<size_t>(bit_width);
      if (bit / 8 + 8 > total_bytes) break;
      out[i] = (Load64(in + bit / 8) >> (bit % 8)) & mask;
    }
  }
  for (; i < count; ++i) {
    size_t bit = i * static_cast<size_t>(bit_width);
    size_t first = bit / 8;
    int shift = static_cast<int>(bit % 8);
    // Up to 64 + 7 bits: gather into a 128-bit accumulator.
    unsigned __int128 v = 0;
    size_t last = (bit + bit_width + 7) / 8;
    for (size_t b = first; b < last && b < total_bytes; ++b) {
      v |= static_cast<unsigned __int128>(in[b]) << (8 * (b - first));
    }
    out[i] = static_cast<uint64_t>(v >> shift) & mask;
  }
}

void PackBits64(const uint64_t* values, size_t count, int bit_width, uint8_t* out) {
  size_t bytes = BitPackedBytes(count, bit_width);
  if (bytes == 0) return;
  uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint8_t* end = out + bytes;
  unsigned __int128 acc = 0;
  int bits = 0;
  for (size_t i = 0; i < count; ++i) {
    acc |= static_cast<unsigned __int128>(values[i] & mask) << bits;
    bits += bit_width;
    if (bits >= 64) {
      auto word = static_cast<uint64_t>(acc);
      std::memcpy(out, &word, 8);
      out += 8;
      acc >>= 64;
      bits -= 64;
    }
  }
  for (; out < end; acc >>= 8) *out++ = static_cast<uint8_t>(acc);
}

}  // namespace floe::parquet
