#include <bit>

#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/writer/bloom_collector_internal.h"

namespace floe::parquet {

void BloomCollector::FillWhenLargest() {
  if (SplitBlockBloomFilter::OptimalBytes(hashes_.size(), fpp_, max_bytes_) <
      std::bit_floor(max_bytes_)) {
    return;
  }
  full_.emplace(SplitBlockBloomFilter::OptimalBytes(hashes_.size(), fpp_, max_bytes_));
  for (uint64_t h : hashes_) full_->Insert(h);
  hashes_ = {};
  distinct_.Clear();
}

std::vector<std::byte> BloomCollector::Finish() {
  SplitBlockBloomFilter filter = full_ ? std::move(*full_)
                                       : SplitBlockBloomFilter(SplitBlockBloomFilter::OptimalBytes(
                                             hashes_.size(), fpp_, max_bytes_));
  if (!full_) {
    for (uint64_t h : hashes_) filter.Insert(h);
  }
  full_.reset();
  hashes_.clear();
  distinct_.Clear();
  BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(filter.num_bytes());
  std::vector<std::byte> out = EncodeBloomFilterHeader(header);
  out.insert(out.end(), filter.bytes().begin(), filter.bytes().end());
  return out;
}

}  // namespace floe::parquet
