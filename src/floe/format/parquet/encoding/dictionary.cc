#include "floe/format/parquet/encoding/dictionary.h"

#include <algorithm>

namespace floe::parquet {

Result<DictionaryIndexDecoder> DictionaryIndexDecoder::Make(std::span<const std::byte> data,
                                                            size_t dictionary_size) {
  if (data.empty()) return CorruptData("dictionary-encoded page without a bit width");
  int bit_width = static_cast<uint8_t>(data[0]);
  auto rle = RleBitPackedDecoder::Make(data.subspan(1), bit_width);
  if (!rle) return std::unexpected(std::move(rle.error().AddContext("dictionary indices")));
  return DictionaryIndexDecoder(std::move(*rle), dictionary_size);
}

Status DictionaryIndexDecoder::Decode(std::span<uint32_t> out) {
  FLOE_RETURN_IF_ERROR_CTX(rle_.Decode(out), "dictionary indices");
  if (out.empty()) return Ok();
  uint32_t max = *std::max_element(out.begin(), out.end());
  if (max >= dictionary_size_) {
    return CorruptData("dictionary index {} out of range: the dictionary has {} values", max,
                       dictionary_size_);
  }
  return Ok();
}

namespace {

template <typename T>
class DictionaryDecoder final : public ValueDecoder<T> {
 public:
  DictionaryDecoder(std::span<const T> dictionary, DictionaryIndexDecoder indices)
      : dictionary_(dictionary), indices_(std::move(indices)) {}

  Status Decode(std::span<T> out) override {
    constexpr size_t kChunk = 1024;
    uint32_t buffer[kChunk];
    for (size_t done = 0; done < out.size();) {
      size_t n = std::min(kChunk, out.size() - done);
      FLOE_RETURN_IF_ERROR(indices_.Decode(std::span(buffer, n)));
      for (size_t i = 0; i < n; ++i) out[done + i] = dictionary_[buffer[i]];
      done += n;
    }
    return Ok();
  }

 private:
  std::span<const T> dictionary_;
  DictionaryIndexDecoder indices_;
};

}  // namespace

template <typename T>
Result<std::unique_ptr<ValueDecoder<T>>> MakeDictionaryDecoder(std::span<const T> dictionary,
                                                               std::span<const std::byte> data) {
  FLOE_ASSIGN_OR_RETURN(DictionaryIndexDecoder indices,
                        DictionaryIndexDecoder::Make(data, dictionary.size()));
  return std::make_unique<DictionaryDecoder<T>>(dictionary, std::move(indices));
}

template Result<std::unique_ptr<ValueDecoder<int32_t>>> MakeDictionaryDecoder(
    std::span<const int32_t>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<int64_t>>> MakeDictionaryDecoder(
    std::span<const int64_t>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<Int96>>> MakeDictionaryDecoder(
    std::span<const Int96>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<float>>> MakeDictionaryDecoder(
    std::span<const float>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<double>>> MakeDictionaryDecoder(
    std::span<const double>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<ByteArray>>> MakeDictionaryDecoder(
    std::span<const ByteArray>, std::span<const std::byte>);
template Result<std::unique_ptr<ValueDecoder<bool>>> MakeDictionaryDecoder(
    std::span<const bool>, std::span<const std::byte>);

}  // namespace floe::parquet
