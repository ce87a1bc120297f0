#include "floe/sql/exec/aggregate_distinct.h"

#include <cstring>

#include "floe/sql/exec/cell.h"
#include "floe/util/xxhash64.h"

namespace floe::sql::exec {

void DistinctSet::Load(const Array& values) {
  values_ = &values;
  TypeKind kind = values.kind();
  auto n = static_cast<size_t>(values.length());
  views_ = IsBinaryKind(kind);
  if (!views_) {
    // Canonical bytes (so that -0.0 meets 0.0), or JSON for nested values; nulls stay empty.
    scratch_.clear();
    scratch_offsets_.assign(1, 0);
    bool fixed = VisitFixed(kind, [&]<typename T>(T) {
      scratch_.resize(n * sizeof(T));
      for (size_t r = 0; r < n; ++r) {
        T value = Canonical(FixedAt<T>(values, static_cast<int64_t>(r)));
        std::memcpy(scratch_.data() + r * sizeof(T), &value, sizeof(T));
        scratch_offsets_.push_back((r + 1) * sizeof(T));
      }
    });
    if (!fixed) {
      for (size_t r = 0; r < n; ++r) {
        auto row = static_cast<int64_t>(r);
        if (values.IsValid(row)) {
          if (kind == TypeKind::kBool) {
            scratch_.push_back(values.GetBool(row) ? '\1' : '\0');
          } else {
            AppendJson(values, row, scratch_);
          }
        }
        scratch_offsets_.push_back(scratch_.size());
      }
    }
  }
  value_hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) value_hashes_[r] = XxHash64(Value(static_cast<int64_t>(r)));
}

bool DistinctSet::Update(uint32_t group, int64_t row, int sign) {
  std::string_view value = Value(row);
  uint64_t hash = Hash(value_hashes_[static_cast<size_t>(row)], group);
  auto equal = [&](uint32_t id) { return groups_[id] == group && Stored(id) == value; };
  if (sign > 0) {
    bool inserted = false;
    uint32_t id = index_.FindOrInsert(hash, equal, inserted);
    if (inserted) {
      groups_.push_back(group);
      counts_.push_back(0);
      arena_ += value;
      offsets_.push_back(arena_.size());
    }
    return ++counts_[id] == 1;
  }
  uint32_t id = index_.Find(hash, equal);
  if (id == HashIndex::kNone) return false;
  if (--counts_[id] > 0) return false;
  index_.Erase(id);
  return true;
}

bool DistinctSet::Insert(uint32_t group, std::string_view value, uint64_t value_hash,
                         int64_t count) {
  bool inserted = false;
  index_.FindOrInsert(
      Hash(value_hash, group),
      [&](uint32_t id) { return groups_[id] == group && Stored(id) == value; }, inserted);
  if (!inserted) return false;
  groups_.push_back(group);
  counts_.push_back(count);
  arena_ += value;
  offsets_.push_back(arena_.size());
  return true;
}

void DistinctSet::Write(std::span<const uint32_t> ordinal, StateWriter& writer) const {
  auto live = [&](uint32_t id) {
    return counts_[id] > 0 && groups_[id] < ordinal.size() &&
           ordinal[groups_[id]] != HashIndex::kNone;
  };
  int64_t size = 0;
  for (uint32_t id = 0; id < groups_.size(); ++id) size += live(id) ? 1 : 0;
  writer.Int64(size);
  for (uint32_t id = 0; id < groups_.size(); ++id) {
    if (!live(id)) continue;
    writer.Int64(ordinal[groups_[id]]);
    writer.Bytes(Stored(id));
    writer.Int64(counts_[id]);
  }
}

Status DistinctSet::Read(uint32_t base, uint32_t num_groups, StateReader& reader) {
  FLOE_ASSIGN_OR_RETURN(int64_t size, reader.Int64());
  for (int64_t i = 0; i < size; ++i) {
    FLOE_ASSIGN_OR_RETURN(int64_t group, reader.Int64());
    FLOE_ASSIGN_OR_RETURN(std::string_view value, reader.Bytes());
    FLOE_ASSIGN_OR_RETURN(int64_t count, reader.Int64());
    if (group < 0 || group >= num_groups || count <= 0) {
      return CorruptData("aggregate state: a distinct value of group {} (of {}) counted {}", group,
                         num_groups, count);
    }
    if (index_.next_id() >= HashIndex::kMaxEntries) {
      return CorruptData("aggregate state: too many distinct values");
    }
    if (!Insert(base + static_cast<uint32_t>(group), value, XxHash64(value), count)) {
      return CorruptData("aggregate state: a distinct value of group {} appears twice", group);
    }
  }
  return {};
}

void DistinctSet::Clear() {
  index_.Clear();
  groups_.clear();
  counts_.clear();
  arena_.clear();
  offsets_.assign(1, 0);
  values_ = nullptr;
}

}  // namespace floe::sql::exec
