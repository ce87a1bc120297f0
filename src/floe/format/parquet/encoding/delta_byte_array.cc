#include "floe/format/parquet/encoding/delta_byte_array.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace floe::parquet {

Result<std::unique_ptr<DeltaByteArrayDecoder>> DeltaByteArrayDecoder::Make(
    std::span<const std::byte> data) {
  auto prefixes = DeltaBinaryPackedDecoder<int32_t>::Make(data);
  if (!prefixes) return std::unexpected(std::move(prefixes.error().AddContext("prefix lengths")));
  auto end = (*prefixes)->EndOffset();
  if (!end) return std::unexpected(std::move(end.error().AddContext("prefix lengths")));
  auto suffixes = DeltaLengthByteArrayDecoder::Make(data.subspan(*end));
  if (!suffixes) return std::unexpected(std::move(suffixes.error().AddContext("suffixes")));
  return std::make_unique<DeltaByteArrayDecoder>(std::move(*prefixes), std::move(*suffixes));
}

Status DeltaByteArrayDecoder::Decode(std::span<ByteArray> out) {
  prefix_lengths_.resize(out.size());
  suffix_views_.resize(out.size());
  FLOE_RETURN_IF_ERROR_CTX(prefixes_->Decode(prefix_lengths_), "DELTA_BYTE_ARRAY prefix lengths");
  FLOE_RETURN_IF_ERROR_CTX(suffixes_->Decode(suffix_views_), "DELTA_BYTE_ARRAY suffixes");
  // First pass: check the prefixes and size the buffer, so that views into it stay valid.
  size_t total = 0;
  size_t previous_length = previous_.size();
  for (size_t i = 0; i < out.size(); ++i) {
    int32_t prefix = prefix_lengths_[i];
    if (prefix < 0 || static_cast<size_t>(prefix) > previous_length) {
      return CorruptData("DELTA_BYTE_ARRAY: prefix of {} bytes with a previous value of {}", prefix,
                         previous_length);
    }
    previous_length = static_cast<size_t>(prefix) + suffix_views_[i].size();
    total += previous_length;
    // Shared prefixes let a small page expand enormously: bound what one batch may rebuild.
    if (total > kMaxBatchBytes) {
      return ResourceExhausted("DELTA_BYTE_ARRAY: a batch of {} values expands past {} bytes",
                               out.size(), kMaxBatchBytes);
    }
  }
  buffer_.resize(total);
  size_t pos = 0;
  const char* previous = previous_.data();
  for (size_t i = 0; i < out.size(); ++i) {
    auto prefix = static_cast<size_t>(prefix_lengths_[i]);
    char* value = buffer_.data() + pos;
    std::copy_n(previous, prefix, value);
    std::copy_n(suffix_views_[i].data(), suffix_views_[i].size(), value + prefix);
    size_t length = prefix + suffix_views_[i].size();
    out[i] = ByteArray(value, length);
    previous = value;
    pos += length;
  }
  if (!out.empty()) previous_.assign(out.back());
  return Ok();
}

void EncodeDeltaByteArray(std::span<const ByteArray> values, std::vector<std::byte>& out) {
  std::vector<int32_t> prefixes;
  std::vector<ByteArray> suffixes;
  prefixes.reserve(values.size());
  suffixes.reserve(values.size());
  ByteArray previous;
  for (ByteArray v : values) {
    size_t common = 0;
    size_t limit = std::min(previous.size(), v.size());
    // Eight bytes at a time: the first differing byte is the lowest set byte of the difference.
    for (; common + 8 <= limit; common += 8) {
      uint64_t a, b;
      std::memcpy(&a, previous.data() + common, 8);
      std::memcpy(&b, v.data() + common, 8);
      if (a != b) {
        common += static_cast<size_t>(std::countr_zero(a ^ b)) / 8;
        limit = common;
        break;
      }
    }
    while (common < limit && previous[common] == v[common]) ++common;
    prefixes.push_back(static_cast<int32_t>(common));
    suffixes.push_back(v.substr(common));
    previous = v;
  }
  EncodeDeltaBinaryPacked<int32_t>(prefixes, out);
  EncodeDeltaLengthByteArray(suffixes, out);
}

}  // namespace floe::parquet
