#pragma once

// Table statements: CREATE TABLE (columns, PRIMARY KEY, PARTITIONED BY with transforms, WITH,
// LIKE; AS SELECT is handed to write_statements), ALTER TABLE, DROP TABLE, SHOW TABLES, SHOW
// CREATE TABLE, DESCRIBE. In default_catalog, CREATE TABLE ... WITH ('connector' = ...) defines a
// connector table of the session.

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const CreateTable& statement);
Result<StatementResult> Execute(Session& session, const AlterTable& statement);
Result<StatementResult> Execute(Session& session, const DropTable& statement);
Result<StatementResult> Execute(Session& session, const ShowTables& statement);
Result<StatementResult> Execute(Session& session, const ShowCreateTable& statement);
Result<StatementResult> Execute(Session& session, const DescribeTable& statement);

}  // namespace floe::sql
