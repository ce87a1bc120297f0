#pragma once

// XXH64, the 64-bit xxHash that Parquet's split-block bloom filters hash values with (seed 0), and
// which the Parquet writer's dictionaries use as a fast general-purpose hash. It never fails.

#include <cstdint>
#include <string_view>

namespace floe {

uint64_t XxHash64(std::string_view bytes, uint64_t seed = 0);

// The hash of the value's 8 little-endian bytes, without going through memory.
uint64_t XxHash64Fixed8(uint64_t value, uint64_t seed = 0);
// The hash of the value's 4 little-endian bytes.
uint64_t XxHash64Fixed4(uint32_t value, uint64_t seed = 0);

}  // namespace floe
