#pragma once

// Internal to the Parquet writer: the bloom filter of one column chunk, for the columns that ask
// for one (write.parquet.bloom-filter-enabled.column.*). It collects the distinct hashes of the
// chunk to size the filter by their number, up to the largest filter allowed; beyond that it fills
// a filter of the largest size directly.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "floe/format/parquet/bloom_filter.h"
#include "floe/format/parquet/encoding/value_decoder.h"
#include "floe/format/parquet/writer/dictionary_table_internal.h"

namespace floe::parquet {

class BloomCollector {
 public:
  BloomCollector(double fpp, int64_t max_bytes)
      : fpp_(fpp), max_bytes_(static_cast<size_t>(max_bytes)) {}

  void Insert(uint64_t hash) {
    if (full_) {
      full_->Insert(hash);
      return;
    }
    bool inserted;
    distinct_.Insert(hash, inserted);
    if (!inserted) return;
    hashes_.push_back(hash);
    if (hashes_.size() % 4096 == 0) FillWhenLargest();
  }

  // The filter's header and bitset; resets for the next chunk.
  std::vector<std::byte> Finish();

 private:
  // Once the distinct hashes ask for the largest filter, fills one.
  void FillWhenLargest();

  double fpp_;
  size_t max_bytes_;
  FixedDictionaryTable<uint64_t> distinct_;
  std::vector<uint64_t> hashes_;
  std::optional<SplitBlockBloomFilter> full_;
};

// The hash a bloom filter keeps of a value of physical type P (BOOLEAN columns have no filter).
template <typename P>
uint64_t BloomHash(P value) {
  if constexpr (std::is_same_v<P, ByteArray>) {
    return BloomHashBytes(value);
  } else if constexpr (std::is_same_v<P, int32_t>) {
    return BloomHashInt32(value);
  } else if constexpr (std::is_same_v<P, int64_t>) {
    return BloomHashInt64(value);
  } else if constexpr (std::is_same_v<P, float>) {
    return BloomHashFloat(value);
  } else if constexpr (std::is_same_v<P, double>) {
    return BloomHashDouble(value);
  } else {
    return 0;
  }
}

}  // namespace floe::parquet
