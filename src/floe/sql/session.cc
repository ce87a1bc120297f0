#include "floe/sql/session.h"

#include <algorithm>
#include <type_traits>

#include "floe/catalog/identifier.h"
#include "floe/io/s3/s3_options.h"
#include "floe/sql/embedded_catalog.h"
#include "floe/sql/statements/call_statements.h"
#include "floe/sql/statements/catalog_statements.h"
#include "floe/sql/statements/iceberg_tables.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/statements/query_statements.h"
#include "floe/sql/statements/table_statements.h"
#include "floe/sql/statements/view_statements.h"
#include "floe/sql/statements/write_statements.h"
#include "floe/sql/syntax/parser.h"

namespace floe::sql {
namespace {

constexpr std::string_view kHelpText =
    "Statements end with ';'. Some of them:\n"
    "  CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='...');\n"
    "  USE CATALOG c;  SHOW CATALOGS;  CREATE DATABASE db;  USE db;  SHOW DATABASES;\n"
    "  CREATE TABLE t (id BIGINT, data STRING) PARTITIONED BY (data) WITH (...);\n"
    "  ALTER TABLE t SET ('k'='v');  DESCRIBE t;  SHOW CREATE TABLE t;  SHOW TABLES LIKE 'x%';\n"
    "  CREATE TEMPORARY VIEW v AS SELECT ...;  SHOW VIEWS;  SHOW CREATE VIEW v;  DROP VIEW v;\n"
    "  INSERT INTO t VALUES (1, 'a');  INSERT OVERWRITE t SELECT ...;\n"
    "  SELECT * FROM t /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s') */;\n"
    "  SELECT * FROM t$snapshots;  CALL system.rewrite_data_files(table => 'db.t');\n"
    "  SET 'execution.runtime-mode' = 'batch';  RESET;  SHOW JOBS;  STOP JOB 'id';\n"
    "  HELP;  QUIT;\n";

Result<StatementResult> ExecuteSet(Session& session, const SetOption& statement) {
  if (!statement.key.has_value()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [key, value] : session.config().All()) {
      rows.push_back({key, io::IsSecretProperty(key) ? std::string("******") : value});
    }
    return StatementResult::StringTable({"key", "value"}, rows);
  }
  SessionConfig changed = session.config();
  changed.Set(*statement.key, statement.value);
  // Check the typed options now rather than at the next job.
  FLOE_RETURN_IF_ERROR(changed.JobConfig());
  FLOE_RETURN_IF_ERROR(changed.result_mode());
  FLOE_RETURN_IF_ERROR(changed.dynamic_table_options_enabled());
  FLOE_RETURN_IF_ERROR(changed.max_column_width());
  session.config() = std::move(changed);
  return StatementResult::Message("[INFO] Execute statement succeeded.");
}

Result<StatementResult> ExecuteReset(Session& session, const ResetOption& statement) {
  if (statement.key.has_value()) {
    session.config().Reset(*statement.key);
  } else {
    session.config().ResetAll();
  }
  return StatementResult::Message("[INFO] Execute statement succeeded.");
}

// Statements that read or change tables or their metadata (and so must see the writes of the
// jobs before them); SET, SHOW JOBS, STOP JOB and the like do not wait.
bool TouchesTables(const Statement& statement) {
  return std::visit(
      [](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        return std::is_same_v<T, CreateTable> || std::is_same_v<T, AlterTable> ||
               std::is_same_v<T, DropTable> || std::is_same_v<T, ShowCreateTable> ||
               std::is_same_v<T, DescribeTable> || std::is_same_v<T, Insert> ||
               std::is_same_v<T, QueryStatement> || std::is_same_v<T, Call> ||
               std::is_same_v<T, Explain> || std::is_same_v<T, DropDatabase> ||
               std::is_same_v<T, DropCatalog> || std::is_same_v<T, CreateView>;
      },
      statement.body);
}

}  // namespace

Session::Session(SessionOptions options)
    : options_(std::move(options)), jobs_(std::make_unique<JobManager>()) {
  catalogs_.emplace(kDefaultCatalog,
                    SessionCatalog{.name = std::string(kDefaultCatalog),
                                   .current_database = std::string(kDefaultDatabase)});
  current_catalog_ = kDefaultCatalog;
}

Session::~Session() = default;

const SessionView* Session::FindView(const ResolvedName& name) const {
  if (!name.metadata.empty()) return nullptr;
  std::string key = name.ToString();
  for (const auto* views : {&temporary_views_, &views_}) {
    if (auto found = views->find(key); found != views->end()) return &found->second;
  }
  return nullptr;
}

Status Session::Open() {
  if (options_.embedded_warehouse.empty()) return {};
  FLOE_ASSIGN_OR_RETURN(EmbeddedCatalogPlace place,
                        PrepareEmbeddedCatalog(options_.embedded_warehouse));
  notes_ = std::move(place.notes);
  StringMap properties = std::move(place.properties);
  FLOE_ASSIGN_OR_RETURN(auto catalog,
                        catalog::CreateCatalog(std::string(kEmbeddedCatalog), properties));
  catalog::Namespace ns{{std::string(kEmbeddedDatabase)}};
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog->NamespaceExists(ns));
  if (!exists) FLOE_RETURN_IF_ERROR(catalog->CreateNamespace(ns, {}));
  FLOE_RETURN_IF_ERROR(
      AddCatalog(SessionCatalog{.name = std::string(kEmbeddedCatalog),
                                .catalog = std::move(catalog),
                                .properties = std::move(properties),
                                .current_database = std::string(kEmbeddedDatabase)}));
  return UseCatalog(kEmbeddedCatalog);
}

Result<StatementResult> Session::Execute(const Statement& statement) {
  // The session's statements take effect in order: one that reads or changes tables sees what
  // the bounded jobs started before it wrote.
  if (TouchesTables(statement)) jobs_->WaitBounded();
  return std::visit(
      [&](const auto& body) -> Result<StatementResult> {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, SetOption>) {
          return ExecuteSet(*this, body);
        } else if constexpr (std::is_same_v<T, ResetOption>) {
          return ExecuteReset(*this, body);
        } else if constexpr (std::is_same_v<T, Help>) {
          return StatementResult::Message(std::string(kHelpText));
        } else if constexpr (std::is_same_v<T, Quit>) {
          StatementResult result;
          result.kind = StatementResult::Kind::kQuit;
          result.message = "[INFO] Exiting floe sql.";
          return result;
        } else {
          return sql::Execute(*this, body);
        }
      },
      statement.body);
}

Result<StatementResult> Session::ExecuteSql(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(Statement statement, ParseStatement(sql));
  return Execute(statement);
}

Status Session::AddCatalog(SessionCatalog catalog) {
  FLOE_RETURN_IF_ERROR(catalog::ValidateIdentifierPart(catalog.name, "catalog name"));
  std::string name = catalog.name;
  if (!catalogs_.emplace(name, std::move(catalog)).second) {
    return AlreadyExists("catalog '{}' already exists", name);
  }
  return {};
}

Status Session::RemoveCatalog(std::string_view name) {
  auto it = catalogs_.find(name);
  if (it == catalogs_.end()) return NotFound("catalog '{}' does not exist", name);
  if (name == kDefaultCatalog) {
    return InvalidArgument("the built-in catalog default_catalog cannot be dropped");
  }
  if (name == current_catalog_) {
    return InvalidArgument("catalog '{}' is the current catalog: USE another one first", name);
  }
  catalogs_.erase(it);
  return {};
}

Result<SessionCatalog*> Session::FindCatalog(std::string_view name) {
  auto it = catalogs_.find(name);
  if (it == catalogs_.end()) return NotFound("catalog '{}' does not exist", name);
  return &it->second;
}

std::vector<std::string> Session::CatalogNames() const {
  std::vector<std::string> names;
  for (const auto& [name, catalog] : catalogs_) names.push_back(name);
  return names;
}

Status Session::UseCatalog(std::string_view name) {
  FLOE_RETURN_IF_ERROR(FindCatalog(name));
  current_catalog_ = std::string(name);
  return {};
}

const std::string& Session::current_database() const {
  return catalogs_.find(current_catalog_)->second.current_database;
}

Status Session::UseDatabase(std::string_view catalog, std::string database) {
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * found, FindCatalog(catalog));
  found->current_database = std::move(database);
  current_catalog_ = found->name;
  return {};
}

Result<ResolvedName> Session::ResolveTable(const ObjectName& name) const {
  if (name.parts.empty() || name.parts.size() > 3) {
    return InvalidArgument("a table name has one to three parts: [catalog.][database.]table");
  }
  ResolvedName resolved;
  resolved.catalog = name.parts.size() == 3 ? name.parts[0] : current_catalog_;
  if (name.parts.size() >= 2) {
    resolved.ns.levels.push_back(name.parts[name.parts.size() - 2]);
  } else {
    auto it = catalogs_.find(resolved.catalog);
    resolved.ns.levels.push_back(it == catalogs_.end() ? "" : it->second.current_database);
  }
  std::string_view table = name.parts.back();
  if (auto dollar = table.find('$'); dollar != std::string_view::npos) {
    resolved.metadata = std::string(table.substr(dollar + 1));
    table = table.substr(0, dollar);
  }
  resolved.table = std::string(table);
  FLOE_RETURN_IF_ERROR(catalog::ValidateIdentifierPart(resolved.catalog, "catalog name"));
  FLOE_RETURN_IF_ERROR(catalog::Validate(resolved.ns));
  FLOE_RETURN_IF_ERROR(catalog::ValidateIdentifierPart(resolved.table, "table name"));
  return resolved;
}

Result<ResolvedName> Session::ResolveDatabase(const ObjectName& name) const {
  if (name.parts.empty() || name.parts.size() > 2) {
    return InvalidArgument("a database name has one or two parts: [catalog.]database");
  }
  ResolvedName resolved;
  resolved.catalog = name.parts.size() == 2 ? name.parts[0] : current_catalog_;
  resolved.ns.levels.push_back(name.parts.back());
  FLOE_RETURN_IF_ERROR(catalog::ValidateIdentifierPart(resolved.catalog, "catalog name"));
  FLOE_RETURN_IF_ERROR(catalog::Validate(resolved.ns));
  return resolved;
}

Result<std::shared_ptr<catalog::Catalog>> Session::IcebergCatalog(const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * found, FindCatalog(name.catalog));
  if (found->catalog == nullptr) {
    return InvalidArgument(
        "'{}' is in {}, which holds only connector tables (WITH ('connector' = ...)); create "
        "Iceberg tables in an Iceberg catalog",
        name.ToString(), kDefaultCatalog);
  }
  return found->catalog;
}

Result<stream::TableLoader> Session::CatalogTableLoader(const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(SessionCatalog * catalog, FindCatalog(name.catalog));
  return LoaderFor(*catalog, name);
}

Result<stream::TableLoader> Session::ConnectorTableLoader(std::string_view key,
                                                          const ConnectorTable& table) {
  return IcebergConnectorLoader(key, table);
}

}  // namespace floe::sql
