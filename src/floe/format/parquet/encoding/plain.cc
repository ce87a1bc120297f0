#include "floe/format/parquet/encoding/plain.h"

#include <cstring>

namespace floe::parquet {

namespace {

template <typename T>
class PlainFixedDecoder final : public ValueDecoder<T> {
 public:
  explicit PlainFixedDecoder(std::span<const std::byte> data) : data_(data) {}
  Status Decode(std::span<T> out) override {
    size_t bytes = out.size() * sizeof(T);
    if (bytes > data_.size() - pos_) {
      return CorruptData("PLAIN: {} values need {} bytes at offset {}, the page has {}", out.size(),
                         bytes, pos_, data_.size() - pos_);
    }
    if (bytes != 0) std::memcpy(out.data(), data_.data() + pos_, bytes);
    pos_ += bytes;
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

class PlainBooleanDecoder final : public ValueDecoder<bool> {
 public:
  explicit PlainBooleanDecoder(std::span<const std::byte> data) : data_(data) {}
  Status Decode(std::span<bool> out) override {
    if (out.size() > data_.size() * 8 - bit_) {
      return CorruptData("PLAIN: {} booleans at bit {}, the page has {} bits", out.size(), bit_,
                         data_.size() * 8);
    }
    const auto* in = reinterpret_cast<const uint8_t*>(data_.data());
    for (size_t i = 0; i < out.size(); ++i, ++bit_) out[i] = (in[bit_ / 8] >> (bit_ % 8)) & 1;
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t bit_ = 0;
};

class PlainByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  explicit PlainByteArrayDecoder(std::span<const std::byte> data) : data_(data) {}
  Status Decode(std::span<ByteArray> out) override {
    const char* base = reinterpret_cast<const char*>(data_.data());
    size_t size = data_.size();
    for (size_t i = 0; i < out.size(); ++i) {
      if (size - pos_ < 4) {
        return CorruptData("PLAIN: byte array {} of {} has no length at offset {}", i, out.size(),
                           pos_);
      }
      uint32_t length;
      std::memcpy(&length, base + pos_, 4);
      pos_ += 4;
      if (length > size - pos_) {
        return CorruptData(
            "PLAIN: byte array of {} bytes at offset {} overruns the page ({} bytes)", length, pos_,
            size);
      }
      out[i] = ByteArray(base + pos_, length);
      pos_ += length;
    }
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

class PlainFixedLenByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  PlainFixedLenByteArrayDecoder(std::span<const std::byte> data, int32_t width)
      : data_(data), width_(static_cast<size_t>(width)) {}
  Status Decode(std::span<ByteArray> out) override {
    if (width_ != 0 && out.size() > (data_.size() - pos_) / width_) {
      return CorruptData("PLAIN: {} values of {} bytes at offset {}, the page has {} bytes",
                         out.size(), width_, pos_, data_.size() - pos_);
    }
    const char* p = reinterpret_cast<const char*>(data_.data()) + pos_;
    for (size_t i = 0; i < out.size(); ++i) out[i] = ByteArray(p + i * width_, width_);
    pos_ += out.size() * width_;
    return Ok();
  }

 private:
  std::span<const std::byte> data_;
  size_t width_;
  size_t pos_ = 0;
};

void Append(std::vector<std::byte>& out, const void* p, size_t n) {
  const auto* b = static_cast<const std::byte*>(p);
  out.insert(out.end(), b, b + n);
}

}  // namespace

template <typename T>
std::unique_ptr<ValueDecoder<T>> MakePlainDecoder(std::span<const std::byte> data) {
  return std::make_unique<PlainFixedDecoder<T>>(data);
}
template std::unique_ptr<ValueDecoder<int32_t>> MakePlainDecoder(std::span<const std::byte>);
template std::unique_ptr<ValueDecoder<int64_t>> MakePlainDecoder(std::span<const std::byte>);
template std::unique_ptr<ValueDecoder<Int96>> MakePlainDecoder(std::span<const std::byte>);
template std::unique_ptr<ValueDecoder<float>> MakePlainDecoder(std::span<const std::byte>);
template std::unique_ptr<ValueDecoder<double>> MakePlainDecoder(std::span<const std::byte>);

std::unique_ptr<ValueDecoder<bool>> MakePlainBooleanDecoder(std::span<const std::byte> data) {
  return std::make_unique<PlainBooleanDecoder>(data);
}

std::unique_ptr<ValueDecoder<ByteArray>> MakePlainByteArrayDecoder(
    std::span<const std::byte> data) {
  return std::make_unique<PlainByteArrayDecoder>(data);
}

std::unique_ptr<ValueDecoder<ByteArray>> MakePlainFixedLenByteArrayDecoder(
    std::span<const std::byte> data, int32_t width) {
  return std::make_unique<PlainFixedLenByteArrayDecoder>(data, width);
}

template <typename T>
void EncodePlain(std::span<const T> values, std::vector<std::byte>& out) {
  Append(out, values.data(), values.size() * sizeof(T));
}
template void EncodePlain(std::span<const int32_t>, std::vector<std::byte>&);
template void EncodePlain(std::span<const int64_t>, std::vector<std::byte>&);
template void EncodePlain(std::span<const Int96>, std::vector<std::byte>&);
template void EncodePlain(std::span<const float>, std::vector<std::byte>&);
template void EncodePlain(std::span<const double>, std::vector<std::byte>&);

void EncodePlainBoolean(std::span<const bool> values, std::vector<std::byte>& out) {
  size_t start = out.size();
  out.resize(start + (values.size() + 7) / 8, std::byte{0});
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) out[start + i / 8] |= static_cast<std::byte>(1 << (i % 8));
  }
}

void EncodePlainByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out) {
  for (ByteArray v : values) {
    auto length = static_cast<uint32_t>(v.size());
    Append(out, &length, 4);
    Append(out, v.data(), v.size());
  }
}

void EncodePlainFixedLenByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out) {
  for (ByteArray v : values) Append(out, v.data(), v.size());
}

}  // namespace floe::parquet
