#include "floe/format/parquet/encoding/delta_length_byte_array.h"

#include <cstring>

namespace floe::parquet {

Result<std::unique_ptr<DeltaLengthByteArrayDecoder>> DeltaLengthByteArrayDecoder::Make(
    std::span<const std::byte> data) {
  auto lengths = DeltaBinaryPackedDecoder<int32_t>::Make(data);
  if (!lengths) return std::unexpected(std::move(lengths.error().AddContext("lengths")));
  auto end = (*lengths)->EndOffset();
  if (!end) return std::unexpected(std::move(end.error().AddContext("lengths")));
  return std::make_unique<DeltaLengthByteArrayDecoder>(data, std::move(*lengths), *end);
}

Status DeltaLengthByteArrayDecoder::Decode(std::span<ByteArray> out) {
  buffer_.resize(out.size());
  FLOE_RETURN_IF_ERROR_CTX(lengths_->Decode(buffer_), "DELTA_LENGTH_BYTE_ARRAY lengths");
  const char* base = reinterpret_cast<const char*>(data_.data());
  for (size_t i = 0; i < out.size(); ++i) {
    int32_t length = buffer_[i];
    if (length < 0 || static_cast<size_t>(length) > data_.size() - bytes_pos_) {
      return CorruptData(
          "DELTA_LENGTH_BYTE_ARRAY: value of {} bytes at offset {} overruns the "
          "page ({} bytes)",
          length, bytes_pos_, data_.size());
    }
    out[i] = ByteArray(base + bytes_pos_, static_cast<size_t>(length));
    bytes_pos_ += static_cast<size_t>(length);
  }
  return Ok();
}

void EncodeDeltaLengthByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out) {
  std::vector<int32_t> lengths;
  lengths.reserve(values.size());
  size_t total = 0;
  for (ByteArray v : values) {
    lengths.push_back(static_cast<int32_t>(v.size()));
    total += v.size();
  }
  EncodeDeltaBinaryPacked<int32_t>(lengths, out);
  size_t at = out.size();
  out.resize(at + total);
  for (ByteArray v : values) {
    if (v.empty()) continue;
    std::memcpy(out.data() + at, v.data(), v.size());
    at += v.size();
  }
}

}  // namespace floe::parquet
