#pragma once

// Compiles a query onto a StreamEnvironment: name resolution against the session, type checking,
// expressions, the table sources (Iceberg tables with their OPTIONS hints and pushed-down
// filters, metadata tables, default_catalog's connector tables, VALUES) and the relational
// operators (exec/relational.h). INSERT, CREATE TABLE AS and SELECT all start here.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/sql/plan/planner_session.h"
#include "floe/stream/data_stream.h"

namespace floe::sql {

struct PlannedQuery {
  // The query's rows: column names and types are the result's (stream.schema()).
  stream::DataStream stream;
  // Rows may be retracted or updated (-U/+U/-D): a streaming aggregate, or a changelog source.
  bool changelog = false;
  // Every source ends by itself (a batch read, VALUES, a bounded connector).
  bool bounded = true;
  // At most this many rows: a LIMIT at the top of an insert-only query.
  std::optional<int64_t> row_limit;
  // The plan for EXPLAIN: one line per source and operator, sources first.
  std::vector<std::string> explain;
};

// `env` must have been made from the session's job configuration (SessionConfig::JobConfig), as
// batch and streaming plans differ.
Result<PlannedQuery> PlanQuery(plan::PlannerSession& session, const Query& query,
                               stream::StreamEnvironment& env);

}  // namespace floe::sql
