#pragma once

// Subqueries in WHERE: `x [NOT] IN (SELECT ...)` and `[NOT] EXISTS (SELECT ...)` conjuncts become
// semi and anti joins of the query block's input (batch mode). A subquery may be correlated
// through equalities between its own columns and the outer block's (`WHERE i.k = o.k`); its other
// conditions filter it. NOT IN keeps SQL's three-valued logic (a null in the subquery's result
// leaves no row; a null operand is unknown).
//
// Scalar subqueries (`(SELECT max(y) FROM t)` as a value, anywhere an expression may be but in
// GROUP BY and aggregate calls): each is planned as a query of its own, reduced to its single row
// (NULL when it has none; more than one fails the query) and cross-joined onto the block's rows as
// a column `$scalar<i>`, which the expression then names.
//
// Errors: subqueries in streaming mode, correlation other than by equality, a correlated
// subquery with GROUP BY, DISTINCT, ORDER BY or LIMIT, an IN subquery with other than one column,
// a correlated NOT IN over nullable columns, a correlated scalar subquery, a scalar subquery with
// other than one column.

#include <vector>

#include "floe/sql/plan/planner_context.h"

namespace floe::sql::plan {

// Whether `expr` holds a subquery anywhere.
bool ContainsSubquery(const Expr& expr);

// The scalar subqueries of one query block, each replaced in copies of the block's expressions
// by a reference to the column that Join adds.
class ScalarSubqueries {
 public:
  // A copy of `expr` with every scalar subquery replaced by its column reference. kUnsupported
  // for an IN or EXISTS subquery inside it.
  Result<ExprPtr> Replace(const Expr& expr);
  // Whether Replace found subqueries that Join has not added yet.
  bool pending() const { return joined_ < found_.size(); }
  // Cross-joins the subqueries replaced since the last call onto `relation`: one column each,
  // after its own columns.
  Result<Relation> Join(PlannerContext& context, Relation relation);

 private:
  std::vector<const Expr*> found_;
  size_t joined_ = 0;
};

// Plans the IN and EXISTS conjuncts of `where` over `input`; `remaining` gets the other
// conjuncts (null when none), their scalar subqueries replaced through `scalars`, for the caller
// to apply.
Result<Relation> PlanSubqueryPredicates(PlannerContext& context, Relation input, const Expr& where,
                                        ScalarSubqueries& scalars, ExprPtr& remaining);

}  // namespace floe::sql::plan
