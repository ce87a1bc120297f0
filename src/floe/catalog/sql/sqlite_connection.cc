#include <sqlite3.h>

#include "floe/catalog/sql/sqlite_connection_internal.h"

namespace floe::catalog {
namespace {

// Result codes after which the database may not hold what it acknowledged or was sent.
bool IsPersistenceFailure(int rc) {
  int primary = rc & 0xff;
  return primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CORRUPT ||
         primary == SQLITE_NOTADB || primary == SQLITE_CANTOPEN || primary == SQLITE_PROTOCOL;
}

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  using SqlConnection::Execute;
  SqlDialect dialect() const override { return SqlDialect::kSqlite; }
  bool broken() const override { return broken_; }

  Result<SqlResult> Execute(std::string_view sql, std::span<const SqlParam> params) override {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) return Fail(rc);
    std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, sqlite3_finalize);
    if (sqlite3_bind_parameter_count(stmt) != static_cast<int>(params.size())) {
      return InternalError("SQLite statement takes {} parameters, {} given",
                           sqlite3_bind_parameter_count(stmt), params.size());
    }
    for (size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i) + 1;
      if (const auto* text = std::get_if<std::string>(&params[i])) {
        rc = sqlite3_bind_text64(stmt, index, text->data(), text->size(), SQLITE_TRANSIENT,
                                 SQLITE_UTF8);
      } else if (const auto* number = std::get_if<int64_t>(&params[i])) {
        rc = sqlite3_bind_int64(stmt, index, *number);
      } else {
        rc = sqlite3_bind_null(stmt, index);
      }
      if (rc != SQLITE_OK) return Fail(rc);
    }
    SqlResult result;
    int columns = sqlite3_column_count(stmt);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      SqlRow& row = result.rows.emplace_back();
      row.reserve(columns);
      for (int c = 0; c < columns; ++c) {
        if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
          row.emplace_back(std::nullopt);
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          row.emplace_back(std::string(text, sqlite3_column_bytes(stmt, c)));
        }
      }
    }
    if (rc != SQLITE_DONE) return Fail(rc);
    if (!sqlite3_stmt_readonly(stmt)) result.rows_changed = sqlite3_changes64(db_);
    return result;
  }

  Status Begin() override { return Simple("BEGIN IMMEDIATE"); }
  Status Commit() override { return Simple("COMMIT"); }
  void Rollback() override {
    if (sqlite3_get_autocommit(db_)) return;
    if (sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr) != SQLITE_OK) broken_ = true;
  }

 private:
  Status Simple(const char* sql) {
    int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return std::unexpected(Fail(rc).error());
    return {};
  }

  std::unexpected<Error> Fail(int rc) {
    int extended = sqlite3_extended_errcode(db_);
    std::string message = fmt::format("SQLite {}: {}", path_, sqlite3_errmsg(db_));
    if (extended == SQLITE_CONSTRAINT_PRIMARYKEY || extended == SQLITE_CONSTRAINT_UNIQUE) {
      return std::unexpected(Error(ErrorKind::kAlreadyExists, std::move(message)));
    }
    int primary = rc & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
      return std::unexpected(Error(ErrorKind::kIO, std::move(message), /*retryable=*/true));
    }
    if (IsPersistenceFailure(rc)) broken_ = true;
    return std::unexpected(Error(ErrorKind::kIO, std::move(message)));
  }

  sqlite3* db_;
  std::string path_;
  bool broken_ = false;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenSqliteConnection(const std::string& path,
                                                            int busy_timeout_ms) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return IOError("cannot open SQLite database {}: {}", path, message);
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  auto conn = std::make_unique<SqliteConnection>(db, path);
  // WAL lets readers run beside the one writer. synchronous stays FULL: a commit the catalog
  // acknowledged must survive a power loss.
  FLOE_ASSIGN_OR_RETURN(SqlResult mode, conn->Execute("PRAGMA journal_mode=WAL"));
  if (mode.rows.empty() || !mode.rows[0][0] || *mode.rows[0][0] != "wal") {
    return IOError("SQLite {}: cannot switch to WAL mode", path);
  }
  return std::unique_ptr<SqlConnection>(std::move(conn));
}

}  // namespace floe::catalog
