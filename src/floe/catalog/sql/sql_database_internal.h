#pragma once

// Where a SQL catalog keeps its two tables, from the catalog properties `uri`, `jdbc.user`,
// `jdbc.password` and `warehouse` (their forms and errors: sql_catalog.h).

#include <optional>
#include <string>

#include "floe/catalog/sql/connection_internal.h"
#include "floe/spec/snapshot.h"

namespace floe::catalog {

struct SqlDatabase {
  SqlDialect dialect = SqlDialect::kSqlite;
  std::string target;  // the SQLite file path, or the libpq conninfo
  std::optional<std::string> user;
  std::optional<std::string> password;

  // Opens one connection to the database.
  Result<std::unique_ptr<SqlConnection>> Connect() const;
};

Result<SqlDatabase> SqlDatabaseFromProperties(const StringMap& properties);

}  // namespace floe::catalog
