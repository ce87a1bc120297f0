#pragma once

// Parquet's split-block bloom filter (BloomFilter.md): a bitset of 32-byte blocks of eight 32-bit
// words; a value's XXH64 hash (seed 0, over its PLAIN bytes without length prefix) picks a block
// with its upper half and one bit in each word with its lower half times eight salts. False
// positives are possible, false negatives are not. FromBytes fails (kCorruptData) on a bitset whose
// size is not a whole, power-of-two number of blocks within kMaxBytes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet {

class SplitBlockBloomFilter {
 public:
  static constexpr size_t kBlockBytes = 32;
  static constexpr size_t kMaxBytes = 128 << 20;

  // The power-of-two size (kBlockBytes..max_bytes) that gives fpp for ndv distinct values.
  static size_t OptimalBytes(uint64_t ndv, double fpp, size_t max_bytes);

  explicit SplitBlockBloomFilter(size_t num_bytes);  // num_bytes: a power of two >= 32
  static Result<SplitBlockBloomFilter> FromBytes(std::span<const std::byte> bitset);

  void Insert(uint64_t hash);
  bool MightContain(uint64_t hash) const;
  // The bitset as stored after its header (little-endian words).
  std::span<const std::byte> bytes() const { return std::as_bytes(std::span(words_)); }
  size_t num_bytes() const { return words_.size() * 4; }

 private:
  SplitBlockBloomFilter() = default;
  std::vector<uint32_t> words_;
};

// The hashes of values as the filter takes them: the PLAIN bytes of INT32, INT64, FLOAT, DOUBLE;
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY bytes as they are.
uint64_t BloomHashInt32(int32_t v);
uint64_t BloomHashInt64(int64_t v);
uint64_t BloomHashFloat(float v);
uint64_t BloomHashDouble(double v);
uint64_t BloomHashBytes(std::string_view v);

}  // namespace floe::parquet
