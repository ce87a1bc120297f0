#pragma once

// Column names of query results as Flink gives them: a bare column reference keeps its column's
// name, an alias wins, anything else is EXPR$<position in the select list>; a repeated name gets
// the smallest numeric suffix that makes it unique (a, a0, a1), as Calcite's uniquifier does.

#include <optional>
#include <string>
#include <vector>

#include "floe/sql/syntax/ast.h"

namespace floe::sql::plan {

// The name of select item `position` (0-based).
std::string DefaultColumnName(const Expr& expr, const std::optional<std::string>& alias,
                              int position);

// `names` with repeats renamed.
std::vector<std::string> UniqueNames(std::vector<std::string> names);

}  // namespace floe::sql::plan
