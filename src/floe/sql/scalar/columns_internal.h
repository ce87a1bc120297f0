#pragma once

// Typed helpers for the kernels: constants spread over a batch, the combined validity of
// arguments, arrays built straight from a values buffer, and a dispatch from a type's kind to the
// C type its values are stored as.

#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "floe/batch/array.h"
#include "floe/batch/buffer.h"
#include "floe/batch/data_type.h"
#include "floe/batch/value.h"
#include "floe/util/error.h"

namespace floe::sql::scalar {

// n copies of a value of the given type (null: n nulls).
Result<Array> ConstantArray(const Value& value, const DataTypePtr& type, int64_t n);

// The validity of rows where every array is valid: a bitmap from bit 0 (empty when no row is
// null) and its null count.
struct Validity {
  Buffer bitmap;
  int64_t null_count = 0;
};
Validity AndValidity(std::span<const Array> arrays, int64_t n);
Validity ValidityOf(const Array& array);
inline bool ValidAt(const Validity& validity, int64_t i) {
  return validity.bitmap.empty() || bit_util::GetBit(validity.bitmap.data(), i);
}

// A fixed-width array of n values of C type T, filled by fill(T* out); out has n slots.
template <typename T, typename Fill>
Array MakeFixed(const DataTypePtr& type, int64_t n, Validity validity, Fill&& fill) {
  BufferBuilder values;
  values.Resize(n * static_cast<int64_t>(sizeof(T)));
  fill(values.mutable_data_as<T>());
  return Array(type, n, std::move(validity.bitmap), values.Finish(), {}, {}, validity.null_count);
}

// A boolean array of n values, filled by fill(uint8_t* bits) on a zeroed bitmap from bit 0.
template <typename Fill>
Array MakeBool(int64_t n, Validity validity, Fill&& fill) {
  BufferBuilder values;
  values.Resize(bit_util::BytesForBits(n));
  fill(values.mutable_data());
  return Array(DataType::Bool(), n, std::move(validity.bitmap), values.Finish(), {}, {},
               validity.null_count);
}

// Calls f(T{}) with the C type a fixed-width kind stores its values as (int32_t for date32,
// int64_t for time and timestamps, __int128 for decimals). Other kinds call f(std::monostate{}).
template <typename F>
decltype(auto) DispatchFixed(TypeKind kind, F&& f) {
  switch (kind) {
    case TypeKind::kInt8:
      return f(int8_t{});
    case TypeKind::kInt16:
      return f(int16_t{});
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      return f(int32_t{});
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      return f(int64_t{});
    case TypeKind::kFloat32:
      return f(float{});
    case TypeKind::kFloat64:
      return f(double{});
    case TypeKind::kDecimal128:
      return f(__int128{});
    default:
      return f(std::monostate{});
  }
}

// Row-wise values of an argument that is a column or a constant, for kernels that take either.
template <typename T>
struct ColumnReader {
  const T* values;
  T operator[](int64_t i) const { return values[i]; }
};
template <typename T>
struct ConstantReader {
  T value;
  T operator[](int64_t) const { return value; }
};

// A constant argument passed as one row for a batch of n rows (CallOptions::scalar_constants).
inline bool IsScalarArg(const Array& array, int64_t n) { return array.length() == 1 && n != 1; }
// The validity of rows where every argument is valid, one-row constant arguments included.
Validity ArgsValidity(std::span<const Array> args, int64_t n);

// Calls body(a, b) with a ColumnReader or ConstantReader over the values of two arguments.
template <typename A, typename B, typename Body>
decltype(auto) WithReaders(const Array& a, const Array& b, int64_t n, Body&& body) {
  const bool scalar_a = IsScalarArg(a, n);
  const bool scalar_b = IsScalarArg(b, n);
  if (scalar_a && scalar_b) {
    return body(ConstantReader<A>{a.Value<A>(0)}, ConstantReader<B>{b.Value<B>(0)});
  }
  if (scalar_a)
    return body(ConstantReader<A>{a.Value<A>(0)}, ColumnReader<B>{b.Values<B>().data()});
  if (scalar_b)
    return body(ColumnReader<A>{a.Values<A>().data()}, ConstantReader<B>{b.Value<B>(0)});
  return body(ColumnReader<A>{a.Values<A>().data()}, ColumnReader<B>{b.Values<B>().data()});
}

// Builds a string array row by row without per-row allocations.
class StringColumn {
 public:
  explicit StringColumn(int64_t rows, DataTypePtr type = DataType::String());
  void Append(std::string_view value) {
    data_.Append(value.data(), static_cast<int64_t>(value.size()));
    offsets_.UnsafeAppend(static_cast<int32_t>(data_.size()));
    ++length_;
  }
  void AppendNull() {
    if (!has_nulls_) StartNulls();
    bit_util::ClearBit(validity_.mutable_data(), length_);
    offsets_.UnsafeAppend(static_cast<int32_t>(data_.size()));
    ++length_;
    ++null_count_;
  }
  Result<Array> Finish();

 private:
  void StartNulls();
  DataTypePtr type_;
  int64_t rows_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  bool has_nulls_ = false;
  BufferBuilder offsets_;
  BufferBuilder data_;
  BufferBuilder validity_;
};

// For each row: out[i] = the value of arrays[choice[i]] at row i (all arrays of one type and
// length n). How CASE, IF, COALESCE and NULLIF merge their branches.
Result<Array> SelectRows(std::span<const Array> arrays, std::span<const int32_t> choice,
                         const DataTypePtr& type, int64_t n);

}  // namespace floe::sql::scalar
