#include "floe/table/write/portable_roaring.h"

#include <cstring>
#include <vector>

namespace floe::table {
namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr size_t kMaxArrayValues = 4096;

template <typename T>
void PutLittle(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

template <typename T>
void PutLittleAt(std::string& out, size_t at, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) out[at + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

// One 32-bit bitmap of the low halves [begin, end) of positions sharing their high 32 bits.
void Encode32(std::span<const int64_t> positions, std::string& out) {
  struct Container {
    uint16_t key;
    size_t begin, end;
  };
  std::vector<Container> containers;
  for (size_t i = 0; i < positions.size(); ++i) {
    const auto key = static_cast<uint16_t>((positions[i] >> 16) & 0xFFFF);
    if (containers.empty() || containers.back().key != key) containers.push_back({key, i, i});
    containers.back().end = i + 1;
  }
  const size_t start = out.size();
  PutLittle<uint32_t>(out, kCookieNoRuns);
  PutLittle<uint32_t>(out, static_cast<uint32_t>(containers.size()));
  for (const Container& c : containers) {
    PutLittle<uint16_t>(out, c.key);
    PutLittle<uint16_t>(out, static_cast<uint16_t>(c.end - c.begin - 1));
  }
  const size_t offsets = out.size();
  out.resize(out.size() + 4 * containers.size());
  for (size_t n = 0; n < containers.size(); ++n) {
    const Container& c = containers[n];
    PutLittleAt<uint32_t>(out, offsets + 4 * n, static_cast<uint32_t>(out.size() - start));
    if (c.end - c.begin <= kMaxArrayValues) {
      for (size_t i = c.begin; i < c.end; ++i) {
        PutLittle<uint16_t>(out, static_cast<uint16_t>(positions[i] & 0xFFFF));
      }
      continue;
    }
    uint64_t words[1024] = {};
    for (size_t i = c.begin; i < c.end; ++i) {
      const auto low = static_cast<uint32_t>(positions[i] & 0xFFFF);
      words[low / 64] |= uint64_t{1} << (low % 64);
    }
    for (uint64_t word : words) PutLittle<uint64_t>(out, word);
  }
}

}  // namespace

std::string EncodePortableRoaring64(std::span<const int64_t> positions) {
  std::string out;
  const size_t count_at = out.size();
  PutLittle<uint64_t>(out, 0);
  uint64_t bitmaps = 0;
  for (size_t begin = 0; begin < positions.size();) {
    const auto high = static_cast<uint32_t>(static_cast<uint64_t>(positions[begin]) >> 32);
    size_t end = begin;
    while (end < positions.size() &&
           static_cast<uint32_t>(static_cast<uint64_t>(positions[end]) >> 32) == high) {
      ++end;
    }
    PutLittle<uint32_t>(out, high);
    Encode32(positions.subspan(begin, end - begin), out);
    ++bitmaps;
    begin = end;
  }
  PutLittleAt<uint64_t>(out, count_at, bitmaps);
  return out;
}

}  // namespace floe::table
