#pragma once

// PLAIN_DICTIONARY / RLE_DICTIONARY data pages: one byte of bit width, then dictionary indices in
// the RLE/bit-packed hybrid. The dictionary itself (the dictionary page, PLAIN-encoded) is decoded
// by the caller into a span that must outlive this decoder. An index outside the dictionary is
// kCorruptData.

#include <memory>
#include <span>

#include "floe/format/parquet/encoding/rle.h"
#include "floe/format/parquet/encoding/value_decoder.h"

namespace floe::parquet {

// The indices of a dictionary-encoded page, checked against the dictionary size (for readers that
// keep values dictionary-encoded).
class DictionaryIndexDecoder {
 public:
  static Result<DictionaryIndexDecoder> Make(std::span<const std::byte> data,
                                             size_t dictionary_size);
  Status Decode(std::span<uint32_t> out);

 private:
  DictionaryIndexDecoder(RleBitPackedDecoder rle, size_t dictionary_size)
      : rle_(std::move(rle)), dictionary_size_(dictionary_size) {}
  RleBitPackedDecoder rle_;
  size_t dictionary_size_;
};

template <typename T>
Result<std::unique_ptr<ValueDecoder<T>>> MakeDictionaryDecoder(std::span<const T> dictionary,
                                                               std::span<const std::byte> data);

}  // namespace floe::parquet
