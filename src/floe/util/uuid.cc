#include "floe/util/uuid.h"

#include <fmt/core.h>
#include <unistd.h>

#include <random>

namespace floe {
namespace {

std::mt19937_64& Generator() {
  // Reseeded in a forked child, which would otherwise repeat its parent's sequence (and so the
  // parent's file names).
  thread_local pid_t owner = 0;
  thread_local std::mt19937_64 generator;
  if (pid_t pid = ::getpid(); pid != owner) {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device()};
    generator.seed(seed);
    owner = pid;
  }
  return generator;
}

}  // namespace

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
