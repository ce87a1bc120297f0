#pragma once

// Queries onto streams: SELECT blocks (FROM, WHERE, GROUP BY/HAVING, DISTINCT, the select list),
// VALUES, UNION/INTERSECT/EXCEPT [ALL], WITH, and ORDER BY / LIMIT / OFFSET over any of them. Output columns are named
// as Flink names them (names_internal.h) and carry no qualifier.
//
// Errors: the binder's (unknown or ambiguous columns, type errors), ORDER BY over an unbounded
// input, a bad LIMIT/OFFSET, UNION branches of different widths or incompatible types.

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

Result<Relation> PlanQueryNode(PlannerContext& context, const Query& query);

}  // namespace floe::sql::plan
