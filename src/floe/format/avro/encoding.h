#pragma once

// Avro's binary encoding of single values: zig-zag varints, IEEE floats, length-prefixed bytes.
// Decoder reads from a borrowed byte span and checks every length against the bytes that remain;
// errors are kCorruptData naming the absolute byte offset (the span's base offset in its file plus
// the position), so callers only add the file name.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace floe::avro {

class Decoder {
 public:
  Decoder() = default;
  explicit Decoder(std::span<const std::byte> data, uint64_t base_offset = 0)
      : data_(reinterpret_cast<const uint8_t*>(data.data())),
        size_(data.size()),
        base_offset_(base_offset) {}

  // A varint of at most 10 bytes. Like Avro's Java decoder, bits beyond the 64th in the tenth byte
  // are dropped rather than rejected: some writers encode out-of-range values that way, and every
  // other reader accepts them.
  Result<int64_t> ReadLong() {
    uint64_t value = 0;
    size_t pos = pos_;
    for (int shift = 0; shift < 70 && pos < size_; shift += 7) {
      uint8_t b = data_[pos++];
      value |= uint64_t(b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        pos_ = pos;
        return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
      }
    }
    return VarintError(pos);
  }

  Result<int32_t> ReadInt() {
    size_t start = pos_;
    FLOE_ASSIGN_OR_RETURN(int64_t v, ReadLong());
    if (v < INT32_MIN || v > INT32_MAX) {
      return CorruptData("int value {} out of range at offset {}", v, base_offset_ + start);
    }
    return static_cast<int32_t>(v);
  }

  Result<bool> ReadBoolean() {
    if (pos_ >= size_) return Truncated(1);
    uint8_t b = data_[pos_];
    if (b > 1) return CorruptData("boolean byte {} is not 0 or 1 at offset {}", b, offset());
    ++pos_;
    return b == 1;
  }

  Result<float> ReadFloat() {
    if (size_ - pos_ < 4) return Truncated(4);
    float f;
    std::memcpy(&f, data_ + pos_, 4);  // Avro is little-endian, as are the machines floe runs on
    pos_ += 4;
    return f;
  }

  Result<double> ReadDouble() {
    if (size_ - pos_ < 8) return Truncated(8);
    double d;
    std::memcpy(&d, data_ + pos_, 8);
    pos_ += 8;
    return d;
  }

  // A length-prefixed byte string (Avro bytes or string), viewed in place.
  Result<std::string_view> ReadBytes() {
    size_t start = pos_;
    FLOE_ASSIGN_OR_RETURN(int64_t length, ReadLong());
    if (length < 0) {
      return CorruptData("negative length {} at offset {}", length, base_offset_ + start);
    }
    if (static_cast<uint64_t>(length) > size_ - pos_) {
      return CorruptData("length {} at offset {} exceeds the {} bytes that remain", length,
                         base_offset_ + start, size_ - pos_);
    }
    std::string_view out(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(length));
    pos_ += static_cast<size_t>(length);
    return out;
  }

  Result<std::string_view> ReadFixed(size_t n) {
    if (size_ - pos_ < n) return Truncated(n);
    std::string_view out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }

  Status Skip(size_t n) {
    if (size_ - pos_ < n) return Truncated(n);
    pos_ += n;
    return Ok();
  }

  Status SkipLong() {
    auto v = ReadLong();
    if (!v) return std::unexpected(std::move(v).error());
    return Ok();
  }
  Status SkipBytes() {
    auto v = ReadBytes();
    if (!v) return std::unexpected(std::move(v).error());
    return Ok();
  }

  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }
  // The absolute offset of the next byte, for error messages.
  uint64_t offset() const { return base_offset_ + pos_; }

 private:
  std::unexpected<Error> Truncated(size_t wanted) const {
    return CorruptData("need {} bytes at offset {} but only {} remain", wanted, offset(),
                       size_ - pos_);
  }
  std::unexpected<Error> VarintError(size_t pos) const {
    if (pos >= size_ && pos - pos_ < 10) {
      return CorruptData("truncated varint at offset {}", offset());
    }
    return CorruptData("varint longer than 10 bytes at offset {}", offset());
  }

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  uint64_t base_offset_ = 0;
};

// Appends Avro-encoded values to a byte string.
class Encoder {
 public:
  void WriteLong(int64_t v) {
    uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    char buf[10];
    size_t n = 0;
    while (z >= 0x80) {
      buf[n++] = static_cast<char>((z & 0x7F) | 0x80);
      z >>= 7;
    }
    buf[n++] = static_cast<char>(z);
    out_.append(buf, n);
  }
  void WriteInt(int32_t v) { WriteLong(v); }
  void WriteBoolean(bool b) { out_.push_back(b ? 1 : 0); }
  void WriteFloat(float f) {
    char buf[4];
    std::memcpy(buf, &f, 4);
    out_.append(buf, 4);
  }
  void WriteDouble(double d) {
    char buf[8];
    std::memcpy(buf, &d, 8);
    out_.append(buf, 8);
  }
  void WriteBytes(std::string_view bytes) {
    WriteLong(static_cast<int64_t>(bytes.size()));
    out_.append(bytes);
  }
  void WriteFixed(std::string_view bytes) { out_.append(bytes); }

  const std::string& buffer() const { return out_; }
  std::string& buffer() { return out_; }
  size_t size() const { return out_.size(); }
  void Clear() { out_.clear(); }

 private:
  std::string out_;
};

}  // namespace floe::avro
