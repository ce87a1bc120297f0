#pragma once

// Table statements: CREATE TABLE (columns, PRIMARY KEY, PARTITIONED BY with transforms, WITH,
// LIKE; AS SELECT is handed to write_statements), ALTER TABLE, DROP TABLE, SHOW TABLES, SHOW
// CREATE TABLE, DESCRIBE. In default_catalog, CREATE TABLE ... WITH ('connector' = ...) defines a
// connector table of the session.

#include <functional>
#include <string>
#include <string_view>

#include "floe/sql/session.h"
#include "floe/stream/iceberg/table_loader.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const CreateTable& statement);
Result<StatementResult> Execute(Session& session, const AlterTable& statement);
Result<StatementResult> Execute(Session& session, const DropTable& statement);
Result<StatementResult> Execute(Session& session, const ShowTables& statement);
Result<StatementResult> Execute(Session& session, const ShowCreateTable& statement);
Result<StatementResult> Execute(Session& session, const DescribeTable& statement);

// The Iceberg table behind a connector table WITH ('connector' = 'iceberg', 'catalog-name' = ...,
// 'catalog-type' | 'catalog-impl', 'warehouse', 'uri', ..., 'catalog-database' (default
// default_database), 'catalog-table' (default: the connector table's own name)), as the Flink
// connector reads those options. `name` is the table's key in Session::connector_tables()
// ("database.table"). Like the Flink connector, it creates the database and the table (from the
// connector table's columns and key, its other options as table properties) when they are
// missing, so a job's sources and sinks can load it. Errors: a missing catalog-name, the
// catalog's errors, columns Iceberg cannot store.
Result<stream::TableLoader> IcebergConnectorLoader(std::string_view name,
                                                   const ConnectorTable& table);
// Options of such a table that configure its catalog rather than the table (not copied into the
// properties of the tables it creates).
bool IsIcebergCatalogOption(std::string_view key);

// The catalog of a connector table's Iceberg tables, as its options give it: 'catalog-name', the
// database 'catalog-database' (default default_database), and the catalog's properties: every
// option except connector, catalog-name, catalog-database and those `other` claims (the caller's
// own). `what` names the table in errors; kInvalidArgument for a missing catalog-name.
struct ConnectorCatalog {
  std::string name;
  std::string database;
  StringMap properties;
};
Result<ConnectorCatalog> ParseConnectorCatalog(
    std::string_view what, const StringMap& options,
    const std::function<bool(std::string_view)>& other = {});

}  // namespace floe::sql
