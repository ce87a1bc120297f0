#include "floe/sql/query_planner.h"

#include "floe/sql/plan/planner_context.h"
#include "floe/sql/plan/select.h"

namespace floe::sql {

Result<PlannedQuery> PlanQuery(Session& session, const Query& query,
                               stream::StreamEnvironment& env) {
  plan::PlannerContext context(session, env);
  FLOE_ASSIGN_OR_RETURN(plan::Relation relation, plan::PlanQueryNode(context, query));
  if (context.batch() && !relation.bounded) {
    return InvalidArgument(
        "the query reads an unbounded source (e.g. 'streaming'='true'), which batch mode cannot "
        "run; SET 'execution.runtime-mode' = 'streaming'");
  }
  return PlannedQuery{.stream = relation.stream,
                      .changelog = relation.changelog,
                      .bounded = relation.bounded,
                      .explain = context.notes()};
}

}  // namespace floe::sql
