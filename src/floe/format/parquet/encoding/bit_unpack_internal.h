#pragma once

// Unpacking of little-endian bit-packed integers (LSB first), as in Parquet's RLE/bit-packed
// hybrid and DELTA_BINARY_PACKED miniblocks. The caller guarantees that `in` holds
// ceil(count * bit_width / 8) bytes; these functions read no further.

#include <cstddef>
#include <cstdint>

namespace floe::parquet {

// bit_width 0..32.
void UnpackBits32(const uint8_t* in, size_t count, int bit_width, uint32_t* out);
// bit_width 0..64.
void UnpackBits64(const uint8_t* in, size_t count, int bit_width, uint64_t* out);

// Packs the low bit_width bits of each value (for the encoders and tests).
void PackBits64(const uint64_t* values, size_t count, int bit_width, uint8_t* out);

inline size_t BitPackedBytes(size_t count, int bit_width) {
  return (count * static_cast<size_t>(bit_width) + 7) / 8;
}

}  // namespace floe::parquet
