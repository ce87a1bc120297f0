#pragma once

// DELTA_LENGTH_BYTE_ARRAY: the lengths of all values DELTA_BINARY_PACKED, then the bytes of all
// values concatenated. Values are views into the page.

#include <memory>
#include <span>
#include <vector>

#include "floe/format/parquet/encoding/delta_binary_packed.h"

namespace floe::parquet {

class DeltaLengthByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  static Result<std::unique_ptr<DeltaLengthByteArrayDecoder>> Make(std::span<const std::byte> data);

  Status Decode(std::span<ByteArray> out) override;

  // The offset just past the last value's bytes (once all values are decoded).
  size_t position() const { return bytes_pos_; }
  uint64_t total_values() const { return lengths_->total_values(); }

  DeltaLengthByteArrayDecoder(std::span<const std::byte> data,
                              std::unique_ptr<DeltaBinaryPackedDecoder<int32_t>> lengths,
                              size_t bytes_start)
      : data_(data), lengths_(std::move(lengths)), bytes_pos_(bytes_start) {}

 private:
  std::span<const std::byte> data_;
  std::unique_ptr<DeltaBinaryPackedDecoder<int32_t>> lengths_;
  size_t bytes_pos_;
  std::vector<int32_t> buffer_;
};

void EncodeDeltaLengthByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out);

}  // namespace floe::parquet
