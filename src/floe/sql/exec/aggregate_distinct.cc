#include <algorithm>
#include <cstring>

#include "floe/sql/exec/aggregate_distinct_internal.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/util/xxhash64.h"

namespace floe::sql::exec {
namespace {

// Most distinct values are short (codes, names, numbers): those hash and compare through two
// overlapping loads that stay within their bytes, without a call; longer ones go through XXH64
// and memcmp.
constexpr size_t kShort = 16;

void LoadShort(const char* p, size_t n, uint64_t& a, uint64_t& b) {
  a = 0;
  b = 0;
  if (n >= 8) {
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t x = 0;
    uint32_t y = 0;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x;
    b = y;
  } else if (n > 0) {
    a = static_cast<uint8_t>(p[0]) | uint64_t{static_cast<uint8_t>(p[n / 2])} << 8 |
        uint64_t{static_cast<uint8_t>(p[n - 1])} << 16;
  }
}

uint64_t HashBytes(std::string_view bytes) {
  if (bytes.size() > kShort) return XxHash64(bytes);
  uint64_t a = 0;
  uint64_t b = 0;
  LoadShort(bytes.data(), bytes.size(), a, b);
  return MixBits(a ^ MixBits(b + bytes.size() * 0x9e3779b97f4a7c15ULL));
}

// The two loads cover every byte of a short value, so equal loads mean equal bytes.
bool EqualBytes(std::string_view x, std::string_view y) {
  if (x.size() != y.size()) return false;
  if (x.size() > kShort) return x == y;
  uint64_t xa = 0;
  uint64_t xb = 0;
  uint64_t ya = 0;
  uint64_t yb = 0;
  LoadShort(x.data(), x.size(), xa, xb);
  LoadShort(y.data(), y.size(), ya, yb);
  return xa == ya && xb == yb;
}

}  // namespace

void DistinctSet::Load(const Array& values) {
  TypeKind kind = values.kind();
  auto n = static_cast<size_t>(values.length());
  values_.resize(n);
  if (IsBinaryKind(kind)) {
    for (size_t r = 0; r < n; ++r) values_[r] = values.GetView(static_cast<int64_t>(r));
  } else {
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
    for (size_t r = 0; r < n; ++r) {
      values_[r] = std::string_view(scratch_).substr(scratch_offsets_[r],
                                                     scratch_offsets_[r + 1] - scratch_offsets_[r]);
    }
  }
  value_hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) value_hashes_[r] = HashBytes(values_[r]);
}

bool DistinctSet::UpdateRow(uint32_t group, int64_t row, int sign) {
  std::string_view value = values_[static_cast<size_t>(row)];
  uint64_t hash = Hash(value_hashes_[static_cast<size_t>(row)], group);
  auto equal = [&](uint32_t id) { return groups_[id] == group && EqualBytes(Stored(id), value); };
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

void DistinctSet::Update(const Array& values, const GroupRows& rows, int8_t* signs) {
  Load(values);
  std::fill(signs, signs + rows.num_rows, int8_t{0});
  bool nulls = values.null_count() > 0;
  ForRows(rows, [&](int64_t r, uint32_t group, int sign) {
    if (nulls && values.IsNull(r)) return true;
    if (UpdateRow(group, r, sign)) signs[r] = static_cast<int8_t>(sign);
    return true;
  });
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
    if (!Insert(base + static_cast<uint32_t>(group), value, HashBytes(value), count)) {
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
  values_.clear();
}

}  // namespace floe::sql::exec
