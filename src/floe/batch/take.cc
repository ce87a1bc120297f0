#include "floe/batch/take.h"

#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace floe {
namespace {

// How many rows ahead the gathering loops prefetch. A many-table writer gathers one row in a
// hundred from batches that left the cache (and the core) long ago: without prefetching, each value
// waits for its own cache miss.
constexpr size_t kPrefetchRows = 16;

// Rows `indices` of one array: the columns gathered are a list of these, so that rows of many
// batches are copied in one pass.
struct Piece {
  const Array* array;
  std::span<const int64_t> indices;
};

int64_t RowCount(std::span<const Piece> pieces) {
  int64_t rows = 0;
  for (const Piece& piece : pieces) rows += static_cast<int64_t>(piece.indices.size());
  return rows;
}

// The validity of the gathered rows, or an empty buffer when none is null.
Buffer TakeValidity(std::span<const Piece> pieces, int64_t rows, int64_t* null_count) {
  *null_count = 0;
  bool any_nulls = false;
  for (const Piece& piece : pieces) any_nulls |= piece.array->null_count() != 0;
  if (!any_nulls) return {};
  BitmapBuilder bits;
  bits.Reserve(rows);
  for (const Piece& piece : pieces) {
    for (int64_t i : piece.indices) {
      const bool valid = piece.array->IsValid(i);
      *null_count += !valid;
      bits.UnsafeAppend(valid);
    }
  }
  return *null_count == 0 ? Buffer() : bits.Finish();
}

// Two passes: the gathered bytes are counted first, so that the data buffer is sized once and
// every value is one memcpy (appending grew it value by value).
template <typename Offset>
Result<Array> TakeBinary(std::span<const Piece> pieces, int64_t rows, Buffer validity,
                         int64_t nulls) {
  int64_t bytes = 0;
  for (const Piece& piece : pieces) {
    const Offset* from = piece.array->values().template data_as<Offset>() + piece.array->offset();
    const std::span<const int64_t> rows = piece.indices;
    for (size_t k = 0; k < rows.size(); ++k) {
      if (k + kPrefetchRows < rows.size()) __builtin_prefetch(from + rows[k + kPrefetchRows]);
      bytes += static_cast<int64_t>(from[rows[k] + 1] - from[rows[k]]);
    }
  }
  if (bytes > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return InvalidArgument("take: {} bytes of values exceed the array's offsets", bytes);
  }
  BufferBuilder offsets, data;
  offsets.ResizeUninitialized((rows + 1) * static_cast<int64_t>(sizeof(Offset)));
  data.ResizeUninitialized(bytes);
  Offset* to = offsets.mutable_data_as<Offset>();
  uint8_t* dst = data.mutable_data();
  Offset at = 0;
  *to++ = 0;
  for (const Piece& piece : pieces) {
    const Offset* from = piece.array->values().template data_as<Offset>() + piece.array->offset();
    const uint8_t* src = piece.array->data().data();
    const std::span<const int64_t> rows = piece.indices;
    for (size_t k = 0; k < rows.size(); ++k) {
      // The offsets are in cache from the first pass; the bytes are not.
      if (k + kPrefetchRows < rows.size()) __builtin_prefetch(src + from[rows[k + kPrefetchRows]]);
      const int64_t i = rows[k];
      const Offset begin = from[i];
      const Offset length = from[i + 1] - begin;
      if (length > 0) std::memcpy(dst + at, src + begin, static_cast<size_t>(length));
      at += length;
      *to++ = at;
    }
  }
  return Array(pieces.front().array->type(), rows, std::move(validity), offsets.Finish(),
               data.Finish(), {}, nulls);
}

Result<Array> TakePieces(std::span<const Piece> pieces);

Result<Array> TakeList(std::span<const Piece> pieces, int64_t rows, Buffer validity,
                       int64_t nulls) {
  BufferBuilder offsets;
  offsets.Reserve((rows + 1) * static_cast<int64_t>(sizeof(int32_t)));
  offsets.Append(int32_t{0});
  std::vector<std::vector<int64_t>> child_rows(pieces.size());
  std::vector<Piece> children;
  children.reserve(pieces.size());
  size_t elements = 0;
  for (size_t p = 0; p < pieces.size(); ++p) {
    const Array& array = *pieces[p].array;
    for (int64_t i : pieces[p].indices) {
      const int64_t begin = array.ValueOffset(i), end = array.ValueOffset(i + 1);
      for (int64_t k = begin; k < end; ++k) child_rows[p].push_back(k);
      elements += static_cast<size_t>(end - begin);
      if (elements > static_cast<size_t>(INT32_MAX)) {
        return InvalidArgument("take: {} list elements exceed 32-bit offsets", elements);
      }
      offsets.Append(static_cast<int32_t>(elements));
    }
    children.push_back({&array.child(0), child_rows[p]});
  }
  FLOE_ASSIGN_OR_RETURN(Array child, TakePieces(children));
  return Array(pieces.front().array->type(), rows, std::move(validity), offsets.Finish(), {},
               {std::move(child)}, nulls);
}

Result<Array> TakeStruct(std::span<const Piece> pieces, int64_t rows, Buffer validity,
                         int64_t nulls) {
  const Array& first = *pieces.front().array;
  std::vector<Array> fields;
  std::vector<Array> parts(pieces.size());
  std::vector<Piece> field_pieces(pieces.size());
  for (int f = 0; f < first.num_children(); ++f) {
    for (size_t p = 0; p < pieces.size(); ++p) {
      parts[p] = pieces[p].array->field(f);
      field_pieces[p] = {&parts[p], pieces[p].indices};
    }
    FLOE_ASSIGN_OR_RETURN(Array field, TakePieces(field_pieces));
    fields.push_back(std::move(field));
  }
  return Array(first.type(), rows, std::move(validity), {}, {}, std::move(fields), nulls);
}

// Calls f with the value width as a constant: 4 and 8 bytes get loops of their own, any other
// width (0) the loop that reads it at run time.
template <typename F>
void WithWidth(int64_t width, F&& f) {
  switch (width) {
    case 4:
      f(std::integral_constant<int64_t, 4>{});
      break;
    case 8:
      f(std::integral_constant<int64_t, 8>{});
      break;
    default:
      f(std::integral_constant<int64_t, 0>{});
      break;
  }
}

template <int64_t kWidth>
void CopyFixed(const Piece& piece, int64_t width, uint8_t*& dst) {
  const uint8_t* src = piece.array->values().data() + piece.array->offset() * width;
  if constexpr (kWidth > 0) {
    const std::span<const int64_t> rows = piece.indices;
    for (size_t k = 0; k < rows.size(); ++k) {
      if (k + kPrefetchRows < rows.size()) {
        __builtin_prefetch(src + rows[k + kPrefetchRows] * kWidth);
      }
      std::memcpy(dst, src + rows[k] * kWidth, kWidth);
      dst += kWidth;
    }
  } else {
    for (int64_t i : piece.indices) {
      std::memcpy(dst, src + i * width, static_cast<size_t>(width));
      dst += width;
    }
  }
}

// Pieces of one type, checked.
Result<Array> TakePieces(std::span<const Piece> pieces) {
  const Array& first = *pieces.front().array;
  const int64_t rows = RowCount(pieces);
  if (first.kind() == TypeKind::kNull) return Array::MakeNulls(first.type(), rows);
  int64_t nulls = 0;
  Buffer validity = TakeValidity(pieces, rows, &nulls);
  switch (first.kind()) {
    case TypeKind::kBool: {
      BitmapBuilder bits;
      bits.Reserve(rows);
      for (const Piece& piece : pieces) {
        for (int64_t i : piece.indices) bits.UnsafeAppend(piece.array->GetBool(i));
      }
      return Array(first.type(), rows, std::move(validity), bits.Finish(), {}, {}, nulls);
    }
    case TypeKind::kString:
    case TypeKind::kBinary:
      return TakeBinary<int32_t>(pieces, rows, std::move(validity), nulls);
    case TypeKind::kLargeString:
    case TypeKind::kLargeBinary:
      return TakeBinary<int64_t>(pieces, rows, std::move(validity), nulls);
    case TypeKind::kList:
    case TypeKind::kMap:
      return TakeList(pieces, rows, std::move(validity), nulls);
    case TypeKind::kStruct:
      return TakeStruct(pieces, rows, std::move(validity), nulls);
    default:
      break;
  }
  // Fixed-width values, fixed-size binary included.
  const int64_t width = first.type()->byte_width();
  BufferBuilder values;
  values.ResizeUninitialized(rows * width);
  uint8_t* dst = values.mutable_data();
  for (const Piece& piece : pieces) {
    WithWidth(width, [&](auto fixed) { CopyFixed<fixed()>(piece, width, dst); });
  }
  return Array(first.type(), rows, std::move(validity), values.Finish(), {}, {}, nulls);
}

// One source's column and each row's group, for PartitionBatches.
struct Split {
  const Array* array;
  std::span<const uint32_t> group_of_row;
};

// Calls f(row, group) for each row that goes to a group, in row order.
template <typename F>
void ForEachGroupedRow(std::span<const uint32_t> group_of_row, F&& f) {
  for (size_t row = 0; row < group_of_row.size(); ++row) {
    const uint32_t g = group_of_row[row];
    if (g != kNoGroup) f(static_cast<int64_t>(row), g);
  }
}

// Each group's bits, bit(array, row) for each of its rows.
template <typename Bit>
std::vector<Buffer> PartitionBits(std::span<const Split> splits, std::span<const int64_t> counts,
                                  Bit bit) {
  std::vector<BitmapBuilder> bits(counts.size());
  for (size_t g = 0; g < counts.size(); ++g) bits[g].Reserve(counts[g]);
  for (const Split& split : splits) {
    ForEachGroupedRow(split.group_of_row, [&](int64_t row, uint32_t g) {
      bits[g].UnsafeAppend(bit(*split.array, row));
    });
  }
  std::vector<Buffer> buffers;
  buffers.reserve(counts.size());
  for (BitmapBuilder& builder : bits) buffers.push_back(builder.Finish());
  return buffers;
}

// Each group's validity (empty when none of its rows is null) and null count.
void PartitionValidity(std::span<const Split> splits, std::span<const int64_t> counts,
                       std::vector<Buffer>& validity, std::vector<int64_t>& nulls) {
  nulls.assign(counts.size(), 0);
  bool any_nulls = false;
  for (const Split& split : splits) any_nulls |= split.array->null_count() != 0;
  if (!any_nulls) {
    validity.assign(counts.size(), Buffer());
    return;
  }
  validity = PartitionBits(splits, counts,
                           [](const Array& array, int64_t row) { return array.IsValid(row); });
  for (size_t g = 0; g < counts.size(); ++g) {
    nulls[g] = counts[g] - bit_util::CountSetBits(validity[g].data(), 0, counts[g]);
    if (nulls[g] == 0) validity[g] = Buffer();
  }
}

template <int64_t kWidth>
void PartitionFixed(const Split& split, int64_t width, std::span<uint8_t*> dst) {
  const uint8_t* src = split.array->values().data() + split.array->offset() * width;
  const int64_t step = kWidth > 0 ? kWidth : width;
  ForEachGroupedRow(split.group_of_row, [&](int64_t row, uint32_t g) {
    std::memcpy(dst[g], src + row * step, static_cast<size_t>(step));
    dst[g] += step;
  });
}

template <typename Offset>
Status PartitionBinary(std::span<const Split> splits, std::span<const int64_t> counts,
                       std::vector<Buffer>& offsets, std::vector<Buffer>& data) {
  const size_t groups = counts.size();
  std::vector<int64_t> bytes(groups, 0);
  for (const Split& split : splits) {
    const Offset* from = split.array->values().template data_as<Offset>() + split.array->offset();
    ForEachGroupedRow(split.group_of_row, [&](int64_t row, uint32_t g) {
      bytes[g] += static_cast<int64_t>(from[row + 1] - from[row]);
    });
  }
  std::vector<BufferBuilder> offset_builders(groups), data_builders(groups);
  std::vector<Offset*> to(groups);
  std::vector<uint8_t*> dst(groups);
  std::vector<Offset> at(groups, 0);
  for (size_t g = 0; g < groups; ++g) {
    if (bytes[g] > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
      return InvalidArgument("partition: {} bytes of values exceed the array's offsets", bytes[g]);
    }
    offset_builders[g].ResizeUninitialized((counts[g] + 1) * static_cast<int64_t>(sizeof(Offset)));
    data_builders[g].ResizeUninitialized(bytes[g]);
    to[g] = offset_builders[g].mutable_data_as<Offset>();
    *to[g]++ = 0;
    dst[g] = data_builders[g].mutable_data();
  }
  for (const Split& split : splits) {
    const Offset* from = split.array->values().template data_as<Offset>() + split.array->offset();
    const uint8_t* src = split.array->data().data();
    ForEachGroupedRow(split.group_of_row, [&](int64_t row, uint32_t g) {
      const Offset begin = from[row];
      const Offset length = from[row + 1] - begin;
      if (length > 0) std::memcpy(dst[g] + at[g], src + begin, static_cast<size_t>(length));
      at[g] += length;
      *to[g]++ = at[g];
    });
  }
  offsets.clear();
  data.clear();
  for (size_t g = 0; g < groups; ++g) {
    offsets.push_back(offset_builders[g].Finish());
    data.push_back(data_builders[g].Finish());
  }
  return Ok();
}

// One column of every source dealt out to the groups: flat types in one pass over each source,
// nested ones gathered per group.
Result<std::vector<Array>> PartitionColumn(std::span<const Split> splits,
                                           std::span<const int64_t> counts) {
  const size_t groups = counts.size();
  const DataTypePtr& type = splits.front().array->type();
  std::vector<Array> arrays;
  arrays.reserve(groups);
  if (type->kind() == TypeKind::kNull) {
    for (int64_t count : counts) arrays.push_back(Array::MakeNulls(type, count));
    return arrays;
  }
  if (type->is_nested()) {
    std::vector<std::vector<std::vector<int64_t>>> rows(
        groups, std::vector<std::vector<int64_t>>(splits.size()));
    for (size_t s = 0; s < splits.size(); ++s) {
      ForEachGroupedRow(splits[s].group_of_row,
                        [&](int64_t row, uint32_t g) { rows[g][s].push_back(row); });
    }
    std::vector<Piece> pieces(splits.size());
    for (size_t g = 0; g < groups; ++g) {
      for (size_t s = 0; s < splits.size(); ++s) pieces[s] = {splits[s].array, rows[g][s]};
      FLOE_ASSIGN_OR_RETURN(Array array, TakePieces(pieces));
      arrays.push_back(std::move(array));
    }
    return arrays;
  }
  std::vector<Buffer> validity;
  std::vector<int64_t> nulls;
  PartitionValidity(splits, counts, validity, nulls);
  std::vector<Buffer> values, data(groups);
  switch (type->kind()) {
    case TypeKind::kBool:
      values = PartitionBits(splits, counts,
                             [](const Array& array, int64_t row) { return array.GetBool(row); });
      break;
    case TypeKind::kString:
    case TypeKind::kBinary:
      FLOE_RETURN_IF_ERROR(PartitionBinary<int32_t>(splits, counts, values, data));
      break;
    case TypeKind::kLargeString:
    case TypeKind::kLargeBinary:
      FLOE_RETURN_IF_ERROR(PartitionBinary<int64_t>(splits, counts, values, data));
      break;
    default: {  // fixed-width values, fixed-size binary included
      const int64_t width = type->byte_width();
      std::vector<BufferBuilder> builders(groups);
      std::vector<uint8_t*> dst(groups);
      for (size_t g = 0; g < groups; ++g) {
        builders[g].ResizeUninitialized(counts[g] * width);
        dst[g] = builders[g].mutable_data();
      }
      for (const Split& split : splits) {
        WithWidth(width, [&](auto fixed) { PartitionFixed<fixed()>(split, width, dst); });
      }
      for (BufferBuilder& builder : builders) values.push_back(builder.Finish());
      break;
    }
  }
  for (size_t g = 0; g < groups; ++g) {
    arrays.emplace_back(type, counts[g], std::move(validity[g]), std::move(values[g]),
                        std::move(data[g]), std::vector<Array>{}, nulls[g]);
  }
  return arrays;
}

// kInvalidArgument unless the batch has the schema of the others.
Status CheckSchema(std::string_view what, const RecordBatch& batch, const BatchSchemaPtr& schema) {
  if (batch.schema() == schema || *batch.schema() == *schema) return Ok();
  return InvalidArgument("{}: a batch of ({}) among batches of ({})", what,
                         batch.schema()->ToString(), schema->ToString());
}

}  // namespace

void GroupRows(std::span<const uint32_t> group_of_row, size_t groups, std::vector<int64_t>& starts,
               std::vector<int64_t>& order) {
  starts.assign(groups + 1, 0);
  for (uint32_t group : group_of_row) ++starts[group + 1];
  for (size_t g = 0; g < groups; ++g) starts[g + 1] += starts[g];
  // starts[g] serves as group g's cursor, then moves back to where the group begins.
  order.resize(group_of_row.size());
  for (size_t row = 0; row < group_of_row.size(); ++row) {
    order[static_cast<size_t>(starts[group_of_row[row]]++)] = static_cast<int64_t>(row);
  }
  for (size_t g = groups; g > 0; --g) starts[g] = starts[g - 1];
  starts[0] = 0;
}

Status CheckRows(std::span<const int64_t> rows, int64_t num_rows) {
  for (int64_t row : rows) {
    if (row < 0 || row >= num_rows) {
      return InvalidArgument("take: row {} is outside a batch of {} rows", row, num_rows);
    }
  }
  return Ok();
}

Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices) {
  FLOE_RETURN_IF_ERROR(CheckRows(indices, array.length()));
  const Piece piece{&array, indices};
  return TakePieces({&piece, 1});
}

Result<RecordBatch> TakeBatch(const RecordBatch& batch, std::span<const int64_t> indices) {
  const TakeSource source{&batch, indices};
  return TakeBatches({&source, 1});
}

Result<RecordBatch> TakeBatches(std::span<const TakeSource> sources) {
  if (sources.empty()) return InvalidArgument("take: no batches");
  const BatchSchemaPtr& schema = sources.front().batch->schema();
  int64_t rows = 0;
  bool kinds = false;
  for (const TakeSource& source : sources) {
    const RecordBatch& batch = *source.batch;
    FLOE_RETURN_IF_ERROR(CheckSchema("take", batch, schema));
    FLOE_RETURN_IF_ERROR(CheckRows(source.indices, batch.num_rows()));
    rows += static_cast<int64_t>(source.indices.size());
    kinds |= batch.has_row_kinds();
  }
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(schema->num_fields()));
  std::vector<Piece> pieces(sources.size());
  for (int c = 0; c < schema->num_fields(); ++c) {
    for (size_t s = 0; s < sources.size(); ++s) {
      pieces[s] = {&sources[s].batch->column(c), sources[s].indices};
    }
    FLOE_ASSIGN_OR_RETURN(Array column, TakePieces(pieces));
    columns.push_back(std::move(column));
  }
  std::optional<Buffer> row_kinds;
  if (kinds) {
    std::vector<uint8_t> bytes;
    bytes.reserve(static_cast<size_t>(rows));
    for (const TakeSource& source : sources) {
      for (int64_t i : source.indices) {
        bytes.push_back(static_cast<uint8_t>(source.batch->row_kind(i)));
      }
    }
    row_kinds = Buffer::CopyOf(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  return RecordBatch::Make(schema, std::move(columns), rows, std::move(row_kinds));
}

Result<std::vector<RecordBatch>> PartitionBatches(std::span<const PartitionSource> sources,
                                                  size_t groups) {
  if (sources.empty()) return InvalidArgument("partition: no batches");
  const BatchSchemaPtr& schema = sources.front().batch->schema();
  std::vector<int64_t> counts(groups, 0);
  bool kinds = false;
  for (const PartitionSource& source : sources) {
    const RecordBatch& batch = *source.batch;
    FLOE_RETURN_IF_ERROR(CheckSchema("partition", batch, schema));
    if (static_cast<int64_t>(source.group_of_row.size()) != batch.num_rows()) {
      return InvalidArgument("partition: {} groups for a batch of {} rows",
                             source.group_of_row.size(), batch.num_rows());
    }
    for (uint32_t g : source.group_of_row) {
      if (g == kNoGroup) continue;
      if (g >= groups) return InvalidArgument("partition: group {} of {}", g, groups);
      ++counts[g];
    }
    kinds |= batch.has_row_kinds();
  }
  std::vector<std::vector<Array>> columns(groups);
  std::vector<Split> splits(sources.size());
  for (int c = 0; c < schema->num_fields(); ++c) {
    for (size_t s = 0; s < sources.size(); ++s) {
      splits[s] = {&sources[s].batch->column(c), sources[s].group_of_row};
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<Array> arrays, PartitionColumn(splits, counts));
    for (size_t g = 0; g < groups; ++g) columns[g].push_back(std::move(arrays[g]));
  }
  std::vector<std::vector<uint8_t>> row_kinds(kinds ? groups : 0);
  if (kinds) {
    for (const PartitionSource& source : sources) {
      ForEachGroupedRow(source.group_of_row, [&](int64_t row, uint32_t g) {
        row_kinds[g].push_back(static_cast<uint8_t>(source.batch->row_kind(row)));
      });
    }
  }
  std::vector<RecordBatch> batches;
  batches.reserve(groups);
  for (size_t g = 0; g < groups; ++g) {
    std::optional<Buffer> group_kinds;
    if (kinds) group_kinds = Buffer::CopyOf(row_kinds[g].data(), counts[g]);
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns[g]),
                                                               counts[g], std::move(group_kinds)));
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace floe
