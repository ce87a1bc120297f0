#pragma once

// The GROUP BY keys of a hash aggregate, one per group id, and the keys of the batch being
// aggregated, with their hashes. Keys whose columns are all fixed-width and fit in 128 bits
// (values and one null bit per nullable column) are packed into one integer: comparing two keys
// is comparing two integers. Other keys (strings, several wide columns) are cell encodings
// (cell_internal.h) laid out column by column for the whole batch and stored once per group in an
// arena. Both forms hash per batch in one pass, and both go into checkpoints as bytes.
//
// A key restored from a checkpoint must come from the same plan (same group columns and types);
// ReadKey fails with kCorruptData on bytes of the wrong size for a packed key.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/sql/exec/aggregate_index_internal.h"
#include "floe/sql/exec/row_builder_internal.h"
#include "floe/sql/exec/state_codec_internal.h"

namespace floe::sql::exec {

class GroupKeys {
 public:
  // `columns` index `input`; each must be decodable (cell_internal.h IsDecodable).
  GroupKeys(const BatchSchema& input, std::vector<int> columns);

  bool packed() const { return packed_; }
  bool empty() const { return columns_.empty(); }

  // Computes the key and hash of every row of `batch` (which has the input's schema).
  void Load(const RecordBatch& batch);
  uint64_t hash(int64_t row) const { return hashes_[static_cast<size_t>(row)]; }
  // Whether group `id`'s key equals the key of `row` of the loaded batch.
  bool Equals(uint32_t id, int64_t row) const {
    return packed_ ? Equals<true>(id, row) : Equals<false>(id, row);
  }
  // Equals for a layout known at compile time (packed() == kPacked), for the per-row loop.
  template <bool kPacked>
  bool Equals(uint32_t id, int64_t row) const {
    if constexpr (kPacked) return keys_[id] == batch_keys_[static_cast<size_t>(row)];
    return Stored(id) == BatchKey(row);
  }
  // Whether groups `a` and `b` have equal keys.
  bool SameKey(uint32_t a, uint32_t b) const {
    return packed_ ? keys_[a] == keys_[b] : Stored(a) == Stored(b);
  }
  // Stores the key of `row` of the loaded batch as the next group's.
  void Append(int64_t row);
  // Without GROUP BY: the one key's hash, and storing it.
  static uint64_t EmptyKeyHash() { return MixBits128(0); }
  void AppendEmpty() { keys_.push_back(0); }

  void WriteKey(uint32_t id, StateWriter& writer) const;
  // Reads a key that WriteKey wrote, stores it as the next group's, and gives its hash.
  Result<uint64_t> ReadKey(StateReader& reader);

  // Appends group `id`'s key columns to rows.column(0...).
  Status AppendTo(uint32_t id, RowBuilder& rows) const;

  void Clear();

 private:
  struct PackedColumn {
    TypeKind kind;
    int shift = 0;      // of the value bits
    int bits = 0;       // value bits
    int null_bit = -1;  // -1: not nullable
  };

  std::string_view Stored(uint32_t id) const {
    return std::string_view(arena_).substr(arena_offsets_[id],
                                           arena_offsets_[id + 1] - arena_offsets_[id]);
  }
  std::string_view BatchKey(int64_t row) const {
    auto r = static_cast<size_t>(row);
    return std::string_view(batch_bytes_)
        .substr(batch_offsets_[r], batch_offsets_[r + 1] - batch_offsets_[r]);
  }
  void LoadPacked(const RecordBatch& batch);
  void LoadEncoded(const RecordBatch& batch);

  std::vector<int> columns_;
  std::vector<DataTypePtr> types_;
  bool packed_ = true;
  std::vector<PackedColumn> layout_;  // packed: one per column
  std::vector<uint64_t> hashes_;      // of the loaded batch's rows
  // Packed: one integer per group and per row of the loaded batch.
  std::vector<unsigned __int128> keys_;
  std::vector<unsigned __int128> batch_keys_;
  // Encoded: the groups' keys back to back, and the loaded batch's.
  std::string arena_;
  std::vector<uint64_t> arena_offsets_ = {0};
  std::string batch_bytes_;
  std::vector<uint64_t> batch_offsets_;
};

}  // namespace floe::sql::exec
