#include "floe/format/parquet/decoders/rle.h"

#include <algorithm>
#include <cstring>

#include "floe/format/parquet/decoders/bit_unpack.h"

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

void RleBitPackedEncoder::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<std::byte>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<std::byte>(v));
}

void RleBitPackedEncoder::WriteRepeat(uint32_t value, size_t count) {
  WriteVarint(static_cast<uint64_t>(count) << 1);
  for (int i = 0; i < (bit_width_ + 7) / 8; ++i) {
    out_.push_back(static_cast<std::byte>(value >> (8 * i)));
  }
}

// Writes pending values as bit-packed groups: all of them (padding the last group with zeros) or
// only whole groups.
void RleBitPackedEncoder::FlushLiterals(bool all) {
  size_t count = all ? (pending_.size() + 7) / 8 * 8 : pending_.size() / 8 * 8;
  if (count == 0) return;
  std::vector<uint64_t> values(count, 0);
  std::copy_n(pending_.begin(), std::min(count, pending_.size()), values.begin());
  WriteVarint((count / 8) << 1 | 1);
  size_t start = out_.size();
  out_.resize(start + BitPackedBytes(count, bit_width_));
  PackBits64(values.data(), count, bit_width_, reinterpret_cast<uint8_t*>(out_.data() + start));
  pending_.erase(pending_.begin(), pending_.begin() + std::min(count, pending_.size()));
}

void RleBitPackedEncoder::Put(uint32_t value) { pending_.push_back(value); }

std::vector<std::byte> RleBitPackedEncoder::Finish() {
  // Split the pending values into runs: stretches of 8+ equal values become RLE runs; the values
  // between them are bit-packed (in whole groups, borrowing from the run when needed).
  std::vector<uint32_t> values = std::move(pending_);
  pending_.clear();
  size_t i = 0;
  while (i < values.size()) {
    size_t j = i + 1;
    while (j < values.size() && values[j] == values[i]) ++j;
    size_t run = j - i;
    if (run >= 8 && pending_.size() % 8 == 0) {
      FlushLiterals(false);
      WriteRepeat(values[i], run);
      i = j;
    } else if (run >= 8 + (8 - pending_.size() % 8)) {
      // Complete the literal group with values of the run, then write the rest as a repeat.
      size_t borrow = 8 - pending_.size() % 8;
      for (size_t k = 0; k < borrow; ++k) pending_.push_back(values[i]);
      FlushLiterals(false);
      WriteRepeat(values[i], run - borrow);
      i = j;
    } else {
      pending_.push_back(values[i++]);
    }
  }
  FlushLiterals(true);
  return std::move(out_);
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
