#include "floe/format/parquet/encoding/delta_binary_packed.h"

#include <algorithm>
#include <bit>
#include <type_traits>

#include "floe/format/parquet/encoding/bit_unpack_internal.h"

namespace floe::parquet {

namespace {

int64_t Unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
uint64_t Zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

}  // namespace

template <typename T>
Result<uint64_t> DeltaBinaryPackedDecoder<T>::ReadVarint(size_t& pos) const {
  uint64_t value = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos >= data_.size()) return CorruptData("DELTA_BINARY_PACKED: data ends at byte {}", pos);
    auto byte = static_cast<uint8_t>(data_[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return CorruptData("DELTA_BINARY_PACKED: varint too long at byte {}", pos);
}

template <typename T>
Result<std::unique_ptr<DeltaBinaryPackedDecoder<T>>> DeltaBinaryPackedDecoder<T>::Make(
    std::span<const std::byte> data) {
  auto decoder = std::make_unique<DeltaBinaryPackedDecoder<T>>(data);
  FLOE_RETURN_IF_ERROR(decoder->ReadHeader());
  return decoder;
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ReadHeader() {
  FLOE_ASSIGN_OR_RETURN(block_size_, ReadVarint(pos_));
  FLOE_ASSIGN_OR_RETURN(miniblocks_, ReadVarint(pos_));
  FLOE_ASSIGN_OR_RETURN(total_values_, ReadVarint(pos_));
  FLOE_ASSIGN_OR_RETURN(uint64_t first, ReadVarint(pos_));
  if (block_size_ == 0 || block_size_ % 128 != 0 || block_size_ > kMaxBlockSize) {
    return CorruptData("DELTA_BINARY_PACKED: block size {} is not a multiple of 128 up to {}",
                       block_size_, kMaxBlockSize);
  }
  if (miniblocks_ == 0 || block_size_ % miniblocks_ != 0 || (block_size_ / miniblocks_) % 32 != 0) {
    return CorruptData(
        "DELTA_BINARY_PACKED: {} miniblocks do not split a block of {} into "
        "multiples of 32",
        miniblocks_, block_size_);
  }
  if (total_values_ > INT32_MAX) {
    return CorruptData("DELTA_BINARY_PACKED: {} values in one page", total_values_);
  }
  values_per_miniblock_ = block_size_ / miniblocks_;
  last_value_ = static_cast<uint64_t>(Unzigzag(first));
  bit_widths_.resize(miniblocks_);
  deltas_.resize(values_per_miniblock_);
  delta_pos_ = values_per_miniblock_;
  miniblock_ = miniblocks_;
  return Ok();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ReadBlockHeader() {
  FLOE_ASSIGN_OR_RETURN(uint64_t min_delta, ReadVarint(pos_));
  min_delta_ = static_cast<uint64_t>(Unzigzag(min_delta));
  if (data_.size() - pos_ < miniblocks_) {
    return CorruptData("DELTA_BINARY_PACKED: block bit widths overrun the data at byte {}", pos_);
  }
  for (size_t i = 0; i < miniblocks_; ++i) bit_widths_[i] = static_cast<uint8_t>(data_[pos_ + i]);
  pos_ += miniblocks_;
  miniblock_ = 0;
  return Ok();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Decode(std::span<T> out) {
  if (out.size() > total_values_ - values_read_) {
    return CorruptData("DELTA_BINARY_PACKED: {} values asked for, {} of {} left", out.size(),
                       total_values_ - values_read_, total_values_);
  }
  size_t done = 0;
  if (!first_returned_ && !out.empty()) {
    out[done++] = static_cast<T>(last_value_);
    first_returned_ = true;
  }
  while (done < out.size()) {
    if (delta_pos_ == values_per_miniblock_) {
      if (miniblock_ == miniblocks_) FLOE_RETURN_IF_ERROR(ReadBlockHeader());
      int width = bit_widths_[miniblock_++];
      if (width > 64) {
        return CorruptData("DELTA_BINARY_PACKED: miniblock bit width {} at byte {}", width, pos_);
      }
      size_t bytes = BitPackedBytes(values_per_miniblock_, width);
      if (bytes > data_.size() - pos_) {
        // Writers may leave out the padding of the last miniblock: only the values still to come
        // must be there.
        uint64_t needed =
            std::min<uint64_t>(values_per_miniblock_, total_values_ - values_read_ - done);
        if (BitPackedBytes(needed, width) > data_.size() - pos_) {
          return CorruptData(
              "DELTA_BINARY_PACKED: miniblock of {} bytes overruns the data at byte {}", bytes,
              pos_);
        }
        size_t available = (data_.size() - pos_) * 8 / std::max(width, 1);
        size_t count =
            std::min<size_t>(values_per_miniblock_, width == 0 ? values_per_miniblock_ : available);
        UnpackBits64(reinterpret_cast<const uint8_t*>(data_.data() + pos_), count, width,
                     deltas_.data());
        pos_ = data_.size();
      } else {
        UnpackBits64(reinterpret_cast<const uint8_t*>(data_.data() + pos_), values_per_miniblock_,
                     width, deltas_.data());
        pos_ += bytes;
      }
      delta_pos_ = 0;
    }
    size_t n = std::min(values_per_miniblock_ - delta_pos_, out.size() - done);
    uint64_t value = last_value_;
    for (size_t i = 0; i < n; ++i) {
      value += min_delta_ + deltas_[delta_pos_ + i];
      out[done + i] = static_cast<T>(value);
    }
    last_value_ = value;
    delta_pos_ += n;
    done += n;
  }
  values_read_ += out.size();
  return Ok();
}

template <typename T>
Result<size_t> DeltaBinaryPackedDecoder<T>::EndOffset() const {
  // Walk from the start: header, then whole blocks until every value is covered.
  size_t pos = 0;
  for (int i = 0; i < 4; ++i) FLOE_RETURN_IF_ERROR(ReadVarint(pos));
  uint64_t left = total_values_ > 0 ? total_values_ - 1 : 0;
  while (left > 0) {
    FLOE_RETURN_IF_ERROR(ReadVarint(pos));
    if (data_.size() - pos < miniblocks_) {
      return CorruptData("DELTA_BINARY_PACKED: block bit widths overrun the data at byte {}", pos);
    }
    size_t widths = pos;
    pos += miniblocks_;
    for (size_t m = 0; m < miniblocks_ && left > 0; ++m) {
      int width = static_cast<uint8_t>(data_[widths + m]);
      if (width > 64) return CorruptData("DELTA_BINARY_PACKED: miniblock bit width {}", width);
      size_t bytes = BitPackedBytes(values_per_miniblock_, width);
      if (bytes > data_.size() - pos) {
        return CorruptData(
            "DELTA_BINARY_PACKED: miniblock of {} bytes overruns the data at byte {}", bytes, pos);
      }
      pos += bytes;
      left -= std::min<uint64_t>(left, values_per_miniblock_);
    }
  }
  return pos;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

template <typename T>
void EncodeDeltaBinaryPacked(std::span<const T> values, std::vector<std::byte>& out) {
  constexpr size_t kBlock = 128, kMiniblocks = 4, kPerMini = kBlock / kMiniblocks;
  auto varint = [&](uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<std::byte>(v | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<std::byte>(v));
  };
  varint(kBlock);
  varint(kMiniblocks);
  varint(values.size());
  varint(Zigzag(values.empty() ? 0 : static_cast<int64_t>(values[0])));
  using U = std::make_unsigned_t<T>;
  for (size_t start = 1; start < values.size(); start += kBlock) {
    size_t n = std::min(kBlock, values.size() - start);
    std::vector<T> deltas(n);
    for (size_t i = 0; i < n; ++i) {
      deltas[i] =
          static_cast<T>(static_cast<U>(values[start + i]) - static_cast<U>(values[start + i - 1]));
    }
    T min = *std::min_element(deltas.begin(), deltas.end());
    varint(Zigzag(static_cast<int64_t>(min)));
    std::vector<uint64_t> adjusted(kBlock, 0);
    for (size_t i = 0; i < n; ++i) {
      adjusted[i] = static_cast<U>(static_cast<U>(deltas[i]) - static_cast<U>(min));
    }
    size_t used = (n + kPerMini - 1) / kPerMini;
    int widths[kMiniblocks] = {0, 0, 0, 0};
    for (size_t m = 0; m < used; ++m) {
      uint64_t bits = 0;
      for (size_t i = 0; i < kPerMini; ++i) bits |= adjusted[m * kPerMini + i];
      widths[m] = bits == 0 ? 0 : 64 - std::countl_zero(bits);
    }
    for (int w : widths) out.push_back(static_cast<std::byte>(w));
    for (size_t m = 0; m < used; ++m) {
      size_t at = out.size();
      out.resize(at + BitPackedBytes(kPerMini, widths[m]));
      PackBits64(adjusted.data() + m * kPerMini, kPerMini, widths[m],
                 reinterpret_cast<uint8_t*>(out.data() + at));
    }
  }
}

template void EncodeDeltaBinaryPacked(std::span<const int32_t>, std::vector<std::byte>&);
template void EncodeDeltaBinaryPacked(std::span<const int64_t>, std::vector<std::byte>&);

}  // namespace floe::parquet
