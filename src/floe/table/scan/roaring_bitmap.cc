#include "floe/table/scan/roaring_bitmap.h"

#include <cstring>
#include <optional>
#include <vector>

namespace floe::table {

namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieWithRuns = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;
constexpr uint32_t kMaxArrayCardinality = 4096;
constexpr int kBitmapWords = 1024;

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  size_t offset() const { return offset_; }
  size_t remaining() const { return bytes_.size() - offset_; }

  Status Need(size_t n, const char* what) const {
    if (remaining() < n) {
      return CorruptData("roaring bitmap: {} at byte {} needs {} bytes, {} remain", what, offset_,
                         n, remaining());
    }
    return Ok();
  }
  template <typename T>
  Result<T> Read(const char* what) {
    FLOE_RETURN_IF_ERROR(Need(sizeof(T), what));
    T value = 0;
    // Little-endian on the wire; assemble byte by byte so the host order does not matter.
    for (size_t i = 0; i < sizeof(T); ++i) {
      value |= static_cast<T>(static_cast<T>(bytes_[offset_ + i]) << (8 * i));
    }
    offset_ += sizeof(T);
    return value;
  }
  const uint8_t* Take(size_t n) {
    const uint8_t* p = bytes_.data() + offset_;
    offset_ += n;
    return p;
  }

 private:
  std::span<const uint8_t> bytes_;
  size_t offset_ = 0;
};

uint16_t Le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

Status Decode32(Reader& in, int64_t high, PositionDeleteIndex& out) {
  const size_t start = in.offset();
  FLOE_ASSIGN_OR_RETURN(uint32_t cookie, in.Read<uint32_t>("cookie"));
  uint32_t size = 0;
  bool has_runs = false;
  std::vector<uint8_t> run_flags;
  if ((cookie & 0xFFFF) == kCookieWithRuns) {
    has_runs = true;
    size = (cookie >> 16) + 1;
    const size_t flag_bytes = (size + 7) / 8;
    FLOE_RETURN_IF_ERROR(in.Need(flag_bytes, "run flags"));
    const uint8_t* flags = in.Take(flag_bytes);
    run_flags.assign(flags, flags + flag_bytes);
  } else if (cookie == kCookieNoRuns) {
    FLOE_ASSIGN_OR_RETURN(size, in.Read<uint32_t>("container count"));
  } else {
    return CorruptData("roaring bitmap: unknown cookie {} at byte {}", cookie, start);
  }
  // Each container needs at least 4 header bytes: reject counts the input cannot hold before
  // allocating for them.
  FLOE_RETURN_IF_ERROR(in.Need(size_t{size} * 4, "container headers"));
  std::vector<uint16_t> keys(size);
  std::vector<uint32_t> cardinalities(size);
  for (uint32_t i = 0; i < size; ++i) {
    FLOE_ASSIGN_OR_RETURN(keys[i], in.Read<uint16_t>("container key"));
    FLOE_ASSIGN_OR_RETURN(uint16_t c, in.Read<uint16_t>("container cardinality"));
    cardinalities[i] = uint32_t{c} + 1;
    if (i > 0 && keys[i] <= keys[i - 1]) {
      return CorruptData("roaring bitmap: container keys out of order at byte {}", in.offset() - 4);
    }
  }
  if (!has_runs || size >= kNoOffsetThreshold) {
    FLOE_RETURN_IF_ERROR(in.Need(size_t{size} * 4, "container offsets"));
    in.Take(size_t{size} * 4);
  }
  for (uint32_t i = 0; i < size; ++i) {
    const int64_t base = (high << 32) | (int64_t{keys[i]} << 16);
    const bool is_run = has_runs && ((run_flags[i / 8] >> (i % 8)) & 1);
    if (is_run) {
      FLOE_ASSIGN_OR_RETURN(uint16_t runs, in.Read<uint16_t>("run count"));
      FLOE_RETURN_IF_ERROR(in.Need(size_t{runs} * 4, "runs"));
      const uint8_t* p = in.Take(size_t{runs} * 4);
      for (uint16_t r = 0; r < runs; ++r) {
        const uint32_t first = Le16(p + 4 * r);
        const uint32_t last = first + Le16(p + 4 * r + 2);
        if (last > 0xFFFF) {
          return CorruptData("roaring bitmap: run {} of container {} passes 65535", r, i);
        }
        out.AddRange(base + first, base + last + 1);
      }
    } else if (cardinalities[i] <= kMaxArrayCardinality) {
      FLOE_RETURN_IF_ERROR(in.Need(size_t{cardinalities[i]} * 2, "array container"));
      const uint8_t* p = in.Take(size_t{cardinalities[i]} * 2);
      for (uint32_t k = 0; k < cardinalities[i]; ++k) out.Add(base + Le16(p + 2 * k));
    } else {
      FLOE_RETURN_IF_ERROR(in.Need(kBitmapWords * 8, "bitmap container"));
      const uint8_t* p = in.Take(kBitmapWords * 8);
      uint64_t words[kBitmapWords];
      for (int w = 0; w < kBitmapWords; ++w) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; --b) v = (v << 8) | p[w * 8 + b];
        words[w] = v;
      }
      out.AddWords(base, words, kBitmapWords);
    }
  }
  return Ok();
}

}  // namespace

Status DecodePortableRoaring64(std::span<const uint8_t> bytes, PositionDeleteIndex& out) {
  Reader in(bytes);
  FLOE_ASSIGN_OR_RETURN(uint64_t count, in.Read<uint64_t>("bitmap count"));
  std::optional<uint32_t> previous;
  for (uint64_t i = 0; i < count; ++i) {
    const size_t at = in.offset();
    FLOE_ASSIGN_OR_RETURN(uint32_t high, in.Read<uint32_t>("high key"));
    if (previous && high <= *previous) {
      return CorruptData("roaring bitmap: high keys out of order at byte {}", at);
    }
    // Deletion vectors hold positive 64-bit positions only.
    if (high & 0x80000000u) {
      return CorruptData("roaring bitmap: high key {} at byte {} makes negative positions", high,
                         at);
    }
    previous = high;
    FLOE_RETURN_IF_ERROR(Decode32(in, high, out));
  }
  if (in.remaining() != 0) {
    return CorruptData("roaring bitmap: {} bytes left over after {} bitmaps", in.remaining(),
                       count);
  }
  return Ok();
}

}  // namespace floe::table
