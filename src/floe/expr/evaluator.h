#pragma once

// Evaluates a bound expression on one row (reference implementation's Evaluator), for tests,
// residual filtering and partition tuples. Semantics follow the expressions spec: a null value
// fails every comparison, in and starts_with, and passes !=, not in and not starts_with; NaN sorts
// above every other value and equals only itself.

#include <cstdint>
#include <functional>

#include "floe/expr/expression.h"

namespace floe::expr {

// Gives the value of a field id in the row; nullptr or a null Literal is null. Values must have
// the bound column's type.
using RowAccessor = std::function<const Literal*(int32_t field_id)>;

bool Evaluate(const Expression& bound, const RowAccessor& row);

// One predicate's test of one value (a null Literal is null).
bool TestValue(const Expression& predicate, const Literal* value);

}  // namespace floe::expr
