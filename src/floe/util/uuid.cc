#include "floe/util/uuid.h"

#include <cstdint>
#include <random>

#include "floe/util/calendar.h"

namespace floe {

std::string NewUuidV4() {
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  uint64_t high = generator();
  uint64_t low = generator();
  high = (high & ~uint64_t{0xF000}) | uint64_t{0x4000};          // version 4
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 10xx
  unsigned char bytes[16];
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<unsigned char>(high >> (56 - 8 * i));
    bytes[8 + i] = static_cast<unsigned char>(low >> (56 - 8 * i));
  }
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    AppendHex(out, std::string_view(reinterpret_cast<const char*>(bytes + i), 1));
  }
  return out;
}

}  // namespace floe
