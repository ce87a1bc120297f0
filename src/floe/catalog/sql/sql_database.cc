#include "floe/catalog/sql/postgres_connection_internal.h"
#include "floe/catalog/sql/sql_database_internal.h"
#include "floe/catalog/sql/sqlite_connection_internal.h"
#include "floe/io/location.h"

namespace floe::catalog {
namespace {

// Long enough to outwait every other writer of a busy catalog: a waiting commit is not an error.
constexpr int kSqliteBusyTimeoutMs = 60'000;

std::optional<std::string> Property(const StringMap& properties, std::string_view key) {
  auto it = properties.find(key);
  if (it == properties.end()) return std::nullopt;
  return it->second;
}

Result<SqlDatabase> FromUri(std::string_view uri) {
  SqlDatabase db;
  std::string_view rest = uri;
  if (rest.starts_with("jdbc:")) rest.remove_prefix(5);
  if (rest.starts_with("sqlite:")) {
    rest.remove_prefix(7);
    if (rest.starts_with("//")) rest.remove_prefix(2);
    if (rest.empty() || rest.find(":memory:") != std::string_view::npos ||
        rest.find("mode=memory") != std::string_view::npos) {
      return InvalidArgument(
          "uri '{}': the SQL catalog needs a SQLite database file, not an in-memory database", uri);
    }
    if (rest.starts_with("file:")) {
      return InvalidArgument("uri '{}': give the SQLite file as a path (sqlite:/path/file.db)",
                             uri);
    }
    db.dialect = SqlDialect::kSqlite;
    db.target = std::string(rest);
    return db;
  }
  if (rest.starts_with("postgresql://") || rest.starts_with("postgres://")) {
    db.dialect = SqlDialect::kPostgres;
    db.target = std::string(rest);
    return db;
  }
  if (!uri.starts_with("jdbc:") && uri.find('=') != std::string_view::npos &&
      uri.find("://") == std::string_view::npos) {
    db.dialect = SqlDialect::kPostgres;
    db.target = std::string(uri);
    return db;
  }
  return InvalidArgument(
      "uri '{}' is not a SQLite or PostgreSQL database: use jdbc:sqlite:/path/file.db, "
      "jdbc:postgresql://host:port/db, postgresql://... or a libpq conninfo",
      uri);
}

}  // namespace

Result<SqlDatabase> SqlDatabaseFromProperties(const StringMap& properties) {
  std::optional<std::string> uri = Property(properties, "uri");
  SqlDatabase db;
  if (uri && !uri->empty()) {
    FLOE_ASSIGN_OR_RETURN(db, FromUri(*uri));
  } else {
    std::optional<std::string> warehouse = Property(properties, "warehouse");
    if (!warehouse || warehouse->empty()) {
      return InvalidArgument("a sql catalog needs `uri` (its database) or `warehouse`");
    }
    auto path = io::ToLocalPath(*warehouse);
    if (!path) {
      return InvalidArgument(
          "warehouse '{}' is not local, so the catalog database cannot live "
          "beside it: set `uri`",
          *warehouse);
    }
    std::string folder = io::NormalizeLocation(*path);
    if (io::FileName(folder).empty()) {
      return InvalidArgument("warehouse '{}' is a root folder: set `uri`", *warehouse);
    }
    db.dialect = SqlDialect::kSqlite;
    db.target = folder + ".catalog.db";
  }
  db.user = Property(properties, "jdbc.user");
  db.password = Property(properties, "jdbc.password");
  return db;
}

Result<std::unique_ptr<SqlConnection>> SqlDatabase::Connect() const {
  if (dialect == SqlDialect::kSqlite) return OpenSqliteConnection(target, kSqliteBusyTimeoutMs);
  return OpenPostgresConnection(target, user, password);
}

}  // namespace floe::catalog
