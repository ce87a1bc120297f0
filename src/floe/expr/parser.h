#pragma once

// Parses the filter strings of the command line (`floe scan --filter "id > 5 and cat = 'a'"`)
// into unbound expressions. SQL-like:
//   comparisons   col = 5, col != 'x', col <> 1.5, col < -3, 10 >= col
//   tests         col IS NULL, col IS NOT NULL, col IS NAN, col IS NOT NAN
//   sets          col IN (1, 2, 3), col NOT IN ('a', 'b')
//   prefixes      col LIKE 'abc%', col NOT LIKE 'abc%' (a single trailing % only)
//   logic         AND, OR, NOT, parentheses, TRUE, FALSE
// Keywords are case-insensitive; columns are names, dotted paths, or "quoted" / `quoted`.
// Literals: 'strings' ('' escapes a quote), integers (long), decimals (1.50 keeps its scale),
// numbers with an exponent (double), TRUE/FALSE. Dates and timestamps are written as strings and
// converted when the filter is bound. Errors say what was expected and at which offset; nesting is
// limited so hostile input cannot exhaust the stack.

#include <string_view>

#include "floe/expr/expression.h"

namespace floe::expr {

Result<ExprPtr> ParseFilter(std::string_view text);

}  // namespace floe::expr
