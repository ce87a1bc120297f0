#pragma once

// Subqueries in WHERE: `x [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ...)` conjuncts become
// semi and anti joins of the query block's input (batch mode). A subquery may be correlated
// through equalities between its own columns and the outer block's (`WHERE i.k = o.k`); its other
// conditions filter it. NOT IN keeps SQL's three-valued logic (a null in the subquery's result
// leaves no row; a null operand is unknown).
//
// Errors: subqueries in streaming mode, correlation other than by equality, a correlated
// subquery with GROUP BY, DISTINCT, ORDER BY or LIMIT, an IN subquery with other than one column,
// a correlated NOT IN over nullable columns.

#include "floe/sql/plan/planner_context.h"

namespace floe::sql::plan {

// Whether `expr` holds a subquery anywhere.
bool ContainsSubquery(const Expr& expr);

// Plans the subquery conjuncts of `where` over `input`; `remaining` gets the other conjuncts
// (null when none) for the caller to apply.
Result<Relation> PlanSubqueryPredicates(PlannerContext& context, Relation input, const Expr& where,
                                        ExprPtr& remaining);

}  // namespace floe::sql::plan
