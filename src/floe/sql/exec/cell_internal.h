#pragma once

// Cells of flat columns as the relational operators need them: a byte encoding in which equal
// SQL values (of one type) have equal bytes, so that it can key hash tables (GROUP BY keys,
// DISTINCT sets, join keys) and be decoded back into a column; a total order for MIN/MAX and
// ORDER BY; and copying one cell into a builder. Floats encode -0.0 as 0.0 and every NaN alike;
// NaN sorts above every number (as Java's Double.compare does for Flink).
//
// Flat types are booleans, integers, floats, decimals, dates, times, timestamps, strings and
// binaries. Nested values (lists, structs, maps) encode as their JSON text: good for equality,
// but they can neither be decoded nor ordered (IsOrderable/IsDecodable say so up front).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "floe/batch/array.h"
#include "floe/batch/builder.h"
#include "floe/batch/record_batch.h"
#include "floe/batch/value.h"
#include "floe/util/error.h"

namespace floe::sql::exec {

// Calls f(T{}) with the C type of a fixed-width kind (Float16 is its bits, dates and times their
// integers, Decimal128 an __int128); false for other kinds (bool, binary, nested).
template <typename F>
bool VisitFixed(TypeKind kind, F&& f) {
  switch (kind) {
    case TypeKind::kInt8:
      f(int8_t{});
      return true;
    case TypeKind::kInt16:
      f(int16_t{});
      return true;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      f(int32_t{});
      return true;
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      f(int64_t{});
      return true;
    case TypeKind::kUInt8:
      f(uint8_t{});
      return true;
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      f(uint16_t{});
      return true;
    case TypeKind::kUInt32:
      f(uint32_t{});
      return true;
    case TypeKind::kUInt64:
      f(uint64_t{});
      return true;
    case TypeKind::kFloat32:
      f(float{});
      return true;
    case TypeKind::kFloat64:
      f(double{});
      return true;
    case TypeKind::kDecimal128:
      f(__int128{});
      return true;
    default:
      return false;
  }
}

// Row `row` of a fixed-width array, read bytewise: Decimal128 buffers need not be 16-byte aligned.
template <typename T>
T FixedAt(const Array& array, int64_t row) {
  T value;
  std::memcpy(&value, array.values().data() + (array.offset() + row) * sizeof(T), sizeof(T));
  return value;
}

inline bool IsBinaryKind(TypeKind kind) {
  return kind == TypeKind::kBinary || kind == TypeKind::kString || kind == TypeKind::kLargeBinary ||
         kind == TypeKind::kLargeString || kind == TypeKind::kFixedSizeBinary;
}

// The value equal values share: -0.0 as 0.0, every NaN as one NaN.
template <typename T>
T Canonical(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(value)) return std::numeric_limits<T>::quiet_NaN();
    if (value == 0) return T{0};
  }
  return value;
}

// -1, 0 or 1; NaN above every number (Java's Double.compare); Float16 compares as a float.
template <typename T>
int CompareFixed(TypeKind kind, T a, T b) {
  if constexpr (std::is_same_v<T, uint16_t>) {
    if (kind == TypeKind::kFloat16)
      return CompareFixed(TypeKind::kFloat32, HalfToFloat(a), HalfToFloat(b));
  }
  if constexpr (std::is_floating_point_v<T>) {
    bool a_nan = std::isnan(a);
    bool b_nan = std::isnan(b);
    if (a_nan || b_nan) return static_cast<int>(a_nan) - static_cast<int>(b_nan);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

bool IsOrderable(const DataType& type);
bool IsDecodable(const DataType& type);

// Appends row `row` of `array` (a null too) to `out`.
void EncodeCell(const Array& array, int64_t row, std::string& out);
// The cells of `columns` at `row`, encoded into `out` (replacing what it held): a join key. False
// when one of them is null, since a null key equals no other.
bool EncodeKey(const RecordBatch& batch, std::span<const int> columns, int64_t row,
               std::string& out);
// EncodeCell for a whole column of a decodable type, in two passes: AddEncodedSizes adds each
// row's size to sizes[row]; EncodeColumn writes each row's cell at out + cursors[row] and
// advances the cursor, so that several columns can be laid out row by row.
void AddEncodedSizes(const Array& array, std::span<uint64_t> sizes);
void EncodeColumn(const Array& array, std::span<uint64_t> cursors, char* out);
// Reads one cell that EncodeCell wrote from the front of `in` (advancing it) into `builder`,
// which builds `type`. kCorruptData when the bytes end early.
Status DecodeCell(const DataType& type, std::string_view& in, ArrayBuilder& builder);
// Compares two encodings of one orderable type (nulls first).
int CompareEncoded(const DataType& type, std::string_view a, std::string_view b);
// Compares non-null cells of two arrays of the same orderable type.
int CompareCells(const Array& a, int64_t i, const Array& b, int64_t j);
// Appends row `row` of `array` to a builder of the same type.
Status AppendCell(ArrayBuilder& builder, const Array& array, int64_t row);

}  // namespace floe::sql::exec
