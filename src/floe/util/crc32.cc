#include "floe/util/crc32.h"

#include <array>
#include <bit>
#include <cstring>

namespace floe {
namespace {

constexpr uint32_t kCrc32Polynomial = 0xEDB88320u;   // reflected 0x04C11DB7
constexpr uint32_t kCrc32CPolynomial = 0x82F63B78u;  // reflected 0x1EDC6F41 (Castagnoli)

// Slicing-by-8 tables: table[k][b] is the CRC of byte b followed by k zero bytes, which lets the
// loop fold eight input bytes per step instead of one.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

template <uint32_t kPolynomial>
constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c & 1) ? (c >> 1) ^ kPolynomial : c >> 1;
    t[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; ++b) {
    for (int k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

constexpr Tables kCrc32Tables = MakeTables<kCrc32Polynomial>();
constexpr Tables kCrc32CTables = MakeTables<kCrc32CPolynomial>();

uint32_t Update(const Tables& tables, std::span<const std::byte> data, uint32_t crc) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  crc = ~crc;
  while (n >= 8) {
    uint32_t lo;
    uint32_t hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    if constexpr (std::endian::native == std::endian::big) {
      lo = __builtin_bswap32(lo);
      hi = __builtin_bswap32(hi);
    }
    lo ^= crc;
    crc = tables[7][lo & 0xFF] ^ tables[6][(lo >> 8) & 0xFF] ^ tables[5][(lo >> 16) & 0xFF] ^
          tables[4][lo >> 24] ^ tables[3][hi & 0xFF] ^ tables[2][(hi >> 8) & 0xFF] ^
          tables[1][(hi >> 16) & 0xFF] ^ tables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = (crc >> 8) ^ tables[0][(crc ^ *p++) & 0xFF];
  return ~crc;
}

}  // namespace

uint32_t Crc32(std::span<const std::byte> data, uint32_t crc) {
  return Update(kCrc32Tables, data, crc);
}

uint32_t Crc32C(std::span<const std::byte> data, uint32_t crc) {
  return Update(kCrc32CTables, data, crc);
}

}  // namespace floe
