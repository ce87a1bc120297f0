#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#include "floe/sql/exec/aggregate_keys_internal.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/util/xxhash64.h"

namespace floe::sql::exec {
namespace {

using U128 = unsigned __int128;

template <typename T>
U128 ToBits(T value) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<uint32_t>(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(value);
  } else if constexpr (std::is_same_v<T, __int128>) {
    return static_cast<U128>(value);
  } else {
    return static_cast<std::make_unsigned_t<T>>(value);
  }
}

template <typename T>
T FromBits(U128 bits) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(static_cast<uint64_t>(bits));
  } else if constexpr (std::is_same_v<T, __int128>) {
    return static_cast<__int128>(bits);
  } else {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
  }
}

// Value bits of a packable kind, 0 for kinds that do not pack.
int PackedBits(TypeKind kind) {
  if (kind == TypeKind::kBool) return 1;
  int bits = 0;
  VisitFixed(kind, [&]<typename T>(T) { bits = static_cast<int>(sizeof(T)) * 8; });
  return bits;
}

U128 Mask(int bits) { return bits >= 128 ? ~U128{0} : (U128{1} << bits) - 1; }

}  // namespace

GroupKeys::GroupKeys(const BatchSchema& input, std::vector<int> columns)
    : columns_(std::move(columns)) {
  int used = 0;
  for (int column : columns_) {
    const Field& field = input.field(column);
    types_.push_back(field.type);
    PackedColumn packed{.kind = field.type->kind(), .bits = PackedBits(field.type->kind())};
    if (packed.bits == 0) packed_ = false;
    if (field.nullable) packed.null_bit = used++;
    packed.shift = used;
    used += packed.bits;
    layout_.push_back(packed);
  }
  if (used > 128) packed_ = false;
}

void GroupKeys::Load(const RecordBatch& batch) {
  if (packed_) {
    LoadPacked(batch);
  } else {
    LoadEncoded(batch);
  }
}

void GroupKeys::LoadPacked(const RecordBatch& batch) {
  auto n = static_cast<size_t>(batch.num_rows());
  batch_keys_.assign(n, 0);
  for (size_t c = 0; c < columns_.size(); ++c) {
    const Array& array = batch.column(columns_[c]);
    const PackedColumn& packed = layout_[c];
    int shift = packed.shift;
    if (packed.kind == TypeKind::kBool) {
      for (size_t r = 0; r < n; ++r) {
        batch_keys_[r] |= U128{array.GetBool(static_cast<int64_t>(r))} << shift;
      }
    } else {
      VisitFixed(packed.kind, [&]<typename T>(T) {
        for (size_t r = 0; r < n; ++r) {
          batch_keys_[r] |= ToBits(Canonical(FixedAt<T>(array, static_cast<int64_t>(r)))) << shift;
        }
      });
    }
    if (array.null_count() > 0) {
      U128 clear = ~(Mask(packed.bits) << shift);
      for (size_t r = 0; r < n; ++r) {
        if (!array.IsNull(static_cast<int64_t>(r))) continue;
        batch_keys_[r] = (batch_keys_[r] & clear) | U128{1} << packed.null_bit;
      }
    }
  }
  hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) hashes_[r] = MixBits128(batch_keys_[r]);
}

void GroupKeys::LoadEncoded(const RecordBatch& batch) {
  auto n = static_cast<size_t>(batch.num_rows());
  batch_offsets_.assign(n + 1, 0);
  std::span<uint64_t> sizes(batch_offsets_.data() + 1, n);
  for (int column : columns_) AddEncodedSizes(batch.column(column), sizes);
  for (size_t r = 0; r < n; ++r) batch_offsets_[r + 1] += batch_offsets_[r];
  batch_bytes_.resize(batch_offsets_[n]);
  std::vector<uint64_t> cursors(batch_offsets_.begin(), batch_offsets_.end() - 1);
  for (int column : columns_) EncodeColumn(batch.column(column), cursors, batch_bytes_.data());
  hashes_.resize(n);
  for (size_t r = 0; r < n; ++r) hashes_[r] = XxHash64(BatchKey(static_cast<int64_t>(r)));
}

void GroupKeys::Append(int64_t row) {
  if (packed_) {
    keys_.push_back(batch_keys_[static_cast<size_t>(row)]);
    return;
  }
  arena_ += BatchKey(row);
  arena_offsets_.push_back(arena_.size());
}

void GroupKeys::WriteKey(uint32_t id, StateWriter& writer) const {
  if (packed_) {
    writer.Fixed(keys_[id]);
  } else {
    writer.Bytes(Stored(id));
  }
}

Result<uint64_t> GroupKeys::ReadKey(StateReader& reader) {
  if (packed_) {
    FLOE_ASSIGN_OR_RETURN(U128 key, reader.Fixed<U128>());
    keys_.push_back(key);
    return MixBits128(key);
  }
  FLOE_ASSIGN_OR_RETURN(std::string_view key, reader.Bytes());
  arena_ += key;
  arena_offsets_.push_back(arena_.size());
  return XxHash64(key);
}

Status GroupKeys::AppendTo(uint32_t id, RowBuilder& rows) const {
  if (!packed_) {
    std::string_view key = Stored(id);
    for (size_t c = 0; c < columns_.size(); ++c) {
      FLOE_RETURN_IF_ERROR(DecodeCell(*types_[c], key, rows.column(static_cast<int>(c))));
    }
    return {};
  }
  U128 key = keys_[id];
  for (size_t c = 0; c < columns_.size(); ++c) {
    const PackedColumn& packed = layout_[c];
    ArrayBuilder& builder = rows.column(static_cast<int>(c));
    if (packed.null_bit >= 0 && ((key >> packed.null_bit) & 1) != 0) {
      builder.AppendNull();
      continue;
    }
    U128 bits = (key >> packed.shift) & Mask(packed.bits);
    if (packed.kind == TypeKind::kBool) {
      static_cast<BooleanBuilder&>(builder).Append(bits != 0);
      continue;
    }
    VisitFixed(packed.kind, [&]<typename T>(T) {
      static_cast<NumericBuilder<T>&>(builder).Append(FromBits<T>(bits));
    });
  }
  return {};
}

void GroupKeys::Clear() {
  keys_.clear();
  arena_.clear();
  arena_offsets_.assign(1, 0);
}

}  // namespace floe::sql::exec
