#pragma once

// Window table functions in FROM: TABLE(TUMBLE | HOP | CUMULATE (TABLE t, DESCRIPTOR(ts), ...)),
// arguments positional or named (SIZE, SLIDE, STEP, OFFSET), as Flink's documentation gives them.
// The relation is t's columns and window_start, window_end, window_time; GROUP BY window_start,
// window_end then aggregates per window (aggregate.cc). In streaming mode the DESCRIPTOR column
// must be a time attribute (WATERMARK FOR it).

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

Result<Relation> PlanWindowFunction(PlannerContext& context, const TableRef& ref);

}  // namespace floe::sql::plan
