// DROP TABLE and SHOW TABLES (table_statements.h); CREATE, ALTER and the descriptions have their
// own files.

#include "floe/sql/statements/table_statements.h"

#include <algorithm>

#include "floe/sql/statements/catalog_statements.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/view_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session& session, const DropTable& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, ResolvePlainTable(session, statement.name));
  if (name.in_default_catalog()) {
    auto table = FindConnectorTable(session, name);
    if (!table) {
      if (statement.if_exists && table.error().kind() == ErrorKind::kNotFound) {
        return StatementResult::Message(std::string(kStatementSucceeded));
      }
      return std::unexpected(std::move(table).error());
    }
    session.connector_tables().erase(ConnectorKey(name));
    return StatementResult::Message(std::string(kStatementSucceeded));
  }
  auto table = LoadIcebergTable(session, name);
  if (!table) {
    if (statement.if_exists && table.error().kind() == ErrorKind::kNotFound) {
      return StatementResult::Message(std::string(kStatementSucceeded));
    }
    // A table whose metadata file is gone can still be dropped: the catalog forgets it.
    if (table.error().kind() != ErrorKind::kIO) return std::unexpected(std::move(table).error());
  }
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(name));
  FLOE_RETURN_IF_ERROR(DropIcebergTable(*catalog, name.ident()));
  return StatementResult::Message(std::string(kStatementSucceeded));
}

Result<StatementResult> Execute(Session& session, const ShowTables& statement) {
  ResolvedName database;
  if (statement.database.has_value()) {
    FLOE_ASSIGN_OR_RETURN(database, session.ResolveDatabase(*statement.database));
  } else {
    database.catalog = session.current_catalog();
    database.ns.levels.push_back(session.current_database());
  }
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, database));
  std::vector<std::string> names;
  if (database.in_default_catalog()) {
    std::string prefix = database.ns.ToString() + ".";
    for (const auto& [key, table] : session.connector_tables()) {
      if (key.starts_with(prefix)) names.push_back(key.substr(prefix.size()));
    }
  } else {
    FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(database));
    FLOE_ASSIGN_OR_RETURN(auto idents, catalog->ListTables(database.ns));
    for (const auto& ident : idents) names.push_back(ident.name);
  }
  // As in Flink, the views are listed too.
  for (std::string& view : ViewNames(session, database)) names.push_back(std::move(view));
  std::ranges::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::vector<std::vector<std::string>> rows;
  for (std::string& name : names) {
    FLOE_ASSIGN_OR_RETURN(bool keep, ShowLikeMatches(statement.like, name));
    if (keep) rows.push_back({std::move(name)});
  }
  return StatementResult::StringTable({"table name"}, rows);
}

}  // namespace floe::sql
