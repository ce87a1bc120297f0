#pragma once

// Test helpers for the sql catalog (header-only, so that the library never links them): the two
// backends a test runs against, a real PostgreSQL server started once per test binary with
// scripts/pg-test-server (or $FLOE_PG_URI when set), and an independent reader of the catalog
// tables through the `sqlite3` and `psql` command-line clients.

#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "floe/catalog/rest/rest_catalog.h"
#include "floe/catalog/rest/server/rest_server.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/testing/testing.h"

namespace floe::catalog::sqltest {

// kRest: the sql catalog on SQLite served by floe's REST server (catalog/rest/server/, in this
// process on a free loopback port) and used through the REST client, so that every catalog test
// also checks both ends of the REST protocol.
enum class Backend { kSqlite, kPostgres, kRest };

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  switch (info.param) {
    case Backend::kSqlite:
      return "Sqlite";
    case Backend::kPostgres:
      return "Postgres";
    case Backend::kRest:
      return "Rest";
  }
  return "";
}

using floe::testing::ShellQuote;

using floe::testing::CommandRun;
using floe::testing::RunCommand;

inline std::filesystem::path PgTestServerScript() {
  return std::filesystem::path(FLOE_SOURCE_DIR) / "scripts" / "pg-test-server";
}

struct PostgresServer {
  std::string uri;
  std::string dir;    // the cluster's folder when this process started it
  std::string error;  // why it could not be started
};

inline void StopPostgresServer();

// The server every PostgreSQL test of this process uses, started on first use and stopped when
// the process exits normally.
inline PostgresServer& TestPostgres() {
  static PostgresServer* server = [] {
    auto* s = new PostgresServer;
    if (const char* env = std::getenv("FLOE_PG_URI"); env != nullptr && *env != '\0') {
      s->uri = env;
      return s;
    }
    char folder[] = "/tmp/floe-pg.XXXXXX";
    if (::mkdtemp(folder) == nullptr) {
      s->error = "mkdtemp failed";
      return s;
    }
    std::string script = PgTestServerScript().string();
    CommandRun started = RunCommand(ShellQuote(script) + " start " + ShellQuote(folder));
    std::string out = started.out;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    if (started.exit_code != 0) {
      s->error = "scripts/pg-test-server start failed: " + out + started.err;
      std::error_code ignored;
      std::filesystem::remove_all(folder, ignored);
      return s;
    }
    s->uri = out.substr(out.rfind('\n') + 1);
    s->dir = folder;
    std::atexit(StopPostgresServer);
    return s;
  }();
  return *server;
}

inline void StopPostgresServer() {
  PostgresServer& server = TestPostgres();
  if (server.dir.empty()) return;
  std::string script = PgTestServerScript().string();
  RunCommand(ShellQuote(script) + " stop " + ShellQuote(server.dir) + " >/dev/null");
  server.dir.clear();
}

// A catalog name no other test (or earlier run against the same $FLOE_PG_URI) uses, so that
// tests sharing one PostgreSQL database never see each other's rows.
inline std::string UniqueCatalogName() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return name + "." + std::to_string(::getpid()) + "." +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

// Runs a query through the database's own command-line client, one line per row, columns
// separated by '|'. target is the SQLite file or the PostgreSQL URI.
inline CommandRun QueryWithClient(Backend backend, const std::string& target,
                                  const std::string& sql) {
  std::string command =
      backend != Backend::kPostgres
          ? "sqlite3 -batch -noheader -separator '|' " + ShellQuote(target) + " " + ShellQuote(sql)
          : "psql -X -q -At -F '|' -v ON_ERROR_STOP=1 " + ShellQuote(target) + " -c " +
                ShellQuote(sql);
  return RunCommand(command);
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

// A catalog test run against each backend: SQLite in a temp folder, or the shared PostgreSQL
// server under a catalog name of its own.
class SqlCatalogTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    warehouse_ = (dir_.path() / "warehouse").string();
    if (GetParam() == Backend::kPostgres) {
      PostgresServer& server = TestPostgres();
      ASSERT_TRUE(server.error.empty()) << server.error;
      target_ = server.uri;
      uri_ = server.uri;
    } else {  // SQLite, also behind the REST server
      target_ = (dir_.path() / "catalog.db").string();
      uri_ = "jdbc:sqlite:" + target_;
    }
    name_ = UniqueCatalogName();
  }

  StringMap Properties() const { return {{"uri", uri_}, {"warehouse", warehouse_}}; }

  // With kRest, the REST client of a server over the sql catalog: one server shared by every
  // Open() without fileio (forked writers reach it too), a server of its own for a given fileio.
  Result<std::shared_ptr<Catalog>> Open(std::shared_ptr<io::FileIO> fileio = nullptr) const {
    if (GetParam() != Backend::kRest) {
      return CreateSqlCatalog(name_, Properties(), std::move(fileio));
    }
    rest::RestServer* server = shared_server_.get();
    if (!server || fileio) {
      FLOE_ASSIGN_OR_RETURN(auto served, CreateSqlCatalog(name_, Properties(), fileio));
      auto service = std::make_shared<const rest::RestService>(served, warehouse_, StringMap{});
      FLOE_ASSIGN_OR_RETURN(auto started,
                            rest::RestServer::Start(service, {.port = 0, .threads = 32}));
      server = started.get();
      (fileio ? own_servers_.emplace_back() : shared_server_) = std::move(started);
    }
    return CreateRestCatalog("client", {{"uri", server->uri()}});
  }

  // Rows of a query run by the database's own client (independent of floe's SQL code).
  std::vector<std::string> Query(const std::string& sql) const {
    CommandRun out = QueryWithClient(GetParam(), target_, sql);
    EXPECT_EQ(out.exit_code, 0) << sql << ": " << out.err;
    return Lines(out.out);
  }

  // The catalog's name as a SQL literal (it holds only letters, digits, '.' and '_').
  std::string NameLiteral() const { return "'" + name_ + "'"; }

  floe::testing::TempDir dir_;
  std::string warehouse_;
  std::string target_;
  std::string uri_;
  std::string name_;
  mutable std::unique_ptr<rest::RestServer> shared_server_;
  mutable std::vector<std::unique_ptr<rest::RestServer>> own_servers_;
};

}  // namespace floe::catalog::sqltest
