#pragma once

// OVER windows of a select list. `ROW_NUMBER() | RANK() | DENSE_RANK() OVER (PARTITION BY ...
// ORDER BY ...)` becomes exec::Rank over the block's input after its WHERE, and the call a
// reference to the rank column it appends (`$over<i>`), bound with the rest of the select list.
// An enclosing query whose WHERE bounds that column (`rn <= N`, `rn < N`, `rn = N`, `rn BETWEEN
// a AND N`, either side) makes the Rank a Top-N of N, as Flink's planner does; streaming mode
// needs one. With ROW_NUMBER, N = 1 and an ORDER BY on the input's time attribute alone it is
// Flink's deduplication: ascending keeps the first row per key (append-only: each row once, when
// the watermark passes it), descending the last one (a change stream of -U/+U).
//
// Errors: OVER aggregates (SUM(x) OVER ...) and OVER together with GROUP BY are not supported
// yet; a ranking call with arguments or a frame, without ORDER BY, or in streaming mode without a
// Top-N filter or over a change stream.

#include <vector>

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

bool ContainsOver(const Expr& expr);

// Records the Top-N limits `query`'s WHERE puts on the ranking columns of its FROM subquery, to
// be found when that subquery is planned.
void RegisterRankFilters(PlannerContext& context, const Query& query);

// Plans the OVER calls in `exprs` over `input` filtered by `where` (may be null), and rewrites
// each call in `exprs` to a reference to its column of the returned relation (`input`'s columns,
// hidden key columns, then one per call).
Result<Relation> PlanOverCalls(PlannerContext& context, Relation input, ScalarExprPtr where,
                               const std::vector<ExprPtr*>& exprs);

}  // namespace floe::sql::plan
