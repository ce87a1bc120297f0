#include "floe/format/parquet/bloom_filter.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "floe/util/xxhash64.h"

namespace floe::parquet {
namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

size_t BlockIndex(uint64_t hash, size_t num_blocks) {
  return static_cast<size_t>(((hash >> 32) * num_blocks) >> 32);
}

uint32_t BitOfWord(uint32_t key, int i) { return uint32_t{1} << ((key * kSalt[i]) >> 27); }

}  // namespace

size_t SplitBlockBloomFilter::OptimalBytes(uint64_t ndv, double fpp, size_t max_bytes) {
  // m = -8 n / ln(1 - p^(1/8)) bits, for eight bits set per value.
  double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  size_t limit = std::max(kBlockBytes, std::bit_floor(std::min(max_bytes, kMaxBytes)));
  if (!(bits / 8 < static_cast<double>(limit))) return limit;
  return std::clamp(std::bit_ceil(static_cast<size_t>(bits / 8) + 1), kBlockBytes, limit);
}

SplitBlockBloomFilter::SplitBlockBloomFilter(size_t num_bytes) : words_(num_bytes / 4, 0) {}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::FromBytes(std::span<const std::byte> bitset) {
  if (bitset.size() < kBlockBytes || bitset.size() > kMaxBytes ||
      !std::has_single_bit(bitset.size())) {
    return CorruptData("bloom filter of {} bytes: not a power-of-two number of 32-byte blocks",
                       bitset.size());
  }
  SplitBlockBloomFilter filter;
  filter.words_.resize(bitset.size() / 4);
  std::memcpy(filter.words_.data(), bitset.data(), bitset.size());
  return filter;
}

void SplitBlockBloomFilter::Insert(uint64_t hash) {
  uint32_t* block = words_.data() + 8 * BlockIndex(hash, words_.size() / 8);
  auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) block[i] |= BitOfWord(key, i);
}

bool SplitBlockBloomFilter::MightContain(uint64_t hash) const {
  const uint32_t* block = words_.data() + 8 * BlockIndex(hash, words_.size() / 8);
  auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) {
    if ((block[i] & BitOfWord(key, i)) == 0) return false;
  }
  return true;
}

uint64_t BloomHashInt32(int32_t v) { return XxHash64Fixed4(static_cast<uint32_t>(v)); }
uint64_t BloomHashInt64(int64_t v) { return XxHash64Fixed8(static_cast<uint64_t>(v)); }
uint64_t BloomHashFloat(float v) { return XxHash64Fixed4(std::bit_cast<uint32_t>(v)); }
uint64_t BloomHashDouble(double v) { return XxHash64Fixed8(std::bit_cast<uint64_t>(v)); }
uint64_t BloomHashBytes(std::string_view v) { return XxHash64(v); }

}  // namespace floe::parquet
