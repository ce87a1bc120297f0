#include <libpq-fe.h>

#include <charconv>

#include "floe/catalog/sql/postgres_connection_internal.h"

namespace floe::catalog {
namespace {

// SQLSTATEs after which the statement did not happen and may simply be tried again.
bool IsTransient(std::string_view sqlstate) {
  return sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03";
}

std::string Trimmed(const char* message) {
  std::string text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// `?` placeholders to PostgreSQL's `$1`, `$2`...
std::string NumberPlaceholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  for (char c : sql) {
    if (c == '?') {
      out += '$';
      out += std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

class PostgresConnection final : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  using SqlConnection::Execute;
  SqlDialect dialect() const override { return SqlDialect::kPostgres; }
  bool broken() const override { return broken_; }

  Result<SqlResult> Execute(std::string_view sql, std::span<const SqlParam> params) override {
    if (broken_) return IOError("PostgreSQL: the connection was lost earlier");
    // Text values with embedded NUL cannot be sent in text format; the catalog never binds them
    // (identifiers reject control characters), but say so rather than truncate.
    for (const SqlParam& p : params) {
      if (const auto* s = std::get_if<std::string>(&p); s && s->find('\0') != std::string::npos) {
        return InvalidArgument("PostgreSQL text parameters cannot contain NUL");
      }
    }
    std::string text = NumberPlaceholders(sql);
    std::vector<std::string> numbers(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    for (size_t i = 0; i < params.size(); ++i) {
      if (const auto* s = std::get_if<std::string>(&params[i])) {
        values[i] = s->c_str();
      } else if (const auto* number = std::get_if<int64_t>(&params[i])) {
        numbers[i] = std::to_string(*number);
        values[i] = numbers[i].c_str();
      }
    }
    PGresult* res = PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), nullptr,
                                 values.data(), nullptr, nullptr, /*resultFormat=*/0);
    std::unique_ptr<PGresult, decltype(&PQclear)> guard(res, PQclear);
    ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
      SqlResult result;
      int rows = PQntuples(res);
      int columns = PQnfields(res);
      result.rows.reserve(rows);
      for (int r = 0; r < rows; ++r) {
        SqlRow& row = result.rows.emplace_back();
        row.reserve(columns);
        for (int c = 0; c < columns; ++c) {
          if (PQgetisnull(res, r, c)) {
            row.emplace_back(std::nullopt);
          } else {
            row.emplace_back(std::string(PQgetvalue(res, r, c), PQgetlength(res, r, c)));
          }
        }
      }
      std::string_view changed = PQcmdTuples(res);
      std::from_chars(changed.data(), changed.data() + changed.size(), result.rows_changed);
      return result;
    }
    return Fail(res);
  }

  Status Begin() override { return Simple("BEGIN"); }
  Status Commit() override { return Simple("COMMIT"); }
  void Rollback() override {
    if (broken_ || PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
    PGresult* res = PQexec(conn_, "ROLLBACK");
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) broken_ = PQstatus(conn_) != CONNECTION_OK;
    PQclear(res);
  }

 private:
  Status Simple(const char* sql) {
    FLOE_RETURN_IF_ERROR(Execute(sql, {}));
    return {};
  }

  std::unexpected<Error> Fail(PGresult* res) {
    std::string message = res ? Trimmed(PQresultErrorMessage(res)) : "";
    if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
    message = "PostgreSQL: " + message;
    if (PQstatus(conn_) != CONNECTION_OK) {
      broken_ = true;
      return std::unexpected(Error(ErrorKind::kIO, std::move(message)));
    }
    std::string_view sqlstate;
    if (res) {
      const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
      if (state) sqlstate = state;
    }
    if (sqlstate == "23505") {
      return std::unexpected(Error(ErrorKind::kAlreadyExists, std::move(message)));
    }
    return std::unexpected(Error(ErrorKind::kIO, std::move(message), IsTransient(sqlstate)));
  }

  PGconn* conn_;
  bool broken_ = false;
};

}  // namespace

Result<std::unique_ptr<SqlConnection>> OpenPostgresConnection(
    const std::string& conninfo, const std::optional<std::string>& user,
    const std::optional<std::string>& password) {
  std::vector<const char*> keys = {"dbname"};
  std::vector<const char*> values = {conninfo.c_str()};
  if (user) {
    keys.push_back("user");
    values.push_back(user->c_str());
  }
  if (password) {
    keys.push_back("password");
    values.push_back(password->c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  PGconn* conn = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/1);
  if (!conn) return IOError("PostgreSQL: out of memory while connecting");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return IOError("cannot connect to PostgreSQL: {}", message);
  }
  // Notices ("relation already exists, skipping") are not errors; libpq would print them.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(conn));
}

}  // namespace floe::catalog
