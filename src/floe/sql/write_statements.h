#pragma once

// Writes and the jobs they start: INSERT INTO / INSERT OVERWRITE (dynamic and static partitions,
// upsert, write options as hints), CREATE TABLE ... AS SELECT, SHOW JOBS and STOP JOB. A batch
// INSERT runs to its end; a streaming one becomes a background job of the session (jobs.h).

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const Insert& statement);
Result<StatementResult> Execute(Session& session, const ShowJobs& statement);
Result<StatementResult> Execute(Session& session, const StopJob& statement);
// CREATE TABLE ... AS SELECT (table_statements hands it over).
Result<StatementResult> ExecuteCreateTableAs(Session& session, const CreateTable& statement);

}  // namespace floe::sql
