#include "floe/sql/plan/query_planner.h"

#include "floe/sql/plan/planner_context_internal.h"
#include "floe/sql/plan/select_internal.h"
#include "floe/sql/scalar/scalar_expr.h"

namespace floe::sql {

Result<PlannedQuery> PlanQuery(plan::PlannerSession& session, const Query& query,
                               stream::StreamEnvironment& env) {
  plan::PlannerContext context(session, env);
  FLOE_ASSIGN_OR_RETURN(plan::Relation relation, plan::PlanQueryNode(context, query));
  if (context.batch() && !relation.bounded) {
    return InvalidArgument(
        "the query reads an unbounded source (e.g. 'streaming'='true'), which batch mode cannot "
        "run; SET 'execution.runtime-mode' = 'streaming'");
  }
  std::optional<int64_t> row_limit;
  if (query.limit && !relation.changelog) {
    FLOE_ASSIGN_OR_RETURN(Value limit, EvaluateConstant(*query.limit));
    if (limit.is<int64_t>()) row_limit = limit.get<int64_t>();
  }
  return PlannedQuery{.stream = relation.stream,
                      .changelog = relation.changelog,
                      .bounded = relation.bounded,
                      .row_limit = row_limit,
                      .explain = context.notes()};
}

}  // namespace floe::sql
