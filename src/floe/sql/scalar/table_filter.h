#pragma once

// SQL text as a condition on the rows of an Iceberg table: `floe scan --filter` and the `where`
// of CALL rewrite_data_files. The text is a boolean SQL expression (syntax/parser.h) over the
// table's top-level columns, names quoted with backticks where needed, bound as a WHERE on the
// table is (scalar_expr.h): 'strings' compared with a date or timestamp column are read as one.

#include <string_view>

#include "floe/spec/schema.h"
#include "floe/sql/scalar/scalar_expr.h"

namespace floe::sql {

struct TableFilter {
  Scope scope;  // the schema's columns, with their field ids
  ScalarExprPtr predicate;
};

// kInvalidArgument, naming the line and column, when the text does not parse or bind or is not
// BOOLEAN.
Result<TableFilter> BindTableFilter(std::string_view text, const Schema& schema);

}  // namespace floe::sql
