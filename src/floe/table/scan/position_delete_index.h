#pragma once

// The set of deleted row positions of one data file, from position delete files and deletion
// vectors alike. Positions are grouped in chunks of 65,536 rows, each an 8 KiB bitmap made when
// the first position in it is added, so memory is bounded by the rows of the data file, not by how
// the deletes were encoded (a deletion vector's run container can name 65,536 rows in 4 bytes).
// Positions at or beyond the limit (the data file's row count) name no row and are dropped.

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace floe::table {

class PositionDeleteIndex {
 public:
  explicit PositionDeleteIndex(int64_t limit = INT64_MAX) : limit_(limit) {}

  // Negative positions are ignored, as are those at or beyond the limit.
  void Add(int64_t position);
  // Positions [begin, end).
  void AddRange(int64_t begin, int64_t end);
  // Adds base + i for every set bit i of words (bit i of words[i / 64]).
  void AddWords(int64_t base, const uint64_t* words, int count);

  bool Contains(int64_t position) const;
  bool empty() const { return cardinality_ == 0; }
  int64_t cardinality() const { return cardinality_; }

  // For rows first .. first + n - 1 of the file: clears keep[i] when row first + i is deleted.
  void ClearDeleted(int64_t first, int64_t n, uint8_t* keep) const;

 private:
  static constexpr int kChunkBits = 16;
  static constexpr int64_t kChunkRows = int64_t{1} << kChunkBits;
  static constexpr int kChunkWords = kChunkRows / 64;
  uint64_t* Chunk(int64_t key);

  int64_t limit_;
  int64_t cardinality_ = 0;
  std::unordered_map<int64_t, std::unique_ptr<uint64_t[]>> chunks_;
};

}  // namespace floe::table
