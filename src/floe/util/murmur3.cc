#include "floe/util/murmur3.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace floe {
namespace {

constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

uint32_t MixBlock(uint32_t k) {
  k *= kC1;
  k = std::rotl(k, 15);
  return k * kC2;
}

uint32_t FinalMix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

// Blocks are read little-endian whatever the host order, as the reference implementation on x86
// (and every Iceberg implementation) reads them.
uint32_t LoadLittleEndian32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

int32_t HashLittleEndian64(uint64_t bits) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(bits >> (8 * i));
  return static_cast<int32_t>(Murmur3Hash32(std::string_view(bytes, sizeof(bytes))));
}

}  // namespace

uint32_t Murmur3Hash32(std::string_view bytes, uint32_t seed) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t length = bytes.size();
  const size_t block_count = length / 4;
  uint32_t h = seed;
  for (size_t i = 0; i < block_count; ++i) {
    h ^= MixBlock(LoadLittleEndian32(data + 4 * i));
    h = std::rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const unsigned char* tail = data + 4 * block_count;
  uint32_t k = 0;
  switch (length & 3) {
    case 3:
      k ^= uint32_t{tail[2]} << 16;
      [[fallthrough]];
    case 2:
      k ^= uint32_t{tail[1]} << 8;
      [[fallthrough]];
    case 1:
      k ^= tail[0];
      h ^= MixBlock(k);
  }
  // The length is mixed in as 32 bits, as the reference implementation's int length is.
  h ^= static_cast<uint32_t>(length);
  return FinalMix(h);
}

int32_t Murmur3HashLong(int64_t v) { return HashLittleEndian64(static_cast<uint64_t>(v)); }

int32_t Murmur3HashTimestampNs(int64_t nanos) {
  int64_t micros = nanos / 1000;
  if (nanos % 1000 < 0) --micros;
  return Murmur3HashLong(micros);
}

int32_t Murmur3HashDecimal(__int128 unscaled) {
  // Shortest big-endian two's complement: drop leading bytes that only repeat the sign of the next.
  unsigned char bytes[16];
  const auto bits = static_cast<unsigned __int128>(unscaled);
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<unsigned char>(bits >> (8 * (15 - i)));
  int start = 0;
  while (start < 15) {
    const bool redundant = (bytes[start] == 0x00 && (bytes[start + 1] & 0x80) == 0) ||
                           (bytes[start] == 0xff && (bytes[start + 1] & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  return Murmur3HashBytes(
      std::string_view(reinterpret_cast<const char*>(bytes + start), 16 - start));
}

int32_t Murmur3HashBytes(std::string_view bytes) {
  return static_cast<int32_t>(Murmur3Hash32(bytes));
}

int32_t Murmur3HashDouble(double v) {
  if (std::isnan(v)) return HashLittleEndian64(0x7ff8000000000000ULL);
  if (v == 0.0) v = 0.0;  // -0.0 hashes as 0.0
  return HashLittleEndian64(std::bit_cast<uint64_t>(v));
}

}  // namespace floe
