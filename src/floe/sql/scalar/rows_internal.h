#pragma once

// Row-wise kernels for functions that are not worth a hand-vectorised loop per type (string,
// math and date functions): the arguments are whole columns, checked for nulls once per row, and
// read with the typed accessors; no Value is built per row. A strict function is null when any
// argument is; the row callback may also give null by returning false.

#include <cstdint>
#include <span>
#include <string>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/sql/scalar/columns_internal.h"

namespace floe::sql::scalar {

// row(i, out) -> bool: sets out (a reused scratch string) or returns false for null.
template <typename Row>
Result<Array> MapStrings(std::span<const Array> args, int64_t n, Row&& row) {
  Validity validity = AndValidity(args, n);
  StringColumn column(n);
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    if (!ValidAt(validity, i)) {
      column.AppendNull();
      continue;
    }
    out.clear();
    if (row(i, out)) {
      column.Append(out);
    } else {
      column.AppendNull();
    }
  }
  return column.Finish();
}

// row(i, T& out) -> bool, into a fixed-width column of `type`.
template <typename T, typename Row>
Result<Array> MapFixed(std::span<const Array> args, const DataTypePtr& type, int64_t n, Row&& row) {
  Validity validity = AndValidity(args, n);
  BufferBuilder valid;
  valid.Resize(bit_util::BytesForBits(n));
  int64_t nulls = 0;
  Array values = MakeFixed<T>(type, n, {}, [&](T* out) {
    for (int64_t i = 0; i < n; ++i) {
      out[i] = T{};
      if (ValidAt(validity, i) && row(i, out[i])) {
        bit_util::SetBit(valid.mutable_data(), i);
      } else {
        ++nulls;
      }
    }
  });
  return Array(type, n, nulls ? valid.Finish() : Buffer(), values.values(), {}, {}, nulls);
}

template <typename Row>
Result<Array> MapBools(std::span<const Array> args, int64_t n, Row&& row) {
  Validity validity = AndValidity(args, n);
  BufferBuilder valid;
  valid.Resize(bit_util::BytesForBits(n));
  int64_t nulls = 0;
  Array values = MakeBool(n, {}, [&](uint8_t* bits) {
    for (int64_t i = 0; i < n; ++i) {
      bool value = false;
      if (ValidAt(validity, i) && row(i, value)) {
        bit_util::SetBit(valid.mutable_data(), i);
        if (value) bit_util::SetBit(bits, i);
      } else {
        ++nulls;
      }
    }
  });
  return Array(DataType::Bool(), n, nulls ? valid.Finish() : Buffer(), values.values(), {}, {},
               nulls);
}

}  // namespace floe::sql::scalar
