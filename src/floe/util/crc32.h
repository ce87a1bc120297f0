#pragma once

// CRC-32 (the IEEE 802.3 / zlib polynomial): the checksum Avro's snappy codec appends to each block
// and Parquet writes into page headers. Not CRC-32C (Castagnoli), which is a different polynomial.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace floe {

// Continues a running CRC: Crc32(b, Crc32(a)) == Crc32(a + b). Start with crc = 0.
uint32_t Crc32(std::span<const std::byte> data, uint32_t crc = 0);
inline uint32_t Crc32(std::string_view data, uint32_t crc = 0) {
  return Crc32(std::as_bytes(std::span(data.data(), data.size())), crc);
}

}  // namespace floe
