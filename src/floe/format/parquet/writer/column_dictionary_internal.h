#pragma once

// Internal to the Parquet writer: the dictionary of one column chunk, its distinct values in
// first-seen order with the bytes their PLAIN encoding (the dictionary page) takes, and that page's
// encoding. Whether a chunk keeps its dictionary is the column writer's choice.

#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/writer/dictionary_table_internal.h"

namespace floe::parquet {

// P is a physical type other than bool.
template <typename P>
class ColumnDictionary {
 public:
  // byte_array: values are BYTE_ARRAY (each behind a 4-byte length in the page), else
  // FIXED_LEN_BYTE_ARRAY when P is ByteArray.
  explicit ColumnDictionary(bool byte_array) : byte_array_(byte_array) {}

  // The value's index; inserted tells whether it is new.
  uint32_t Insert(P value, bool& inserted) {
    uint32_t index;
    if constexpr (kBytes) {
      index = bytes_.Insert(value, inserted);
      if (inserted) {
        plain_bytes_ += byte_array_ ? 4 + static_cast<int64_t>(value.size())
                                    : static_cast<int64_t>(value.size());
      }
    } else {
      index = fixed_.Insert(std::bit_cast<Bits>(value), inserted);
      if (inserted) {
        values_.push_back(value);
        plain_bytes_ += sizeof(P);
      }
    }
    return index;
  }

  size_t size() const {
    if constexpr (kBytes) {
      return bytes_.size();
    } else {
      return values_.size();
    }
  }
  P value(uint32_t index) const {
    if constexpr (kBytes) {
      return bytes_.value(index);
    } else {
      return values_[index];
    }
  }
  // The bytes of the dictionary page, uncompressed.
  int64_t plain_bytes() const { return plain_bytes_; }

  // The dictionary page's values (PLAIN).
  void Encode(std::vector<std::byte>& out) const {
    if constexpr (kBytes) {
      std::vector<ByteArray> views;
      views.reserve(bytes_.size());
      for (size_t i = 0; i < bytes_.size(); ++i) views.push_back(bytes_.value(i));
      if (byte_array_) {
        EncodePlainByteArray(views, out);
      } else {
        EncodePlainFixedLenByteArray(views, out);
      }
    } else {
      EncodePlain<P>(values_, out);
    }
  }

  void Clear() {
    fixed_.Clear();
    values_.clear();
    bytes_.Clear();
    plain_bytes_ = 0;
  }

 private:
  static constexpr bool kBytes = std::is_same_v<P, ByteArray>;
  using Bits = std::conditional_t<sizeof(P) <= 4, uint32_t, uint64_t>;

  bool byte_array_;
  int64_t plain_bytes_ = 0;
  FixedDictionaryTable<Bits> fixed_;
  std::vector<P> values_;
  BytesDictionaryTable bytes_;
};

}  // namespace floe::parquet
