#pragma once

// Catalog and database statements: CREATE/DROP/USE CATALOG, SHOW CATALOGS, SHOW CURRENT
// CATALOG/DATABASE, CREATE/DROP/ALTER/USE DATABASE, SHOW DATABASES.
//
// CREATE CATALOG takes the Flink connector's options ('type' = 'iceberg' is required; the others go
// to catalog::CreateCatalog, unknown ones included) and creates the catalog's default database
// ('default-database', default `default`) when it is missing, so that `cat`.`default`.`t` works
// as in the documentation. default_catalog keeps its databases in the session. Errors name the
// catalog or database: kNotFound, kAlreadyExists, kUnsupported for catalogs floe lacks, and
// kInvalidArgument for a non-empty database dropped without CASCADE or a database in use.

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

// Whether the database of `name` (catalog and namespace) exists; kNotFound for an unknown catalog.
Result<bool> DatabaseExists(Session& session, const ResolvedName& name);
// kNotFound naming the database when it does not exist.
Status RequireDatabase(Session& session, const ResolvedName& name);

}  // namespace floe::sql
