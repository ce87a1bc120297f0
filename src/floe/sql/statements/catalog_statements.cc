#include "floe/sql/statements/catalog_statements.h"

#include <algorithm>

#include "floe/sql/statements/ddl_schema_internal.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/view_statements.h"

namespace floe::sql {
namespace {

constexpr std::string_view kDefaultDatabaseOption = "default-database";
constexpr std::string_view kIcebergDefaultDatabase = "default";

StatementResult Succeeded() { return StatementResult::Message(std::string(kStatementSucceeded)); }

Result<StatementResult> OneColumn(std::string column, const std::vector<std::string>& values) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& value : values) rows.push_back({value});
  return StatementResult::StringTable({std::move(column)}, rows);
}

std::string DatabaseName(const ResolvedName& name) { return name.ns.ToString(); }

// Checks the type option the way the Flink connector's catalog factory does.
Status CheckCatalogType(const std::string& name, const StringMap& properties) {
  auto type = properties.find("type");
  if (type == properties.end()) {
    return InvalidArgument(
        "catalog '{}': option 'type' is missing (CREATE CATALOG {} WITH ('type' = 'iceberg', "
        "'catalog-type' = 'hadoop' | 'sql', 'warehouse' = ...))",
        name, name);
  }
  if (type->second != "iceberg") {
    return Unsupported(
        "catalog '{}': 'type' = '{}' is not supported; floe has Iceberg catalogs "
        "only ('type' = 'iceberg')",
        name, type->second);
  }
  return {};
}

// The tables of a database, as names within it.
Result<std::vector<std::string>> TablesOf(Session& session, const ResolvedName& database) {
  std::vector<std::string> names;
  if (database.in_default_catalog()) {
    std::string prefix = DatabaseName(database) + ".";
    for (const auto& [key, table] : session.connector_tables()) {
      if (key.starts_with(prefix)) names.push_back(key.substr(prefix.size()));
    }
    return names;
  }
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(database));
  FLOE_ASSIGN_OR_RETURN(auto idents, catalog->ListTables(database.ns));
  for (const auto& ident : idents) names.push_back(ident.name);
  std::ranges::sort(names);
  return names;
}

}  // namespace

Result<bool> DatabaseExists(Session& session, const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, session.FindCatalog(name.catalog));
  if (catalog->catalog == nullptr) {
    std::string database = DatabaseName(name);
    return database == kDefaultDatabase || catalog->databases.contains(database);
  }
  return catalog->catalog->NamespaceExists(name.ns);
}

Status RequireDatabase(Session& session, const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(bool exists, DatabaseExists(session, name));
  if (!exists) {
    return NotFound("database '{}' does not exist in catalog '{}'", DatabaseName(name),
                    name.catalog);
  }
  return {};
}

Result<StatementResult> Execute(Session& session, const CreateCatalog& statement) {
  FLOE_RETURN_IF_ERROR(catalog::ValidateIdentifierPart(statement.name, "catalog name"));
  if (session.FindCatalog(statement.name).has_value()) {
    if (statement.if_not_exists) return Succeeded();
    return AlreadyExists("catalog '{}' already exists", statement.name);
  }
  FLOE_ASSIGN_OR_RETURN(StringMap properties, ToStringMap(statement.options, "catalog"));
  FLOE_RETURN_IF_ERROR(CheckCatalogType(statement.name, properties));
  FLOE_ASSIGN_OR_RETURN(auto catalog, catalog::CreateCatalog(statement.name, properties));
  auto default_option = properties.find(kDefaultDatabaseOption);
  std::string default_database = default_option != properties.end()
                                     ? default_option->second
                                     : std::string(kIcebergDefaultDatabase);
  FLOE_ASSIGN_OR_RETURN(catalog::Namespace ns, catalog::Namespace::Parse(default_database));
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog->NamespaceExists(ns));
  if (!exists) {
    auto created = catalog->CreateNamespace(ns, {});
    if (!created && created.error().kind() != ErrorKind::kAlreadyExists) {
      return std::unexpected(std::move(created.error())
                                 .AddContext(fmt::format("catalog '{}': creating its default "
                                                         "database '{}'",
                                                         statement.name, default_database)));
    }
  }
  FLOE_RETURN_IF_ERROR(session.AddCatalog(SessionCatalog{.name = statement.name,
                                                         .catalog = std::move(catalog),
                                                         .properties = std::move(properties),
                                                         .current_database = default_database}));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const DropCatalog& statement) {
  if (statement.if_exists && !session.FindCatalog(statement.name).has_value()) return Succeeded();
  FLOE_RETURN_IF_ERROR(session.RemoveCatalog(statement.name));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const UseCatalog& statement) {
  FLOE_RETURN_IF_ERROR(session.UseCatalog(statement.name));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const ShowCatalogs&) {
  return OneColumn("catalog name", session.CatalogNames());
}

Result<StatementResult> Execute(Session& session, const ShowCurrentCatalog&) {
  return OneColumn("current catalog name", {session.current_catalog()});
}

Result<StatementResult> Execute(Session& session, const ShowCurrentDatabase&) {
  return OneColumn("current database name", {session.current_database()});
}

Result<StatementResult> Execute(Session& session, const CreateDatabase& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveDatabase(statement.name));
  FLOE_ASSIGN_OR_RETURN(StringMap properties, ToStringMap(statement.options, "database"));
  if (statement.comment.has_value()) properties["comment"] = *statement.comment;
  FLOE_ASSIGN_OR_RETURN(bool exists, DatabaseExists(session, name));
  if (exists) {
    if (statement.if_not_exists) return Succeeded();
    return AlreadyExists("database '{}' already exists in catalog '{}'", DatabaseName(name),
                         name.catalog);
  }
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, session.FindCatalog(name.catalog));
  if (catalog->catalog == nullptr) {
    catalog->databases.emplace(DatabaseName(name), std::move(properties));
  } else {
    FLOE_RETURN_IF_ERROR(catalog->catalog->CreateNamespace(name.ns, properties));
  }
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const DropDatabase& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveDatabase(statement.name));
  FLOE_ASSIGN_OR_RETURN(bool exists, DatabaseExists(session, name));
  if (!exists) {
    if (statement.if_exists) return Succeeded();
    return NotFound("database '{}' does not exist in catalog '{}'", DatabaseName(name),
                    name.catalog);
  }
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, session.FindCatalog(name.catalog));
  if (name.catalog == session.current_catalog() &&
      DatabaseName(name) == session.current_database()) {
    return InvalidArgument("database '{}' is the current database: USE another one first",
                           DatabaseName(name));
  }
  if (catalog->catalog == nullptr && DatabaseName(name) == kDefaultDatabase) {
    return InvalidArgument("database '{}' of {} cannot be dropped", kDefaultDatabase,
                           kDefaultCatalog);
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<std::string> tables, TablesOf(session, name));
  if (!tables.empty() && statement.behavior != DropBehavior::kCascade) {
    std::string listed;
    for (const std::string& table : tables) listed += (listed.empty() ? "" : ", ") + table;
    return InvalidArgument(
        "database '{}' in catalog '{}' is not empty (tables: {}); drop them first or use DROP "
        "DATABASE ... CASCADE",
        DatabaseName(name), name.catalog, listed);
  }
  if (catalog->catalog == nullptr) {
    for (const std::string& table : tables) {
      session.connector_tables().erase(DatabaseName(name) + "." + table);
    }
    catalog->databases.erase(DatabaseName(name));
    return Succeeded();
  }
  for (const std::string& table : tables) {
    FLOE_RETURN_IF_ERROR(DropIcebergTable(*catalog->catalog, {name.ns, table}));
  }
  FLOE_RETURN_IF_ERROR(catalog->catalog->DropNamespace(name.ns));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const AlterDatabase& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveDatabase(statement.name));
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
  FLOE_ASSIGN_OR_RETURN(StringMap updates, ToStringMap(statement.options, "database"));
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, session.FindCatalog(name.catalog));
  if (catalog->catalog == nullptr) {
    StringMap& properties = catalog->databases[DatabaseName(name)];
    for (auto& [key, value] : updates) properties[key] = value;
    return Succeeded();
  }
  FLOE_RETURN_IF_ERROR(catalog->catalog->UpdateNamespaceProperties(name.ns, updates, {}));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const UseDatabase& statement) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName name, session.ResolveDatabase(statement.name));
  FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
  FLOE_RETURN_IF_ERROR(session.UseDatabase(name.catalog, DatabaseName(name)));
  return Succeeded();
}

Result<StatementResult> Execute(Session& session, const ShowDatabases& statement) {
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, session.FindCatalog(session.current_catalog()));
  std::vector<std::string> names;
  if (catalog->catalog == nullptr) {
    names.emplace_back(kDefaultDatabase);
    for (const auto& [database, properties] : catalog->databases) names.push_back(database);
  } else {
    FLOE_ASSIGN_OR_RETURN(auto namespaces, catalog->catalog->ListNamespaces({}));
    for (const auto& ns : namespaces) names.push_back(ns.ToString());
  }
  std::ranges::sort(names);
  std::vector<std::string> shown;
  for (std::string& name : names) {
    FLOE_ASSIGN_OR_RETURN(bool keep, ShowLikeMatches(statement.like, name));
    if (keep) shown.push_back(std::move(name));
  }
  return OneColumn("database name", shown);
}

}  // namespace floe::sql
