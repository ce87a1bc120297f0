#include "floe/table/scan/position_delete_index.h"

#include <algorithm>
#include <bit>

namespace floe::table {

uint64_t* PositionDeleteIndex::Chunk(int64_t key) {
  auto& chunk = chunks_[key];
  if (!chunk) chunk = std::make_unique<uint64_t[]>(kChunkWords);  // value-initialized: zeros
  return chunk.get();
}

void PositionDeleteIndex::Add(int64_t position) {
  if (position < 0 || position >= limit_) return;
  uint64_t* chunk = Chunk(position >> kChunkBits);
  const int64_t bit = position & (kChunkRows - 1);
  uint64_t& word = chunk[bit >> 6];
  const uint64_t mask = uint64_t{1} << (bit & 63);
  cardinality_ += (word & mask) == 0;
  word |= mask;
}

void PositionDeleteIndex::AddRange(int64_t begin, int64_t end) {
  begin = std::max<int64_t>(begin, 0);
  end = std::min(end, limit_);
  while (begin < end) {
    uint64_t* chunk = Chunk(begin >> kChunkBits);
    const int64_t chunk_end = std::min(end, ((begin >> kChunkBits) + 1) << kChunkBits);
    for (int64_t p = begin; p < chunk_end;) {
      const int64_t bit = p & (kChunkRows - 1);
      const int64_t in_word = std::min<int64_t>(64 - (bit & 63), chunk_end - p);
      const uint64_t mask = (in_word == 64 ? ~uint64_t{0} : ((uint64_t{1} << in_word) - 1))
                            << (bit & 63);
      uint64_t& word = chunk[bit >> 6];
      cardinality_ += std::popcount(mask & ~word);
      word |= mask;
      p += in_word;
    }
    begin = chunk_end;
  }
}

void PositionDeleteIndex::AddWords(int64_t base, const uint64_t* words, int count) {
  for (int w = 0; w < count; ++w) {
    uint64_t bits = words[w];
    while (bits != 0) {
      Add(base + w * 64 + std::countr_zero(bits));
      bits &= bits - 1;
    }
  }
}

bool PositionDeleteIndex::Contains(int64_t position) const {
  if (position < 0) return false;
  auto it = chunks_.find(position >> kChunkBits);
  if (it == chunks_.end()) return false;
  const int64_t bit = position & (kChunkRows - 1);
  return (it->second[bit >> 6] >> (bit & 63)) & 1;
}

void PositionDeleteIndex::ClearDeleted(int64_t first, int64_t n, uint8_t* keep) const {
  if (cardinality_ == 0) return;
  int64_t i = 0;
  while (i < n) {
    const int64_t position = first + i;
    const int64_t key = position >> kChunkBits;
    const int64_t chunk_end = std::min(n, ((key + 1) << kChunkBits) - first);
    auto it = chunks_.find(key);
    if (it != chunks_.end()) {
      const uint64_t* chunk = it->second.get();
      for (int64_t k = i; k < chunk_end; ++k) {
        const int64_t bit = (first + k) & (kChunkRows - 1);
        if ((chunk[bit >> 6] >> (bit & 63)) & 1) keep[k] = 0;
      }
    }
    i = chunk_end;
  }
}

}  // namespace floe::table
