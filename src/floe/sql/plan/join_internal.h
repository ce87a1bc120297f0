#pragma once

// JOIN ... ON (inner, left, right, full), CROSS JOIN and comma joins: the ON conjuncts that equal
// a column of one side to a column of the other become hash keys, the rest a condition checked on
// each matching pair. Joins run over bounded inputs only (batch mode, or bounded sources in
// streaming mode); a join of an unbounded input is a clear error.

#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

// `where` is the enclosing block's WHERE, for push-down only (the caller applies it).
Result<Relation> PlanJoin(PlannerContext& context, const TableRef& ref, const ColumnUse& use,
                          const Expr* where);

}  // namespace floe::sql::plan
