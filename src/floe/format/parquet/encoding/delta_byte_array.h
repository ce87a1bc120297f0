#pragma once

// DELTA_BYTE_ARRAY (incremental or front coding): for each value, the length of the prefix it
// shares with the previous value (DELTA_BINARY_PACKED), then the suffixes
// (DELTA_LENGTH_BYTE_ARRAY). Values are rebuilt in a buffer of the decoder: the views returned by
// Decode stay valid until the next Decode call.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/format/parquet/encoding/delta_length_byte_array.h"

namespace floe::parquet {

class DeltaByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  static constexpr size_t kMaxBatchBytes = size_t{1} << 30;

  static Result<std::unique_ptr<DeltaByteArrayDecoder>> Make(std::span<const std::byte> data);

  Status Decode(std::span<ByteArray> out) override;

  DeltaByteArrayDecoder(std::unique_ptr<DeltaBinaryPackedDecoder<int32_t>> prefixes,
                        std::unique_ptr<DeltaLengthByteArrayDecoder> suffixes)
      : prefixes_(std::move(prefixes)), suffixes_(std::move(suffixes)) {}

 private:
  std::unique_ptr<DeltaBinaryPackedDecoder<int32_t>> prefixes_;
  std::unique_ptr<DeltaLengthByteArrayDecoder> suffixes_;
  std::vector<int32_t> prefix_lengths_;
  std::vector<ByteArray> suffix_views_;
  std::string previous_;
  std::string buffer_;
};

void EncodeDeltaByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out);

}  // namespace floe::parquet
