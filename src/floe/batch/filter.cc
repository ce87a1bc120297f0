#include "floe/batch/filter.h"

#include <cstring>
#include <vector>

namespace floe {

namespace {

// A zeroed, writable buffer of size bytes, handed over with Finish().
uint8_t* Allocate(BufferBuilder& builder, int64_t size) {
  builder.Resize(size);
  return builder.mutable_data();
}

int64_t CountKept(std::span<const uint8_t> keep, int64_t n) {
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) kept += keep[i] != 0;
  return kept;
}

// The validity of the kept rows, or an empty buffer when none of them is null.
Buffer FilterValidity(const Array& array, std::span<const uint8_t> keep, int64_t kept,
                      int64_t* null_count) {
  *null_count = 0;
  if (array.null_count() == 0 || !array.validity()) return Buffer();
  BufferBuilder bits;
  uint8_t* out = Allocate(bits, bit_util::BytesForBits(kept));
  int64_t j = 0;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (!keep[i]) continue;
    if (array.IsValid(i)) {
      bit_util::SetBit(out, j);
    } else {
      ++*null_count;
    }
    ++j;
  }
  return *null_count == 0 ? Buffer() : bits.Finish();
}

template <typename Offset>
Buffer FilterOffsets(const Array& array, std::span<const uint8_t> keep, int64_t kept,
                     std::vector<uint8_t>* child_keep, int64_t child_length) {
  BufferBuilder offsets;
  auto* out = reinterpret_cast<Offset*>(
      Allocate(offsets, (kept + 1) * static_cast<int64_t>(sizeof(Offset))));
  if (child_keep) child_keep->assign(static_cast<size_t>(child_length), 0);
  Offset total = 0;
  int64_t j = 0;
  out[0] = 0;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (!keep[i]) continue;
    const int64_t begin = array.ValueOffset(i);
    const int64_t end = array.ValueOffset(i + 1);
    // An empty run may sit in an empty child, whose data() is null.
    if (child_keep && end > begin) {
      std::memset(child_keep->data() + begin, 1, static_cast<size_t>(end - begin));
    }
    total = static_cast<Offset>(total + (end - begin));
    out[++j] = total;
  }
  return offsets.Finish();
}

}  // namespace

Result<Array> FilterArray(const Array& array, std::span<const uint8_t> keep) {
  const int64_t n = array.length();
  if (static_cast<int64_t>(keep.size()) < n) {
    return InvalidArgument("filter mask of {} rows for an array of {}", keep.size(), n);
  }
  const int64_t kept = CountKept(keep, n);
  if (kept == n) return array;
  const DataTypePtr& type = array.type();
  int64_t null_count = 0;
  if (type->kind() == TypeKind::kNull) return Array::MakeNulls(type, kept);
  Buffer validity = FilterValidity(array, keep, kept, &null_count);
  switch (type->kind()) {
    case TypeKind::kBool: {
      BufferBuilder values;
      uint8_t* out = Allocate(values, bit_util::BytesForBits(kept));
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (keep[i]) bit_util::SetBitTo(out, j++, array.GetBool(i));
      }
      return Array(type, kept, std::move(validity), values.Finish(), {}, {}, null_count);
    }
    case TypeKind::kStruct: {
      std::vector<Array> children;
      for (int f = 0; f < array.num_children(); ++f) {
        FLOE_ASSIGN_OR_RETURN(Array child, FilterArray(array.field(f), keep));
        children.push_back(std::move(child));
      }
      return Array(type, kept, std::move(validity), {}, {}, std::move(children), null_count);
    }
    case TypeKind::kList:
    case TypeKind::kMap: {
      const Array& child = array.child(0);
      std::vector<uint8_t> child_keep;
      Buffer offsets = FilterOffsets<int32_t>(array, keep, kept, &child_keep, child.length());
      FLOE_ASSIGN_OR_RETURN(Array filtered_child, FilterArray(child, child_keep));
      return Array(type, kept, std::move(validity), std::move(offsets), {},
                   {std::move(filtered_child)}, null_count);
    }
    default:
      break;
  }
  if (type->is_binary_like()) {
    Buffer offsets = type->is_large() ? FilterOffsets<int64_t>(array, keep, kept, nullptr, 0)
                                      : FilterOffsets<int32_t>(array, keep, kept, nullptr, 0);
    int64_t bytes = 0;
    for (int64_t i = 0; i < n; ++i) bytes += keep[i] ? array.ValueLength(i) : 0;
    BufferBuilder data;
    uint8_t* out = Allocate(data, bytes);
    for (int64_t i = 0; i < n; ++i) {
      if (!keep[i]) continue;
      const std::string_view v = array.GetView(i);
      if (v.empty()) continue;
      std::memcpy(out, v.data(), v.size());
      out += v.size();
    }
    return Array(type, kept, std::move(validity), std::move(offsets), data.Finish(), {},
                 null_count);
  }
  const int64_t width = type->byte_width();
  if (width <= 0) return InternalError("cannot filter arrays of {}", type->ToString());
  BufferBuilder values;
  uint8_t* out = Allocate(values, kept * width);
  const uint8_t* in = array.values().data() + array.offset() * width;
  for (int64_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    std::memcpy(out, in + i * width, static_cast<size_t>(width));
    out += width;
  }
  return Array(type, kept, std::move(validity), values.Finish(), {}, {}, null_count);
}

Result<RecordBatch> FilterBatch(const RecordBatch& batch, std::span<const uint8_t> keep) {
  const int64_t n = batch.num_rows();
  if (static_cast<int64_t>(keep.size()) < n) {
    return InvalidArgument("filter mask of {} rows for a batch of {}", keep.size(), n);
  }
  const int64_t kept = CountKept(keep, n);
  if (kept == n) return batch;
  std::vector<Array> columns;
  for (const Array& column : batch.columns()) {
    FLOE_ASSIGN_OR_RETURN(Array filtered, FilterArray(column, keep));
    columns.push_back(std::move(filtered));
  }
  std::optional<Buffer> kinds;
  if (batch.has_row_kinds()) {
    BufferBuilder out;
    uint8_t* p = Allocate(out, kept);
    for (int64_t i = 0; i < n; ++i) {
      if (keep[i]) *p++ = static_cast<uint8_t>(batch.row_kind(i));
    }
    kinds = out.Finish();
  }
  return RecordBatch::Make(batch.schema(), std::move(columns), kept, std::move(kinds));
}

}  // namespace floe
