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
#include "floe/sql/exec/aggregate_index.h"
#include "floe/sql/exec/state_codec.h"

namespace floe::sql::exec {

class DistinctSet {
 public:
  // Ids handed out so far (HashIndex::kMaxEntries bounds them).
  uint32_t num_ids() const { return index_.next_id(); }
  // Prepares the non-null rows of `values` (a column of the call's argument type) for Update.
  void Load(const Array& values);
  // One more (sign > 0) or one less (sign < 0) row with `row`'s value in `group`: true when that
  // adds the value to the group or removes it. A retraction of a value the group lacks is ignored.
  bool Update(uint32_t group, int64_t row, int sign);

  // The pairs whose group is live, each group numbered by `ordinal` (HashIndex::kNone: dropped).
  void Write(std::span<const uint32_t> ordinal, StateWriter& writer) const;
  // Reads what Write wrote, with group ordinals counted from `base`; kCorruptData on an ordinal
  // beyond `num_groups` or a repeated pair.
  Status Read(uint32_t base, uint32_t num_groups, StateReader& reader);

  void Clear();

 private:
  std::string_view Value(int64_t row) const {
    if (views_) return values_->GetView(row);
    auto r = static_cast<size_t>(row);
    return std::string_view(scratch_).substr(scratch_offsets_[r],
                                             scratch_offsets_[r + 1] - scratch_offsets_[r]);
  }
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
  // The loaded batch: its values are the array's own views (strings, binaries) or canonical
  // bytes in scratch_.
  const Array* values_ = nullptr;
  bool views_ = false;
  std::string scratch_;
  std::vector<uint64_t> scratch_offsets_;
  std::vector<uint64_t> value_hashes_;
};

}  // namespace floe::sql::exec
