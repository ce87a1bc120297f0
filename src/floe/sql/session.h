#pragma once

// One SQL session, what `floe sql` holds from start to QUIT: the catalogs and which one is in use,
// the current database, the options SET changed, the source tables defined in default_catalog,
// and the jobs it started. Execute runs one parsed statement; each statement kind is carried out
// by its own part (catalog_statements, table_statements, query_statements, write_statements,
// call_statements), which this class only dispatches to.
//
// Names resolve as Flink resolves them: `t` in the current catalog and database, `db.t` in the
// current catalog, `cat.db.t` fully qualified; a `$snapshots`-style suffix names a metadata table.
// Errors are values and name the object; a failed statement leaves the session as it was.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/sql/plan/planner_session.h"
#include "floe/sql/session_config.h"
#include "floe/sql/statement_result.h"
#include "floe/sql/syntax/ast.h"

namespace floe::sql {

class JobManager;

inline constexpr std::string_view kDefaultDatabase = "default_database";
// The catalog a session opens when it is given no configuration: SQLite in ./warehouse, its file
// inside that folder.
inline constexpr std::string_view kEmbeddedCatalog = "floe";
inline constexpr std::string_view kEmbeddedDatabase = "default";

struct SessionOptions {
  // Where the embedded catalog keeps its tables (and its SQLite file); empty: no embedded
  // catalog, the session starts in default_catalog.
  std::string embedded_warehouse = "warehouse";
  // Folder for the checkpoints of jobs the session starts, unless `state.checkpoints.dir` is set.
  std::string checkpoint_root;
};

// A catalog known to the session, with the properties it was created from (which job tasks use
// to open their own instance, see stream::TableLoader).
struct SessionCatalog {
  std::string name;
  std::shared_ptr<catalog::Catalog> catalog;  // null for default_catalog
  StringMap properties;
  std::string current_database;  // the database USE picked while this catalog was current
  // default_catalog only: the databases CREATE DATABASE made there (default_database is always
  // there), with their properties.
  std::map<std::string, StringMap, std::less<>> databases;
};

class Session final : public plan::PlannerSession {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens the embedded catalog when the options ask for one (sql/embedded_catalog.h), and
  // makes it current.
  Status Open();
  // What Open did that the user should hear of (an older catalog file moved), one line each.
  const std::vector<std::string>& notes() const { return notes_; }

  // Runs one statement. Errors say what failed; the caller adds the statement's position.
  Result<StatementResult> Execute(const Statement& statement);
  // Parses and runs one statement (tests, `-e` with one statement).
  Result<StatementResult> ExecuteSql(std::string_view sql);

  const SessionOptions& options() const { return options_; }
  SessionConfig& config() { return config_; }
  const SessionConfig& config() const override { return config_; }
  JobManager& jobs() { return *jobs_; }

  // ---- catalogs ----
  Status AddCatalog(SessionCatalog catalog);
  Status RemoveCatalog(std::string_view name);
  // kNotFound naming the catalog.
  Result<SessionCatalog*> FindCatalog(std::string_view name);
  std::vector<std::string> CatalogNames() const;  // sorted
  const std::string& current_catalog() const { return current_catalog_; }
  Status UseCatalog(std::string_view name);
  const std::string& current_database() const;
  Status UseDatabase(std::string_view catalog, std::string database);

  // ---- names ----
  // A table name (1 to 3 parts, the last one may carry `$suffix`) against the current catalog
  // and database. Checks the parts (catalog::ValidateIdentifierPart), not that the table exists.
  Result<ResolvedName> ResolveTable(const ObjectName& name) const override;
  // A database name (1 or 2 parts).
  Result<ResolvedName> ResolveDatabase(const ObjectName& name) const;
  // The catalog a resolved name lives in; kInvalidArgument for default_catalog, which holds only
  // connector tables.
  Result<std::shared_ptr<catalog::Catalog>> IcebergCatalog(const ResolvedName& name) override;
  Result<stream::TableLoader> CatalogTableLoader(const ResolvedName& name) override;

  // ---- views, by their resolved name ("cat.db.v") ----
  std::map<std::string, SessionView, std::less<>>& views(bool temporary) {
    return temporary ? temporary_views_ : views_;
  }
  const SessionView* FindView(const ResolvedName& name) const override;

  // ---- default_catalog's connector tables ----
  std::map<std::string, ConnectorTable, std::less<>>& connector_tables() override {
    return connector_tables_;
  }
  // table_statements.h's IcebergConnectorLoader.
  Result<stream::TableLoader> ConnectorTableLoader(std::string_view key,
                                                   const ConnectorTable& table) override;

 private:
  SessionOptions options_;
  SessionConfig config_;
  std::map<std::string, SessionCatalog, std::less<>> catalogs_;
  std::string current_catalog_;
  std::map<std::string, ConnectorTable, std::less<>> connector_tables_;
  std::map<std::string, SessionView, std::less<>> temporary_views_;
  std::map<std::string, SessionView, std::less<>> views_;
  std::unique_ptr<JobManager> jobs_;
  std::vector<std::string> notes_;
};

}  // namespace floe::sql
