#pragma once

// CAST and TRY_CAST between batch types with Flink's rules: numeric to numeric (integers checked
// for overflow, decimals rounded HALF_UP, floating to integer truncated as Java does), anything to
// and from STRING, BOOLEAN to and from numbers, dates, times and timestamps between each other.
// A value that does not convert is an error naming the expression and the value, or null for
// TRY_CAST.

#include <string>
#include <string_view>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/sql/scalar/scalar_expr.h"

namespace floe::sql::scalar {

// Whether Flink lets CAST convert `from` to `to`.
bool CanCast(const DataType& from, const DataType& to);

// Casts a column. `what` names the expression in errors; `safe` turns failed values into nulls.
// `input_type`, the input's declared type when known, gives a TIME(p) or TIMESTAMP(p) its
// digits in a cast to STRING; a cast to TIME(p) or TIMESTAMP(p) truncates to p digits.
Result<Array> CastArray(const Array& input, const DataTypePtr& target, bool safe,
                        std::string_view what, const DataType* input_type = nullptr);

// A cast node written as `text` (folded when the input is constant); `what` names it in errors
// (the text when empty). Implicit casts are NodeKind::kCoerce nodes, explicit ones kCall.
Result<ScalarExprPtr> MakeCast(ScalarExprPtr input, const DataTypePtr& target, bool safe,
                               std::string text, std::string what = {}, bool implicit = false);
// The implicit conversion the binder inserts: the input itself when it already has the type,
// else a cast that keeps the input's text.
Result<ScalarExprPtr> Coerce(ScalarExprPtr input, const DataTypePtr& target);

}  // namespace floe::sql::scalar
