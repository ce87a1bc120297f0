#pragma once

// The manifest reader's hot-path decoder of Avro's binary encoding. Unlike avro::Decoder it does
// not return a Result per value: a failed read records the first error (what and the absolute
// byte offset), moves to the end of the data so that every later read fails at once, and returns
// zero values; callers check ok() once per record. Every read is bounds-checked, and collection
// counts are bounded by the bytes that remain, so damaged input neither crashes nor loops long.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace floe::manifest {

class Cursor {
 public:
  Cursor(const uint8_t* begin, const uint8_t* end, uint64_t base_offset)
      : begin_(begin), p_(begin), end_(end), base_(base_offset) {}

  bool ok() const { return error_ == nullptr; }
  const char* error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }
  uint64_t offset() const { return base_ + static_cast<uint64_t>(p_ - begin_); }
  size_t position() const { return static_cast<size_t>(p_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* here() const { return p_; }
  void Advance(size_t n) { p_ += n; }  // n <= remaining()

  // Skips n varints without decoding them: each ends at the first byte whose continuation bit is
  // clear, and eight bytes are tested at once. Values are not checked (a skipped value is never
  // used); running out of data fails as reading would.
  void SkipVarints(int64_t n) {
    constexpr uint64_t kContinuation = 0x8080808080808080ULL;
    while (n > 0 && remaining() >= 8) {
      uint64_t word;
      std::memcpy(&word, p_, 8);
      uint64_t ends = ~word & kContinuation;
      // The number of ends: each is one bit at the top of its byte, so summing the bytes by a
      // multiplication counts them (std::popcount is a library call without -mpopcnt).
      int64_t count = static_cast<int64_t>(((ends >> 7) * 0x0101010101010101ULL) >> 56);
      if (count < n) {
        n -= count;
        p_ += 8;
        continue;
      }
      for (; n > 1; --n) ends &= ends - 1;  // the n-th end in the word
      p_ += static_cast<size_t>(std::countr_zero(ends) / 8 + 1);
      return;
    }
    for (; n > 0 && p_ < end_; ++p_) n -= (*p_ & 0x80) == 0;
    if (n > 0) Fail("truncated varint");
  }

  // Skips n map items of a varint key and a bytes value (bounds that are not wanted).
  void SkipKeyedBytes(int64_t n) {
    for (; n > 0; --n) {
      if (end_ - p_ < 20) {
        SkipVarints(1);
        Bytes();
        if (!ok()) return;
        continue;
      }
      // Far from the end. Most keys are field ids below 64 and most bounds shorter than 64
      // bytes: one byte each.
      if (((p_[0] | p_[1]) & 0x80) == 0) {
        // A one-byte zigzag length: odd ones are negative.
        size_t length = p_[1] >> 1;
        if ((p_[1] & 1) != 0 || length > remaining() - 2) {
          Fail("bad length");
          return;
        }
        p_ += 2 + length;
        continue;
      }
      // The key is at most 10 bytes, and so is the length.
      int k = 0;
      while (p_[k] & 0x80) {
        if (++k == 10) {
          Fail("varint longer than 10 bytes");
          return;
        }
      }
      p_ += k + 1;
      int64_t length = Long();
      if (length < 0 || static_cast<uint64_t>(length) > remaining()) {
        Fail("bad length");
        return;
      }
      p_ += length;
    }
  }

  [[gnu::always_inline]] int64_t Long() {
    if (end_ - p_ >= 10) [[likely]] {
      // Far from the end: no bounds check per byte.
      const uint8_t* q = p_;
      uint64_t b = *q++;
      uint64_t z = b & 0x7F;
      for (int shift = 7; b >= 0x80; shift += 7) {
        if (shift == 70) return Fail("varint longer than 10 bytes");
        b = *q++;
        z |= (b & 0x7F) << (shift & 63);
      }
      p_ = q;
      return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
    }
    return LongSlow();
  }

  [[gnu::always_inline]] int32_t Int() {
    int64_t v = Long();
    if (v < INT32_MIN || v > INT32_MAX) return static_cast<int32_t>(Fail("int out of range"));
    return static_cast<int32_t>(v);
  }

  bool Boolean() {
    if (p_ >= end_ || *p_ > 1) return Fail("bad boolean") != 0;
    return *p_++ == 1;
  }

  float Float() {
    float f = 0;
    if (remaining() < 4) return static_cast<float>(Fail("truncated float"));
    std::memcpy(&f, p_, 4);
    p_ += 4;
    return f;
  }

  double Double() {
    double d = 0;
    if (remaining() < 8) return static_cast<double>(Fail("truncated double"));
    std::memcpy(&d, p_, 8);
    p_ += 8;
    return d;
  }

  [[gnu::always_inline]] std::string_view Bytes() {
    int64_t n = Long();
    if (n < 0 || static_cast<uint64_t>(n) > remaining()) {
      Fail("bad length");
      return {};
    }
    std::string_view out(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return out;
  }

  std::string_view Fixed(size_t n) {
    if (n > remaining()) {
      Fail("truncated fixed");
      return {};
    }
    std::string_view out(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return out;
  }

  // The item count of the next block of an array or map (0 at the end), each item taking at least
  // min_item_size (>= 1) bytes.
  [[gnu::always_inline]] int64_t BlockCount(size_t min_item_size) {
    int64_t count = Long();
    if (count < 0) {
      if (count == INT64_MIN) return Fail("bad block count");
      count = -count;
      if (Long() < 0) return Fail("negative block size");
    }
    // A product rather than a quotient: this runs for every map of every entry, and a division
    // costs tens of cycles. count < 2^63 and min_item_size is small, so the product fits.
    if (static_cast<unsigned __int128>(count) * min_item_size > remaining()) {
      return Fail("block count exceeds the bytes that remain");
    }
    return count;
  }

  int64_t Fail(const char* what) {
    if (error_ == nullptr) {
      error_ = what;
      error_offset_ = offset();
    }
    p_ = end_;
    return 0;
  }

 private:
  int64_t LongSlow() {
    uint64_t value = 0;
    for (int shift = 0; shift < 70 && p_ < end_; shift += 7) {
      uint8_t b = *p_++;
      value |= uint64_t(b & 0x7F) << (shift < 64 ? shift : 63);
      if ((b & 0x80) == 0) return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
    }
    return Fail("bad varint");
  }

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t base_;
  const char* error_ = nullptr;
  uint64_t error_offset_ = 0;
};

}  // namespace floe::manifest
