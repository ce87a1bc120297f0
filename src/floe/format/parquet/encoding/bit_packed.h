#pragma once

// The deprecated BIT_PACKED encoding of definition and repetition levels (data page v1 only):
// values packed most significant bit first, with no header; the count comes from the page.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet {

// Decodes out.size() levels of bit_width (0..16) bits; returns the bytes consumed.
Result<size_t> DecodeBitPackedLevels(std::span<const std::byte> data, int bit_width,
                                     std::span<int16_t> out);

std::vector<std::byte> EncodeBitPackedLevels(std::span<const int16_t> levels, int bit_width);

}  // namespace floe::parquet
