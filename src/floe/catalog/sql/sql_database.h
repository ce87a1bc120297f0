#pragma once

// Where a SQL catalog keeps its two tables, from the catalog properties:
//
//   uri = jdbc:sqlite:/path/catalog.db | sqlite:/path/catalog.db | sqlite:///path/catalog.db
//         jdbc:postgresql://host:port/db | postgresql://... | postgres://... (libpq URIs, whose
//         query parameters must be libpq's) | a libpq `key=value` conninfo ("host=... dbname=...")
//   jdbc.user, jdbc.password  override the user and password of a PostgreSQL uri
//   warehouse                 without uri: the embedded default, a SQLite file beside the
//                             warehouse folder: /data/wh -> /data/wh.catalog.db (several catalogs
//                             may share it; rows carry the catalog name)
//
// Errors: kInvalidArgument naming the property for a uri of another database, an in-memory
// SQLite database (every pooled connection would see a different one), or neither uri nor a local
// warehouse.

#include <optional>
#include <string>

#include "floe/catalog/sql/connection.h"
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
