#include "floe/util/xxhash64.h"

#include <bit>
#include <cstring>

namespace floe {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

uint64_t Round(uint64_t acc, uint64_t lane) {
  return std::rotl(acc + lane * kPrime2, 31) * kPrime1;
}

uint64_t MergeRound(uint64_t acc, uint64_t v) { return (acc ^ Round(0, v)) * kPrime1 + kPrime4; }

uint64_t Tail8(uint64_t h, uint64_t lane) {
  return std::rotl(h ^ Round(0, lane), 27) * kPrime1 + kPrime4;
}
uint64_t Tail4(uint64_t h, uint32_t lane) {
  return std::rotl(h ^ (static_cast<uint64_t>(lane) * kPrime1), 23) * kPrime2 + kPrime3;
}

uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  return h ^ (h >> 32);
}

}  // namespace

uint64_t XxHash64(std::string_view bytes, uint64_t seed) {
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  uint64_t h;
  if (bytes.size() >= 32) {
    uint64_t v1 = seed + kPrime1 + kPrime2, v2 = seed + kPrime2, v3 = seed, v4 = seed - kPrime1;
    for (; end - p >= 32; p += 32) {
      v1 = Round(v1, Load64(p));
      v2 = Round(v2, Load64(p + 8));
      v3 = Round(v3, Load64(p + 16));
      v4 = Round(v4, Load64(p + 24));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = MergeRound(h, v1);
    h = MergeRound(h, v2);
    h = MergeRound(h, v3);
    h = MergeRound(h, v4);
  } else {
    h = seed + kPrime5;
  }
  h += bytes.size();
  for (; end - p >= 8; p += 8) h = Tail8(h, Load64(p));
  if (end - p >= 4) {
    h = Tail4(h, Load32(p));
    p += 4;
  }
  for (; p < end; ++p) {
    h = std::rotl(h ^ (static_cast<uint64_t>(static_cast<uint8_t>(*p)) * kPrime5), 11) * kPrime1;
  }
  return Avalanche(h);
}

uint64_t XxHash64Fixed8(uint64_t value, uint64_t seed) {
  return Avalanche(Tail8(seed + kPrime5 + 8, value));
}

uint64_t XxHash64Fixed4(uint32_t value, uint64_t seed) {
  return Avalanche(Tail4(seed + kPrime5 + 4, value));
}

}  // namespace floe
