#include "floe/format/parquet/encoding/rle.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "floe/format/parquet/encoding/bit_unpack_internal.h"

namespace floe::parquet {

Result<RleBitPackedDecoder> RleBitPackedDecoder::Make(std::span<const std::byte> data,
                                                      int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    return CorruptData("RLE/bit-packed bit width {} is not in 0..32", bit_width);
  }
  return RleBitPackedDecoder(data, bit_width);
}

Status RleBitPackedDecoder::NextRun() {
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= data_.size()) return CorruptData("RLE/bit-packed data ends at byte {}", pos_);
    if (shift > 28) return CorruptData("RLE/bit-packed run header too long at byte {}", pos_);
    auto byte = static_cast<uint8_t>(data_[pos_++]);
    header |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) break;
  }
  if (header & 1) {
    size_t values = (header >> 1) * 8;
    if (bit_width_ == 0) {
      repeat_value_ = 0;
      repeat_left_ = values;
      return Ok();
    }
    // Some writers end the last group early: take the values whose bytes are there.
    size_t bytes = BitPackedBytes(values, bit_width_);
    size_t available = data_.size() - pos_;
    if (bytes > available) {
      values = available * 8 / bit_width_ / 8 * 8;
      bytes = BitPackedBytes(values, bit_width_);
      if (values == 0)
        return CorruptData("RLE/bit-packed literal run overruns the data at byte {}", pos_);
    }
    literal_ = reinterpret_cast<const uint8_t*>(data_.data() + pos_);
    literal_left_ = values;
    pos_ += bytes;
  } else {
    size_t value_bytes = (bit_width_ + 7) / 8;
    if (data_.size() - pos_ < value_bytes) {
      return CorruptData("RLE run value overruns the data at byte {}", pos_);
    }
    uint32_t value = 0;
    for (size_t i = 0; i < value_bytes; ++i) {
      value |= static_cast<uint32_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    }
    pos_ += value_bytes;
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      return CorruptData("RLE run value {} wider than {} bits at byte {}", value, bit_width_, pos_);
    }
    repeat_value_ = value;
    repeat_left_ = header >> 1;
  }
  return Ok();
}

template <typename T>
Status RleBitPackedDecoder::Decode(std::span<T> out) {
  size_t done = 0;
  while (done < out.size()) {
    if (buffer_pos_ < buffered_) {
      size_t n = std::min(buffered_ - buffer_pos_, out.size() - done);
      for (size_t i = 0; i < n; ++i) out[done + i] = static_cast<T>(buffer_[buffer_pos_ + i]);
      buffer_pos_ += n;
      done += n;
    } else if (repeat_left_ > 0) {
      size_t n = std::min(repeat_left_, out.size() - done);
      std::fill_n(out.data() + done, n, static_cast<T>(repeat_value_));
      repeat_left_ -= n;
      done += n;
    } else if (literal_left_ > 0) {
      size_t n = std::min(literal_left_, kBufferSize);
      UnpackBits32(literal_, n, bit_width_, buffer_);
      literal_ += BitPackedBytes(n, bit_width_);
      literal_left_ -= n;
      buffered_ = n;
      buffer_pos_ = 0;
    } else {
      auto status = NextRun();
      if (!status) {
        return CorruptData("{} (after {} of {} values)", status.error().message(), done,
                           out.size());
      }
    }
  }
  return Ok();
}

template Status RleBitPackedDecoder::Decode(std::span<uint8_t>);
template Status RleBitPackedDecoder::Decode(std::span<int16_t>);
template Status RleBitPackedDecoder::Decode(std::span<uint32_t>);

namespace {

void WriteVarint(uint64_t v, std::vector<std::byte>& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

void WriteRepeat(uint32_t value, size_t count, int bit_width, std::vector<std::byte>& out) {
  WriteVarint(static_cast<uint64_t>(count) << 1, out);
  for (int i = 0; i < (bit_width + 7) / 8; ++i)
    out.push_back(static_cast<std::byte>(value >> (8 * i)));
}

// count values (a multiple of 8) as one bit-packed run, least significant bit first.
template <typename T>
void WriteLiterals(const T* values, size_t count, int bit_width, std::vector<std::byte>& out) {
  WriteVarint((count / 8) << 1 | 1, out);
  size_t start = out.size();
  out.resize(start + count / 8 * static_cast<size_t>(bit_width));
  auto* dst = reinterpret_cast<uint8_t*>(out.data() + start);
  uint64_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < count; ++i) {
    acc |= static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(values[i])) << bits;
    bits += bit_width;
    if (bits >= 32) {
      auto word = static_cast<uint32_t>(acc);
      std::memcpy(dst, &word, 4);
      dst += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  // 8 values fill whole bytes, so what is left is whole bytes too.
  for (; bits > 0; bits -= 8, acc >>= 8) *dst++ = static_cast<uint8_t>(acc);
}

}  // namespace

template <typename T>
void EncodeRleBitPacked(std::span<const T> values, int bit_width, std::vector<std::byte>& out) {
  const size_t n = values.size();
  size_t literal_start = 0;  // the first value not yet written
  size_t i = 0;
  while (i < n) {
    T v = values[i];
    size_t j = i + 1;
    while (j < n && values[j] == v) ++j;
    size_t run = j - i;
    if (run >= 8) {
      // The literals before the run must fill whole groups: borrow from the run when needed.
      size_t borrow = (8 - (i - literal_start) % 8) % 8;
      if (run >= 8 + borrow) {
        if (i + borrow > literal_start) {
          WriteLiterals(values.data() + literal_start, i + borrow - literal_start, bit_width, out);
        }
        WriteRepeat(static_cast<uint32_t>(static_cast<std::make_unsigned_t<T>>(v)), run - borrow,
                    bit_width, out);
        literal_start = j;
      }
    }
    i = j;
  }
  size_t left = n - literal_start;
  if (left == 0) return;
  size_t whole = left / 8 * 8;
  if (left == whole) {
    WriteLiterals(values.data() + literal_start, whole, bit_width, out);
    return;
  }
  // The last group is padded with zeros: pack it together with the whole groups before it.
  std::vector<T> tail(values.begin() + static_cast<std::ptrdiff_t>(literal_start), values.end());
  tail.resize(whole + 8, T{0});
  WriteLiterals(tail.data(), tail.size(), bit_width, out);
}

void EncodeRleRun(uint32_t value, size_t count, int bit_width, std::vector<std::byte>& out) {
  WriteRepeat(value, count, bit_width, out);
}

template void EncodeRleBitPacked<uint32_t>(std::span<const uint32_t>, int, std::vector<std::byte>&);
template void EncodeRleBitPacked<int16_t>(std::span<const int16_t>, int, std::vector<std::byte>&);

std::vector<std::byte> RleBitPackedEncoder::Finish() {
  std::vector<std::byte> out;
  EncodeRleBitPacked<uint32_t>(pending_, bit_width_, out);
  pending_.clear();
  return out;
}

}  // namespace floe::parquet

namespace floe::parquet {

namespace {

class RleBooleanDecoder final : public ValueDecoder<bool> {
 public:
  explicit RleBooleanDecoder(RleBitPackedDecoder rle) : rle_(std::move(rle)) {}
  Status Decode(std::span<bool> out) override {
    uint8_t buffer[1024];
    for (size_t done = 0; done < out.size();) {
      size_t n = std::min(sizeof(buffer), out.size() - done);
      FLOE_RETURN_IF_ERROR_CTX(rle_.Decode(std::span(buffer, n)), "RLE booleans");
      for (size_t i = 0; i < n; ++i) out[done + i] = buffer[i] != 0;
      done += n;
    }
    return Ok();
  }

 private:
  RleBitPackedDecoder rle_;
};

}  // namespace

Result<std::unique_ptr<ValueDecoder<bool>>> MakeRleBooleanDecoder(std::span<const std::byte> data) {
  if (data.size() < 4) return CorruptData("RLE booleans: no length prefix");
  uint32_t length = 0;
  std::memcpy(&length, data.data(), 4);
  if (length > data.size() - 4) {
    return CorruptData("RLE booleans: {} bytes announced, {} in the page", length, data.size() - 4);
  }
  FLOE_ASSIGN_OR_RETURN(RleBitPackedDecoder rle,
                        RleBitPackedDecoder::Make(data.subspan(4, length), 1));
  return std::make_unique<RleBooleanDecoder>(std::move(rle));
}

}  // namespace floe::parquet
