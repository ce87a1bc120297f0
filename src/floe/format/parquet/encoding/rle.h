#pragma once

// Parquet's RLE / bit-packed hybrid encoding: runs of one repeated value, and groups of 8
// bit-packed values, each behind a varint header. It carries definition and repetition levels,
// dictionary indices and RLE booleans. The decoder works over a span it does not own and fails
// with kCorruptData when the data ends early or a run overruns it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet {

class RleBitPackedDecoder {
 public:
  // bit_width 0..32 (checked by Make).
  static Result<RleBitPackedDecoder> Make(std::span<const std::byte> data, int bit_width);

  // Decodes the next out.size() values; T is uint8_t, int16_t or uint32_t (values that do not fit
  // in T are an error for narrow types: a level above the maximum is caught by the caller).
  template <typename T>
  Status Decode(std::span<T> out);

  // Bytes consumed so far (after Decode calls that ended at a run boundary).
  size_t position() const { return pos_; }

 private:
  RleBitPackedDecoder(std::span<const std::byte> data, int bit_width)
      : data_(data), bit_width_(bit_width) {}
  Status NextRun();

  std::span<const std::byte> data_;
  int bit_width_;
  size_t pos_ = 0;
  static constexpr size_t kBufferSize = 256;  // a multiple of 8: chunks stay byte-aligned

  // The current run: either repeat_left_ copies of repeat_value_, or literal_left_ bit-packed
  // values at literal_, unpacked kBufferSize at a time into buffer_.
  uint32_t repeat_value_ = 0;
  size_t repeat_left_ = 0;
  const uint8_t* literal_ = nullptr;
  size_t literal_left_ = 0;
  uint32_t buffer_[kBufferSize];
  size_t buffered_ = 0;
  size_t buffer_pos_ = 0;
};

// Appends values encoded with the hybrid encoding to out: runs of 8 or more equal values become
// RLE runs, the rest bit-packed groups (the last one padded with zeros). T is uint32_t or int16_t
// (levels); values must fit in bit_width (0..32) bits.
template <typename T>
void EncodeRleBitPacked(std::span<const T> values, int bit_width, std::vector<std::byte>& out);

// Appends one RLE run: count copies of value.
void EncodeRleRun(uint32_t value, size_t count, int bit_width, std::vector<std::byte>& out);

// The same, a value at a time.
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {}
  void Put(uint32_t value) { pending_.push_back(value); }
  // Returns the encoded bytes.
  std::vector<std::byte> Finish();

 private:
  int bit_width_;
  std::vector<uint32_t> pending_;
};

}  // namespace floe::parquet

#include <memory>

#include "floe/format/parquet/encoding/value_decoder.h"

namespace floe::parquet {

// Booleans in the RLE encoding (data pages): a 4-byte length, then the hybrid with bit width 1.
Result<std::unique_ptr<ValueDecoder<bool>>> MakeRleBooleanDecoder(std::span<const std::byte> data);

}  // namespace floe::parquet
