#pragma once

// SELECT (and VALUES, UNION ALL...) and EXPLAIN: the query is compiled onto the stream runtime
// (query_planner.h) and its rows come back through a RowStream. In batch mode the job runs to its
// end; a streaming query runs until its sources end or the client cancels it, and its rows carry
// row kinds.

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const QueryStatement& statement);
Result<StatementResult> Execute(Session& session, const Explain& statement);

}  // namespace floe::sql
