#pragma once

// An Array is one column of values of one DataType, in Arrow's memory layout:
//   validity   bitmap, bit set = value present; absent (empty Buffer) when no value is null
//   values     fixed-width values (bool: a bitmap), or offsets (int32; int64 for large types,
//   list/map
//              int32) with length + 1 entries for binary-like and list/map arrays
//   data       the bytes of binary-like arrays
//   children   list/map: one (the elements / entries), struct: one per field
// plus the logical offset and length into those buffers. Arrays are immutable values; copying one
// copies a few shared pointers, and Slice() shares all buffers.
//
// Struct arrays follow Arrow: their children are not sliced with the parent, so use field(i) (which
// applies the parent's offset and length) rather than child(i). Typed accessors do not check the
// type or bounds: check kind() once per column, then loop over the values. Arrays
// from outside floe (an Arrow import) should be checked once with Validate().

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "floe/batch/buffer.h"
#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe {

class Array {
 public:
  Array() = default;
  // Takes the buffers as the layout above describes; null_count < 0 means count it from validity.
  Array(DataTypePtr type, int64_t length, Buffer validity, Buffer values, Buffer data = {},
        std::vector<Array> children = {}, int64_t null_count = -1, int64_t offset = 0);

  // An array of length nulls of any type (all buffers zeroed, children of matching length).
  static Array MakeNulls(const DataTypePtr& type, int64_t length);

  const DataTypePtr& type() const { return type_; }
  TypeKind kind() const { return type_->kind(); }
  int64_t length() const { return length_; }
  int64_t offset() const { return offset_; }
  int64_t null_count() const { return null_count_; }

  bool IsNull(int64_t i) const {
    // Without a bitmap, only the null type has nulls (all of them).
    return validity_.data() ? !bit_util::GetBit(validity_.data(), offset_ + i) : null_count_ != 0;
  }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  // Fixed-width values from this array's offset, length() of them. T must match the type's width
  // (int32_t for date32, int64_t for time64/timestamp, uint16_t for float16).
  template <typename T>
  std::span<const T> Values() const {
    return {values_.data_as<T>() + offset_, static_cast<size_t>(length_)};
  }
  template <typename T>
  T Value(int64_t i) const {
    return values_.data_as<T>()[offset_ + i];
  }
  bool GetBool(int64_t i) const { return bit_util::GetBit(values_.data(), offset_ + i); }
  // Decimal128: the unscaled value.
  __int128 GetDecimal(int64_t i) const;

  // Binary-like and fixed-size binary values (string, binary, large variants, fixed).
  std::string_view GetView(int64_t i) const {
    if (type_->kind() == TypeKind::kFixedSizeBinary) {
      int64_t width = type_->byte_width();
      return {reinterpret_cast<const char*>(values_.data()) + (offset_ + i) * width,
              static_cast<size_t>(width)};
    }
    int64_t begin = ValueOffset(i);
    return {reinterpret_cast<const char*>(data_.data()) + begin,
            static_cast<size_t>(ValueOffset(i + 1) - begin)};
  }
  std::string_view GetString(int64_t i) const { return GetView(i); }

  // Offsets (binary-like, list, map): entry i, absolute into data() / the child.
  int64_t ValueOffset(int64_t i) const {
    return type_->is_large() ? values_.data_as<int64_t>()[offset_ + i]
                             : values_.data_as<int32_t>()[offset_ + i];
  }
  int64_t ValueLength(int64_t i) const { return ValueOffset(i + 1) - ValueOffset(i); }
  // The length() + 1 int32 offsets of string/binary/list/map arrays, from this array's offset.
  std::span<const int32_t> Offsets32() const {
    return {values_.data_as<int32_t>() + offset_, static_cast<size_t>(length_ + 1)};
  }
  std::span<const int64_t> Offsets64() const {
    return {values_.data_as<int64_t>() + offset_, static_cast<size_t>(length_ + 1)};
  }

  // List: the element array, map: the entries struct array; index with ValueOffset().
  const Array& list_values() const { return children_[0]; }
  // Map: keys and items, aligned with the entries (index with ValueOffset()).
  Array map_keys() const { return children_[0].field(0); }
  Array map_items() const { return children_[0].field(1); }
  // Struct: field i, sliced to this array's rows.
  Array field(int i) const { return children_[i].Slice(offset_, length_); }
  int num_children() const { return static_cast<int>(children_.size()); }
  const Array& child(int i) const { return children_[i]; }
  const std::vector<Array>& children() const { return children_; }

  const Buffer& validity() const { return validity_; }
  const Buffer& values() const { return values_; }
  const Buffer& data() const { return data_; }

  // Rows [offset, offset + length) of this array, sharing buffers. Clamped to the array's length.
  Array Slice(int64_t offset, int64_t length) const;

  // Checks that buffers are large enough, offsets are monotonic and within data/children, children
  // have the lengths the parent needs. For arrays built elsewhere; builders produce valid arrays.
  Status Validate() const;

 private:
  DataTypePtr type_;
  int64_t length_ = 0;
  int64_t offset_ = 0;
  int64_t null_count_ = 0;
  Buffer validity_;
  Buffer values_;
  Buffer data_;
  std::vector<Array> children_;
};

}  // namespace floe
