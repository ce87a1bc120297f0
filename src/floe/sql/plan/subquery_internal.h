#pragma once

// Subqueries (batch mode).
//
// IN and EXISTS conjuncts of WHERE (`x [NOT] IN (SELECT ...)`, `[NOT] EXISTS (SELECT ...)`) become
// semi and anti joins of the query block's input. A subquery may be correlated through equalities
// between its own columns and the outer block's (`WHERE i.k = o.k`); its other conditions filter
// it. NOT IN keeps SQL's three-valued logic (a null in the subquery's result leaves no row; a null
// operand is unknown).
//
// Anywhere else (inside OR, NOT or CASE, in the select list, HAVING or ORDER BY) a subquery is
// replaced by a column that a join adds to the block's rows:
// - IN and EXISTS: a mark join gives each row TRUE, FALSE or NULL (IN's three-valued logic: a
//   null operand, or a null among the values, gives NULL rather than FALSE);
// - a scalar subquery (`(SELECT max(y) FROM t)`): uncorrelated, its single row (NULL when it has
//   none; more than one fails the query) is crossed onto every row. Correlated through
//   equalities, it is decorrelated: grouped (an aggregate) or checked to have one row (otherwise)
//   per correlation key, then LEFT joined on those keys, so that an outer row with no inner rows
//   gets NULL, or COUNT's 0.
//
// Errors: subqueries in streaming mode, correlation other than by equality, a correlated
// subquery with GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT or a nested subquery, an IN subquery
// with other than one column, a scalar subquery with other than one column or, at run time, more
// than one row (per outer row), a subquery in GROUP BY.

#include <functional>
#include <vector>

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

// Whether `expr` holds a subquery anywhere.
bool ContainsSubquery(const Expr& expr);

// The subqueries of one query block, each replaced in copies of the block's expressions by a
// reference to the column that Join adds.
class SubqueryColumns {
 public:
  // A copy of `expr` with every subquery replaced by its column (`x NOT IN (...)` by NOT over
  // the column of `x IN (...)`).
  ExprPtr Replace(const Expr& expr);
  // Whether Replace found subqueries that Join has not added yet.
  bool pending() const { return joined_ < found_.size(); }
  // The IN operands of those subqueries, replaced: expressions over the rows Join gets (an
  // aggregation below must compute their aggregate calls).
  std::vector<const Expr*> pending_operands() const;
  // Adds the columns of the subqueries replaced since the last call to `relation`, after its own
  // columns; `over` (when set) maps an IN operand onto `relation`'s rows (e.g. aggregate calls
  // onto aggregated columns). Correlated subqueries name `relation`'s columns.
  Result<Relation> Join(PlannerContext& context, Relation relation,
                        const std::function<ExprPtr(const Expr&)>& over = {});

 private:
  struct Found {
    const Expr* node = nullptr;
    ExprPtr operand;  // IN's, replaced
  };
  std::vector<Found> found_;
  size_t joined_ = 0;
};

// Applies the conjuncts of `where` without subqueries to `input`, then plans its IN and EXISTS
// conjuncts; `remaining` gets the other conjuncts with subqueries (null when none), their
// subqueries replaced through `subqueries`, for the caller to apply.
Result<Relation> PlanSubqueryPredicates(PlannerContext& context, Relation input, const Expr& where,
                                        SubqueryColumns& subqueries, ExprPtr& remaining);

}  // namespace floe::sql::plan
