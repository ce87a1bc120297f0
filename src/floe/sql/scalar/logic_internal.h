#pragma once

// Three-valued logic on boolean columns (null is unknown: FALSE AND NULL is FALSE, TRUE OR NULL
// is TRUE, NOT NULL is NULL), and typed comparisons of two columns into a boolean column.

#include <cstdint>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe::sql::scalar {

Array And3(const Array& a, const Array& b, int64_t n);
Array Or3(const Array& a, const Array& b, int64_t n);
Array Not3(const Array& a, int64_t n);

enum class CmpOp : unsigned char { kEq, kNe, kLt, kLe, kGt, kGe };

// a op b per row, null where either is null. Both of one type; either may be a one-row constant
// (IsScalarArg).
Result<Array> CompareArrays(CmpOp op, const Array& a, const Array& b, int64_t n);

}  // namespace floe::sql::scalar
