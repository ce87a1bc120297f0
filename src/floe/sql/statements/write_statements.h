#pragma once

// Writes and the jobs they start: INSERT INTO / INSERT OVERWRITE (dynamic and static partitions,
// upsert, write options as hints), CREATE TABLE ... AS SELECT, SHOW JOBS and STOP JOB. A batch
// INSERT runs to its end; a streaming one becomes a background job of the session (jobs.h).
//
// An INSERT plans its query (query_planner.h), lines the query's columns up with the table's
// (insert_columns_internal.h: by position or by the column list, implicit casts, static PARTITION
// values as constants) and writes through the IcebergSink, whose options come from the table's
// properties and the target's OPTIONS hint (every option of stream/iceberg/sink_options.h; hints
// need table.dynamic-table-options.enabled). INSERT OVERWRITE is the sink's dynamic partition
// overwrite: the partitions the query writes are replaced (the whole table when unpartitioned).
//
// Results:
//   batch, or streaming with SET 'table.dml-sync' = 'true': the job runs to its end and the
//     message is "[INFO] Inserted N rows into cat.db.t (snapshot S)." (N counts the query's rows;
//     "no new snapshot" when nothing was committed); for an overwrite "[INFO] Overwrote cat.db.t
//     with N rows (snapshot S).";
//   streaming: kJob with the job id; the job is named by 'pipeline.name', else
//     "insert-into_cat.db.t" as Flink names it (made unique within the session), and checkpoints
//     under state.checkpoints.dir, else SessionOptions::checkpoint_root, in a folder of that name,
//     so the same statement run again resumes from its latest checkpoint;
//   SHOW JOBS: Flink's columns job id, job name, status, start time (UTC); every write is a job
//     of the session, the batch ones too;
//   STOP JOB 'id': "[INFO] Execute statement succeeded."; WITH SAVEPOINT: one column "savepoint
//     path" (under state.savepoints.dir, else <checkpoint folder>/savepoints).
//
// Errors name the table and what is wrong: an unknown table, a metadata table, INSERT OVERWRITE in
// streaming mode, hints while dynamic options are off, the sink's errors (unknown option, upsert
// without a key or on a v1 table, upsert with overwrite), bad columns or casts, a PARTITION column
// that is not an identity partition source, a changelog query into a table without a key.

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const Insert& statement);
Result<StatementResult> Execute(Session& session, const ShowJobs& statement);
Result<StatementResult> Execute(Session& session, const StopJob& statement);
// CREATE TABLE ... AS SELECT (table_statements hands it over): the table's columns are the
// query's (TINYINT and SMALLINT stored as INT), with PARTITIONED BY and WITH from the statement;
// then the rows are inserted. A CTAS whose batch write fails leaves no table behind.
Result<StatementResult> ExecuteCreateTableAs(Session& session, const CreateTable& statement);

}  // namespace floe::sql
