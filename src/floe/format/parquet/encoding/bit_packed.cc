#include "floe/format/parquet/encoding/bit_packed.h"

namespace floe::parquet {

Result<size_t> DecodeBitPackedLevels(std::span<const std::byte> data, int bit_width,
                                     std::span<int16_t> out) {
  if (bit_width < 0 || bit_width > 16) {
    return CorruptData("BIT_PACKED level width {} is not in 0..16", bit_width);
  }
  size_t bytes = (out.size() * static_cast<size_t>(bit_width) + 7) / 8;
  if (bytes > data.size()) {
    return CorruptData("BIT_PACKED levels need {} bytes, the page has {}", bytes, data.size());
  }
  const auto* in = reinterpret_cast<const uint8_t*>(data.data());
  size_t bit = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t v = 0;
    for (int b = 0; b < bit_width; ++b, ++bit) {
      v = v << 1 | ((in[bit / 8] >> (7 - bit % 8)) & 1u);
    }
    out[i] = static_cast<int16_t>(v);
  }
  return bytes;
}

std::vector<std::byte> EncodeBitPackedLevels(std::span<const int16_t> levels, int bit_width) {
  std::vector<std::byte> out((levels.size() * static_cast<size_t>(bit_width) + 7) / 8);
  size_t bit = 0;
  for (int16_t level : levels) {
    for (int b = bit_width - 1; b >= 0; --b, ++bit) {
      if ((level >> b) & 1) out[bit / 8] |= static_cast<std::byte>(0x80 >> (bit % 8));
    }
  }
  return out;
}

}  // namespace floe::parquet
