#include "floe/sql/statements/query_statements.h"

#include <fmt/format.h>

#include <atomic>

#include "floe/sql/plan/query_planner.h"
#include "floe/sql/statements/result_stream_internal.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

// The job configuration of a query: the session's, without checkpoints, as a query's rows go to
// the client and there is nothing to restore them from.
Result<stream::ExecutionConfig> QueryJobConfig(const Session& session) {
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, session.config().JobConfig());
  config.checkpoint_interval_ms = 0;
  config.restore_from.reset();
  return config;
}

std::string QueryJobName(const Session& session) {
  static std::atomic<int64_t> next{0};
  std::string base = session.config().Get(option::kPipelineName).value_or("collect");
  return fmt::format("{}-{}", base, next.fetch_add(1));
}

}  // namespace

Result<StatementResult> Execute(Session& session, const QueryStatement& statement) {
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, QueryJobConfig(session));
  bool streaming = config.mode == stream::RuntimeMode::kStreaming;
  auto env = std::make_unique<stream::StreamEnvironment>(std::move(config));
  FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *statement.query, *env));
  BatchSchemaPtr schema = planned.stream.schema();
  std::unique_ptr<RowStream> rows =
      StartQueryJob(std::move(env), planned.stream, QueryJobName(session), planned.row_limit);
  return StatementResult::Rows(std::move(schema), std::move(rows), streaming);
}

Result<StatementResult> Execute(Session& session, const Explain& statement) {
  const auto* query = std::get_if<QueryStatement>(&statement.statement->body);
  if (query == nullptr) {
    return Unsupported("EXPLAIN of this statement is not supported (only queries): {}",
                       PrintStatement(*statement.statement));
  }
  FLOE_ASSIGN_OR_RETURN(stream::ExecutionConfig config, QueryJobConfig(session));
  stream::StreamEnvironment env(std::move(config));
  FLOE_ASSIGN_OR_RETURN(PlannedQuery planned, PlanQuery(session, *query->query, env));
  std::string plan = "== Physical Execution Plan ==";
  for (const std::string& line : planned.explain) plan += "\n" + line;
  return StatementResult::StringTable({"result"}, {{plan}});
}

}  // namespace floe::sql
