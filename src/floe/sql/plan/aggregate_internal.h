#pragma once

// GROUP BY, HAVING and aggregate calls: the aggregate calls are taken out of the select list,
// HAVING and ORDER BY, their arguments and the grouping expressions projected into columns, and
// exec::Aggregate computes one row per group. Expressions over the aggregated rows are then
// rewritten (an aggregate call or a GROUP BY expression becomes a reference to its column) and
// bound as usual, so `SELECT a + 1, SUM(b) * 2 FROM t GROUP BY a + 1` works as in Flink.
//
// Errors: a nested aggregate call, an aggregate over a type it does not take, a column that is
// neither grouped nor inside an aggregate (the binder reports it as unknown).

#include <string>
#include <vector>

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

class AggregatePlan {
 public:
  // `exprs` are every expression evaluated after the aggregation (select items, HAVING, ORDER BY);
  // `where` (may be null) filters the input first.
  static Result<AggregatePlan> Make(PlannerContext& context, const Relation& input,
                                    ScalarExprPtr where, const std::vector<ExprPtr>& group_by,
                                    const std::vector<const Expr*>& exprs);

  // Group columns then one column per aggregate call.
  const Relation& output() const { return output_; }
  // A copy of `expr` to bind over output().
  ExprPtr Rewrite(const Expr& expr) const;
  // Like Rewrite, for rows where the group may be missing (the null side of an outer join): a
  // COUNT reads 0 there, as it does over no rows, and the other aggregates NULL.
  ExprPtr RewriteNullExtended(const Expr& expr) const;

 private:
  explicit AggregatePlan(Relation output) : output_(std::move(output)) {}

  Relation output_;
  std::vector<std::string> call_texts_;   // printed aggregate calls, i -> column "$a<i>"
  std::vector<bool> call_counts_;         // whether call i is a COUNT
  std::vector<std::string> group_texts_;  // printed GROUP BY expressions that are not columns
  std::vector<int> group_columns_;        // their output column index
};

// Whether the select block aggregates: GROUP BY, HAVING, or an aggregate call in the select list.
bool IsAggregateQuery(const Query& query);

}  // namespace floe::sql::plan
