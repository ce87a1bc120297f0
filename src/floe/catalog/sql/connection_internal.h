#pragma once

// A small SQL connection interface with two backends (SQLite and PostgreSQL), just wide enough for
// the SQL catalog: run one statement with bound parameters, get back text rows and the number of
// rows changed, and group statements in a transaction. Values only ever travel as bound
// parameters, never spliced into SQL text.
//
// Statements are written with `?` placeholders (no `?` may appear elsewhere in the text); each
// backend rewrites them to its own syntax. A connection is used by one thread at a time.
//
// Errors: kAlreadyExists for a unique or primary-key violation, kIO (retryable) when the
// database was busy or a transaction could not be serialized (the statement did not happen), kIO
// for every other failure, with the server's message. After an error, broken() tells whether the
// connection was lost (or the database failed to persist), in which case a write that was
// already sent may or may not have happened.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "floe/util/error.h"

namespace floe::catalog {

// A bound parameter: text, a 64-bit integer, or NULL.
using SqlParam = std::variant<std::string, int64_t, std::nullptr_t>;

// One result row: each column as text, or nullopt for NULL.
using SqlRow = std::vector<std::optional<std::string>>;

struct SqlResult {
  std::vector<SqlRow> rows;
  int64_t rows_changed = 0;  // for INSERT, UPDATE and DELETE
};

enum class SqlDialect : unsigned char { kSqlite, kPostgres };

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  virtual SqlDialect dialect() const = 0;

  virtual Result<SqlResult> Execute(std::string_view sql, std::span<const SqlParam> params) = 0;
  Result<SqlResult> Execute(std::string_view sql, std::initializer_list<SqlParam> params = {}) {
    return Execute(sql, std::span<const SqlParam>(params.begin(), params.size()));
  }

  // Starts a transaction that takes the write lock at once where the backend has one (SQLite's
  // BEGIN IMMEDIATE), so that a read-then-write inside it never fails half-way for a lock.
  virtual Status Begin() = 0;
  virtual Status Commit() = 0;
  // Never fails: a rollback that cannot be sent leaves the connection broken.
  virtual void Rollback() = 0;

  // Whether the connection was lost (see the header comment).
  virtual bool broken() const = 0;
};

// Whether a table of that name exists in the connection's database (the default schema).
Result<bool> TableExists(SqlConnection& conn, std::string_view table);
// Whether table has a column of that name.
Result<bool> ColumnExists(SqlConnection& conn, std::string_view table, std::string_view column);

}  // namespace floe::catalog
