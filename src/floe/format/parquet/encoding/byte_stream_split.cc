#include "floe/format/parquet/encoding/byte_stream_split.h"

#include <cstring>
#include <string>

namespace floe::parquet {

namespace {

// Gathers values [first, first + count) of `width` bytes from the streams into out.
void Gather(const std::byte* streams, size_t stride, size_t width, size_t first, size_t count,
            std::byte* out) {
  for (size_t k = 0; k < width; ++k) {
    const std::byte* stream = streams + k * stride + first;
    for (size_t i = 0; i < count; ++i) out[i * width + k] = stream[i];
  }
}

Status CheckSize(std::span<const std::byte> data, size_t num_values, size_t width) {
  if (width == 0 || num_values > data.size() / width) {
    return CorruptData("BYTE_STREAM_SPLIT: {} values of {} bytes, the page has {} bytes",
                       num_values, width, data.size());
  }
  return Ok();
}

template <typename T>
class ByteStreamSplitDecoder final : public ValueDecoder<T> {
 public:
  ByteStreamSplitDecoder(std::span<const std::byte> data, size_t num_values)
      : data_(data), num_values_(num_values) {}
  Status Decode(std::span<T> out) override {
    if (out.size() > num_values_ - next_) {
      return CorruptData("BYTE_STREAM_SPLIT: {} values asked for, {} left", out.size(),
                         num_values_ - next_);
    }
    Gather(data_.data(), num_values_, sizeof(T), next_, out.size(),
           reinterpret_cast<std::byte*>(out.data()));
    next_ += out.size();
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t num_values_;
  size_t next_ = 0;
};

class ByteStreamSplitFixedLenDecoder final : public ValueDecoder<ByteArray> {
 public:
  ByteStreamSplitFixedLenDecoder(std::span<const std::byte> data, size_t num_values, size_t width)
      : data_(data), num_values_(num_values), width_(width) {}
  Status Decode(std::span<ByteArray> out) override {
    if (out.size() > num_values_ - next_) {
      return CorruptData("BYTE_STREAM_SPLIT: {} values asked for, {} left", out.size(),
                         num_values_ - next_);
    }
    buffer_.resize(out.size() * width_);
    Gather(data_.data(), num_values_, width_, next_, out.size(),
           reinterpret_cast<std::byte*>(buffer_.data()));
    for (size_t i = 0; i < out.size(); ++i) out[i] = ByteArray(buffer_.data() + i * width_, width_);
    next_ += out.size();
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t num_values_;
  size_t width_;
  size_t next_ = 0;
  std::string buffer_;
};

}  // namespace

template <typename T>
Result<std::unique_ptr<ValueDecoder<T>>> MakeByteStreamSplitDecoder(std::span<const std::byte> data,
                                                                    size_t num_values) {
  FLOE_RETURN_IF_ERROR(CheckSize(data, num_values, sizeof(T)));
  return std::make_unique<ByteStreamSplitDecoder<T>>(data, num_values);
}

template Result<std::unique_ptr<ValueDecoder<float>>> MakeByteStreamSplitDecoder(
    std::span<const std::byte>, size_t);
template Result<std::unique_ptr<ValueDecoder<double>>> MakeByteStreamSplitDecoder(
    std::span<const std::byte>, size_t);
template Result<std::unique_ptr<ValueDecoder<int32_t>>> MakeByteStreamSplitDecoder(
    std::span<const std::byte>, size_t);
template Result<std::unique_ptr<ValueDecoder<int64_t>>> MakeByteStreamSplitDecoder(
    std::span<const std::byte>, size_t);

Result<std::unique_ptr<ValueDecoder<ByteArray>>> MakeByteStreamSplitFixedLenDecoder(
    std::span<const std::byte> data, size_t num_values, int32_t width) {
  if (width <= 0) return CorruptData("BYTE_STREAM_SPLIT: value width {}", width);
  FLOE_RETURN_IF_ERROR(CheckSize(data, num_values, static_cast<size_t>(width)));
  return std::make_unique<ByteStreamSplitFixedLenDecoder>(data, num_values,
                                                          static_cast<size_t>(width));
}

void EncodeByteStreamSplit(std::span<const std::byte> values, size_t width,
                           std::vector<std::byte>& out) {
  size_t n = values.size() / width;
  size_t start = out.size();
  out.resize(start + n * width);
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < width; ++k) out[start + k * n + i] = values[i * width + k];
  }
}

}  // namespace floe::parquet
