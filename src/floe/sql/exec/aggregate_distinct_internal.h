#pragma once

// The distinct values of a DISTINCT aggregate call (COUNT(DISTINCT x), SUM(DISTINCT x)...), for
// every group at once: a set of (group id, value) pairs, each with the number of rows that hold
// it, so that a retraction removes the value only with its last row. Values are stored once, as
// bytes in an arena: the canonical bytes of fixed-width values, the bytes of strings and
// binaries, the JSON text of nested values (COUNT(DISTINCT) of a list or map). Each input batch is
// hashed in one pass (Load), then looked up row by row.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/array.h"
#include "floe/sql/exec/aggregate_index_internal.h"
#include "floe/sql/exec/aggregate_rows_internal.h"
#include "floe/sql/exec/state_codec_internal.h"

namespace floe::sql::exec {

class DistinctSet {
 public:
  // Ids handed out so far (HashIndex::kMaxEntries bounds them).
  uint32_t num_ids() const { return index_.next_id(); }
  // Counts the non-null rows of `values` (a column of the call's argument type) into or out of
  // their groups. signs[row] becomes the row's sign where that adds the value to its group or
  // removes its last occurrence, else 0 (as for null rows, skipped rows and retractions of a value
  // the group lacks).
  void Update(const Array& values, const GroupRows& rows, int8_t* signs);

  // The pairs whose group is live, each group numbered by `ordinal` (HashIndex::kNone: dropped).
  void Write(std::span<const uint32_t> ordinal, StateWriter& writer) const;
  // Reads what Write wrote, with group ordinals counted from `base`; kCorruptData on an ordinal
  // beyond `num_groups` or a repeated pair.
  Status Read(uint32_t base, uint32_t num_groups, StateReader& reader);

  void Clear();

 private:
  void Load(const Array& values);
  bool UpdateRow(uint32_t group, int64_t row, int sign);
  std::string_view Stored(uint32_t id) const {
    return std::string_view(arena_).substr(offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  static uint64_t Hash(uint64_t value_hash, uint32_t group) {
    return MixBits(value_hash ^ (uint64_t{group} * 0x9e3779b97f4a7c15ULL));
  }
  bool Insert(uint32_t group, std::string_view value, uint64_t value_hash, int64_t count);

  HashIndex index_;
  std::vector<uint32_t> groups_;  // by entry id
  std::vector<int64_t> counts_;   // by entry id; 0 once erased
  std::string arena_;
  std::vector<uint64_t> offsets_ = {0};
  // The loaded batch: each row's value (a view of the array's own bytes for strings and
  // binaries, else of canonical bytes in scratch_) and its hash.
  std::string scratch_;
  std::vector<uint64_t> scratch_offsets_;
  std::vector<std::string_view> values_;
  std::vector<uint64_t> value_hashes_;
};

}  // namespace floe::sql::exec
