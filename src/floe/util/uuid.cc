#include "floe/util/uuid.h"

#include <fmt/core.h>
#include <unistd.h>

#include <random>

#include "floe/util/hex.h"

namespace floe {
namespace {

std::mt19937_64 Seeded() {
  std::random_device device;
  std::seed_seq seed{device(), device(), device(), device(), device(), device()};
  return std::mt19937_64(seed);
}

std::mt19937_64& Generator() {
  // A forked child inherits its parent's generator state: reseed when the process changed, or
  // parent and children would hand out the same uuids (and so the same file names).
  thread_local pid_t owner = getpid();
  thread_local std::mt19937_64 generator = Seeded();
  if (pid_t pid = getpid(); pid != owner) {
    owner = pid;
    generator = Seeded();
  }
  return generator;
}

}  // namespace

std::string UuidToString(std::string_view bytes) {
  std::string out;
  out.reserve(36);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes.size() == 16 && (i == 4 || i == 6 || i == 8 || i == 10)) out.push_back('-');
    out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  }
  return out;
}

Result<std::string> ParseUuid(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    return InvalidArgument("invalid uuid '{}': expected 8-4-4-4-12 hex digits", text);
  }
  std::string bytes;
  bytes.reserve(16);
  int high = -1;
  for (char c : text) {
    if (c == '-') continue;
    int digit = HexDigitValue(c);
    if (digit < 0) return InvalidArgument("invalid uuid '{}': not hexadecimal", text);
    if (high < 0) {
      high = digit;
    } else {
      bytes.push_back(static_cast<char>(high << 4 | digit));
      high = -1;
    }
  }
  return bytes;
}

uint64_t RandomU64() { return Generator()(); }

std::string RandomUuid() {
  uint64_t high = RandomU64();
  uint64_t low = RandomU64();
  high = (high & ~uint64_t{0xF000}) | 0x4000;                    // version 4
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // RFC 4122 variant
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                     high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFULL);
}

}  // namespace floe
