#pragma once

// CRC-32 (the IEEE 802.3 / zlib polynomial): the checksum Avro's snappy codec appends to each block
// and Parquet writes into page headers. CRC-32C (Castagnoli, as in iSCSI and LevelDB) is a
// different polynomial with better error detection on long records: floe's own formats
// (checkpoints) use it.

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

// CRC-32C, continued the same way.
uint32_t Crc32C(std::span<const std::byte> data, uint32_t crc = 0);
inline uint32_t Crc32C(std::string_view data, uint32_t crc = 0) {
  return Crc32C(std::as_bytes(std::span(data.data(), data.size())), crc);
}

}  // namespace floe
