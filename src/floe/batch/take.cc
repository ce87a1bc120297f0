#include "floe/batch/take.h"

#include <cstring>
#include <limits>
#include <vector>

namespace floe {
namespace {

// The validity of the gathered rows, or an empty buffer when none is null.
Buffer TakeValidity(const Array& array, std::span<const int64_t> indices, int64_t* null_count) {
  *null_count = 0;
  if (array.null_count() == 0 || array.kind() == TypeKind::kNull) return {};
  BitmapBuilder bits;
  bits.Reserve(static_cast<int64_t>(indices.size()));
  for (int64_t i : indices) {
    const bool valid = array.IsValid(i);
    *null_count += !valid;
    bits.UnsafeAppend(valid);
  }
  return *null_count == 0 ? Buffer() : bits.Finish();
}

// Two passes: the gathered bytes are counted first, so that the data buffer is sized once and
// every value is one memcpy (appending grew it value by value).
template <typename Offset>
Result<Array> TakeBinary(const Array& array, std::span<const int64_t> indices, Buffer validity,
                         int64_t nulls) {
  const Offset* from = array.values().template data_as<Offset>() + array.offset();
  int64_t bytes = 0;
  for (int64_t i : indices) bytes += static_cast<int64_t>(from[i + 1] - from[i]);
  if (bytes > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return InvalidArgument("take: {} bytes of values exceed the array's offsets", bytes);
  }
  BufferBuilder offsets, data;
  offsets.ResizeUninitialized(static_cast<int64_t>((indices.size() + 1) * sizeof(Offset)));
  data.ResizeUninitialized(bytes);
  Offset* to = offsets.mutable_data_as<Offset>();
  const uint8_t* src = array.data().data();
  uint8_t* dst = data.mutable_data();
  Offset at = 0;
  to[0] = 0;
  for (size_t k = 0; k < indices.size(); ++k) {
    const Offset begin = from[indices[k]];
    const Offset length = from[indices[k] + 1] - begin;
    if (length > 0) std::memcpy(dst + at, src + begin, static_cast<size_t>(length));
    at += length;
    to[k + 1] = at;
  }
  return Array(array.type(), static_cast<int64_t>(indices.size()), std::move(validity),
               offsets.Finish(), data.Finish(), {}, nulls);
}

Result<Array> TakeList(const Array& array, std::span<const int64_t> indices, Buffer validity,
                       int64_t nulls) {
  BufferBuilder offsets;
  offsets.Append(int32_t{0});
  std::vector<int64_t> child_rows;
  for (int64_t i : indices) {
    const int64_t begin = array.ValueOffset(i), end = array.ValueOffset(i + 1);
    for (int64_t k = begin; k < end; ++k) child_rows.push_back(k);
    if (child_rows.size() > static_cast<size_t>(INT32_MAX)) {
      return InvalidArgument("take: {} list elements exceed 32-bit offsets", child_rows.size());
    }
    offsets.Append(static_cast<int32_t>(child_rows.size()));
  }
  FLOE_ASSIGN_OR_RETURN(Array child, TakeArray(array.child(0), child_rows));
  return Array(array.type(), static_cast<int64_t>(indices.size()), std::move(validity),
               offsets.Finish(), {}, {std::move(child)}, nulls);
}

}  // namespace

Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices) {
  for (int64_t i : indices) {
    if (i < 0 || i >= array.length()) {
      return InvalidArgument("take: row {} is outside an array of {} rows", i, array.length());
    }
  }
  const auto n = static_cast<int64_t>(indices.size());
  if (array.kind() == TypeKind::kNull) return Array::MakeNulls(array.type(), n);
  int64_t nulls = 0;
  Buffer validity = TakeValidity(array, indices, &nulls);
  switch (array.kind()) {
    case TypeKind::kBool: {
      BitmapBuilder bits;
      bits.Reserve(n);
      for (int64_t i : indices) bits.UnsafeAppend(array.GetBool(i));
      return Array(array.type(), n, std::move(validity), bits.Finish(), {}, {}, nulls);
    }
    case TypeKind::kString:
    case TypeKind::kBinary:
      return TakeBinary<int32_t>(array, indices, std::move(validity), nulls);
    case TypeKind::kLargeString:
    case TypeKind::kLargeBinary:
      return TakeBinary<int64_t>(array, indices, std::move(validity), nulls);
    case TypeKind::kList:
    case TypeKind::kMap:
      return TakeList(array, indices, std::move(validity), nulls);
    case TypeKind::kStruct: {
      std::vector<Array> fields;
      for (int f = 0; f < array.num_children(); ++f) {
        FLOE_ASSIGN_OR_RETURN(Array field, TakeArray(array.field(f), indices));
        fields.push_back(std::move(field));
      }
      return Array(array.type(), n, std::move(validity), {}, {}, std::move(fields), nulls);
    }
    default:
      break;
  }
  // Fixed-width values, fixed-size binary included.
  const int64_t width = array.type()->byte_width();
  BufferBuilder values;
  values.ResizeUninitialized(n * width);
  const uint8_t* src = array.values().data() + array.offset() * width;
  uint8_t* dst = values.mutable_data();
  switch (width) {
    case 4:
      for (int64_t k = 0; k < n; ++k) std::memcpy(dst + k * 4, src + indices[k] * 4, 4);
      break;
    case 8:
      for (int64_t k = 0; k < n; ++k) std::memcpy(dst + k * 8, src + indices[k] * 8, 8);
      break;
    default:
      for (int64_t k = 0; k < n; ++k) {
        std::memcpy(dst + k * width, src + indices[k] * width, static_cast<size_t>(width));
      }
      break;
  }
  return Array(array.type(), n, std::move(validity), values.Finish(), {}, {}, nulls);
}

Result<RecordBatch> TakeBatch(const RecordBatch& batch, std::span<const int64_t> indices) {
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const Array& column : batch.columns()) {
    FLOE_ASSIGN_OR_RETURN(Array taken, TakeArray(column, indices));
    columns.push_back(std::move(taken));
  }
  std::optional<Buffer> kinds;
  if (batch.has_row_kinds()) {
    std::vector<uint8_t> bytes;
    bytes.reserve(indices.size());
    for (int64_t i : indices) {
      if (i < 0 || i >= batch.num_rows()) {
        return InvalidArgument("take: row {} is outside a batch of {} rows", i, batch.num_rows());
      }
      bytes.push_back(static_cast<uint8_t>(batch.row_kind(i)));
    }
    kinds = Buffer::CopyOf(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  return RecordBatch::Make(batch.schema(), std::move(columns), static_cast<int64_t>(indices.size()),
                           std::move(kinds));
}

}  // namespace floe
