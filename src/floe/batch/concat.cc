#include "floe/batch/concat.h"

#include <cstring>
#include <limits>
#include <vector>

namespace floe {
namespace {

// The validity of the joined rows, or an empty buffer when none is null.
Buffer ConcatValidity(std::span<const Array> arrays, int64_t length, int64_t* null_count) {
  *null_count = 0;
  for (const Array& array : arrays) *null_count += array.null_count();
  if (*null_count == 0) return {};
  BitmapBuilder bits;
  bits.Reserve(length);
  for (const Array& array : arrays) {
    if (array.validity()) {
      bits.AppendBits(array.validity().data(), array.offset(), array.length());
    } else {
      bits.AppendN(array.length(), true);
    }
  }
  return bits.Finish();
}

// Offsets of binary, list and map arrays, rebased so that the joined entries follow each other.
// `ranges` gets each input's [begin, end) into its data or child.
template <typename Offset>
Result<Buffer> ConcatOffsets(std::span<const Array> arrays, int64_t length,
                             std::vector<std::pair<int64_t, int64_t>>& ranges) {
  BufferBuilder offsets;
  offsets.Reserve(static_cast<int64_t>((length + 1) * sizeof(Offset)));
  offsets.UnsafeAppend(Offset{0});
  int64_t next = 0;
  for (const Array& array : arrays) {
    if (array.length() == 0) {
      ranges.emplace_back(0, 0);
      continue;
    }
    const int64_t begin = array.ValueOffset(0);
    const int64_t end = array.ValueOffset(array.length());
    ranges.emplace_back(begin, end);
    if (next + (end - begin) > std::numeric_limits<Offset>::max()) {
      return InvalidArgument("concat: {} joined {} values exceed {}-bit offsets",
                             next + (end - begin), array.type()->ToString(), 8 * sizeof(Offset));
    }
    for (int64_t i = 1; i <= array.length(); ++i) {
      offsets.UnsafeAppend(static_cast<Offset>(next + array.ValueOffset(i) - begin));
    }
    next += end - begin;
  }
  return offsets.Finish();
}

Result<Array> ConcatBinary(std::span<const Array> arrays, int64_t length, Buffer validity,
                           int64_t nulls) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  Buffer offsets;
  if (arrays.front().type()->is_large()) {
    FLOE_ASSIGN_OR_RETURN(offsets, ConcatOffsets<int64_t>(arrays, length, ranges));
  } else {
    FLOE_ASSIGN_OR_RETURN(offsets, ConcatOffsets<int32_t>(arrays, length, ranges));
  }
  int64_t bytes = 0;
  for (const auto& [begin, end] : ranges) bytes += end - begin;
  BufferBuilder data;
  data.Reserve(bytes);
  for (size_t i = 0; i < arrays.size(); ++i) {
    data.UnsafeAppend(arrays[i].data().data() + ranges[i].first,
                      ranges[i].second - ranges[i].first);
  }
  return Array(arrays.front().type(), length, std::move(validity), std::move(offsets),
               data.Finish(), {}, nulls);
}

Result<Array> ConcatList(std::span<const Array> arrays, int64_t length, Buffer validity,
                         int64_t nulls) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  FLOE_ASSIGN_OR_RETURN(Buffer offsets, ConcatOffsets<int32_t>(arrays, length, ranges));
  std::vector<Array> children;
  children.reserve(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    children.push_back(
        arrays[i].child(0).Slice(ranges[i].first, ranges[i].second - ranges[i].first));
  }
  FLOE_ASSIGN_OR_RETURN(Array child, ConcatArrays(children));
  return Array(arrays.front().type(), length, std::move(validity), std::move(offsets), {},
               {std::move(child)}, nulls);
}

}  // namespace

Result<Array> ConcatArrays(std::span<const Array> arrays) {
  if (arrays.empty()) return InvalidArgument("concat: no arrays");
  const DataTypePtr& type = arrays.front().type();
  int64_t length = 0;
  for (const Array& array : arrays) {
    if (!array.type()->Equals(*type)) {
      return InvalidArgument("concat: an array of {} among arrays of {}", array.type()->ToString(),
                             type->ToString());
    }
    length += array.length();
  }
  if (arrays.size() == 1) return arrays.front();
  if (type->kind() == TypeKind::kNull) return Array::MakeNulls(type, length);
  int64_t nulls = 0;
  Buffer validity = ConcatValidity(arrays, length, &nulls);
  if (type->is_binary_like()) return ConcatBinary(arrays, length, std::move(validity), nulls);
  switch (type->kind()) {
    case TypeKind::kBool: {
      BitmapBuilder bits;
      bits.Reserve(length);
      for (const Array& array : arrays) {
        bits.AppendBits(array.values().data(), array.offset(), array.length());
      }
      return Array(type, length, std::move(validity), bits.Finish(), {}, {}, nulls);
    }
    case TypeKind::kList:
    case TypeKind::kMap:
      return ConcatList(arrays, length, std::move(validity), nulls);
    case TypeKind::kStruct: {
      std::vector<Array> fields;
      std::vector<Array> parts(arrays.size());
      for (int f = 0; f < arrays.front().num_children(); ++f) {
        for (size_t i = 0; i < arrays.size(); ++i) parts[i] = arrays[i].field(f);
        FLOE_ASSIGN_OR_RETURN(Array field, ConcatArrays(parts));
        fields.push_back(std::move(field));
      }
      return Array(type, length, std::move(validity), {}, {}, std::move(fields), nulls);
    }
    default:
      break;
  }
  // Fixed-width values, fixed-size binary and decimals included.
  const int64_t width = type->byte_width();
  BufferBuilder values;
  values.Reserve(length * width);
  for (const Array& array : arrays) {
    values.UnsafeAppend(array.values().data() + array.offset() * width, array.length() * width);
  }
  return Array(type, length, std::move(validity), values.Finish(), {}, {}, nulls);
}

Result<RecordBatch> ConcatBatches(std::span<const RecordBatch> batches) {
  if (batches.empty()) return InvalidArgument("concat: no batches");
  const BatchSchemaPtr& schema = batches.front().schema();
  int64_t rows = 0;
  bool kinds = false;
  for (const RecordBatch& batch : batches) {
    if (batch.schema() != schema && !(*batch.schema() == *schema)) {
      return InvalidArgument("concat: a batch of ({}) among batches of ({})",
                             batch.schema()->ToString(), schema->ToString());
    }
    rows += batch.num_rows();
    kinds |= batch.has_row_kinds();
  }
  if (batches.size() == 1) return batches.front();
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(schema->num_fields()));
  std::vector<Array> parts(batches.size());
  for (int c = 0; c < schema->num_fields(); ++c) {
    for (size_t i = 0; i < batches.size(); ++i) parts[i] = batches[i].column(c);
    FLOE_ASSIGN_OR_RETURN(Array column, ConcatArrays(parts));
    columns.push_back(std::move(column));
  }
  std::optional<Buffer> row_kinds;
  if (kinds) {
    BufferBuilder bytes;
    bytes.Reserve(rows);
    for (const RecordBatch& batch : batches) {
      if (batch.has_row_kinds()) {
        bytes.UnsafeAppend(batch.row_kinds().data(), batch.num_rows());
      } else {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          bytes.UnsafeAppend(static_cast<uint8_t>(RowKind::kInsert));
        }
      }
    }
    row_kinds = bytes.Finish();
  }
  return RecordBatch::Make(schema, std::move(columns), rows, std::move(row_kinds));
}

}  // namespace floe
