#pragma once

// Catalog and database statements: CREATE/DROP/USE CATALOG, SHOW CATALOGS, SHOW CURRENT
// CATALOG/DATABASE, CREATE/DROP/ALTER/USE DATABASE, SHOW DATABASES.

#include "floe/sql/session.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const CreateCatalog& statement);
Result<StatementResult> Execute(Session& session, const DropCatalog& statement);
Result<StatementResult> Execute(Session& session, const UseCatalog& statement);
Result<StatementResult> Execute(Session& session, const ShowCatalogs& statement);
Result<StatementResult> Execute(Session& session, const ShowCurrentCatalog& statement);
Result<StatementResult> Execute(Session& session, const ShowCurrentDatabase& statement);
Result<StatementResult> Execute(Session& session, const CreateDatabase& statement);
Result<StatementResult> Execute(Session& session, const DropDatabase& statement);
Result<StatementResult> Execute(Session& session, const AlterDatabase& statement);
Result<StatementResult> Execute(Session& session, const UseDatabase& statement);
Result<StatementResult> Execute(Session& session, const ShowDatabases& statement);

}  // namespace floe::sql
