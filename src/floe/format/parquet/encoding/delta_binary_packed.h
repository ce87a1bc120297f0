#pragma once

// DELTA_BINARY_PACKED for INT32 and INT64: a header (block size, miniblocks per block, value count,
// first value), then blocks of a zigzag min delta, one bit width per miniblock, and bit-packed
// miniblocks of deltas minus the min delta. Arithmetic wraps as in the type (two's complement).
// Block and miniblock sizes are limited (kMaxBlockSize) so that a corrupt header cannot make the
// decoder allocate without bound.

#include <memory>
#include <span>
#include <vector>

#include "floe/format/parquet/encoding/value_decoder.h"

namespace floe::parquet {

template <typename T>  // int32_t or int64_t
class DeltaBinaryPackedDecoder final : public ValueDecoder<T> {
 public:
  static constexpr uint64_t kMaxBlockSize = 1 << 16;

  static Result<std::unique_ptr<DeltaBinaryPackedDecoder>> Make(std::span<const std::byte> data);

  Status Decode(std::span<T> out) override;

  // The number of values the header announces.
  uint64_t total_values() const { return total_values_; }
  // The offset just past the encoded values (where DELTA_LENGTH_BYTE_ARRAY's bytes start): walks
  // the remaining block headers without decoding them.
  Result<size_t> EndOffset() const;

  explicit DeltaBinaryPackedDecoder(std::span<const std::byte> data) : data_(data) {}

 private:
  Status ReadHeader();
  Status ReadBlockHeader();
  Result<uint64_t> ReadVarint(size_t& pos) const;

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  uint64_t block_size_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t values_per_miniblock_ = 0;
  uint64_t total_values_ = 0;
  uint64_t values_read_ = 0;
  uint64_t last_value_ = 0;  // wrapping arithmetic in uint64_t, truncated to T on output
  bool first_returned_ = false;
  // The current block.
  uint64_t min_delta_ = 0;
  std::vector<uint8_t> bit_widths_;
  size_t miniblock_ = 0;          // index of the next miniblock in the block
  std::vector<uint64_t> deltas_;  // the current miniblock, unpacked
  size_t delta_pos_ = 0;
};

// Encodes values with a block of 128 and 4 miniblocks, as parquet-mr and Arrow do.
template <typename T>
void EncodeDeltaBinaryPacked(std::span<const T> values, std::vector<std::byte>& out);

}  // namespace floe::parquet
