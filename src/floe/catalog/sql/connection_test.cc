#include <gtest/gtest.h>

#include "floe/catalog/sql/connection_internal.h"
#include "floe/catalog/sql/connection_pool_internal.h"
#include "floe/catalog/sql/postgres_connection_internal.h"
#include "floe/catalog/sql/sql_test_util.h"
#include "floe/catalog/sql/sqlite_connection_internal.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

using sqltest::Backend;

class SqlConnectionTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kPostgres) {
      sqltest::PostgresServer& server = sqltest::TestPostgres();
      ASSERT_TRUE(server.error.empty()) << server.error;
      target_ = server.uri;
      // Tests share the server: each works in its own table.
      table_ = "t_" + std::to_string(::getpid()) + "_" +
               std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    } else {
      target_ = (dir_.path() / "test.db").string();
      table_ = "t";
    }
  }

  Result<std::unique_ptr<SqlConnection>> Connect() {
    if (GetParam() == Backend::kSqlite) return OpenSqliteConnection(target_, 10'000);
    return OpenPostgresConnection(target_, std::nullopt, std::nullopt);
  }

  floe::testing::TempDir dir_;
  std::string target_;
  std::string table_;
};

TEST_P(SqlConnectionTest, BindsParametersAndReadsRowsBack) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto conn, Connect());
  FLOE_ASSERT_OK(conn->Execute("CREATE TABLE " + table_ +
                               " (k VARCHAR(255) PRIMARY KEY, v VARCHAR(1000), n BIGINT)"));
  const std::string tricky = "it's \"quoted\"; DROP TABLE x; -- ünïcødé 🧊 ?";
  FLOE_ASSERT_OK_AND_ASSIGN(SqlResult inserted,
                            conn->Execute("INSERT INTO " + table_ + " (k, v, n) VALUES (?, ?, ?)",
                                          {tricky, nullptr, int64_t{-9'000'000'000'000}}));
  EXPECT_EQ(inserted.rows_changed, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(
      SqlResult rows, conn->Execute("SELECT k, v, n FROM " + table_ + " WHERE k = ?", {tricky}));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], tricky);
  EXPECT_EQ(rows.rows[0][1], std::nullopt);
  EXPECT_EQ(rows.rows[0][2], "-9000000000000");

  // The value went in as a value: the same text read back by the database's own client.
  sqltest::CommandRun client =
      sqltest::QueryWithClient(GetParam(), target_, "SELECT k FROM " + table_);
  ASSERT_EQ(client.exit_code, 0) << client.err;
  EXPECT_EQ(client.out, tricky + "\n");
}

TEST_P(SqlConnectionTest, MapsUniqueViolationsToAlreadyExists) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto conn, Connect());
  FLOE_ASSERT_OK(conn->Execute("CREATE TABLE " + table_ + " (k VARCHAR(10) PRIMARY KEY)"));
  FLOE_ASSERT_OK(conn->Execute("INSERT INTO " + table_ + " (k) VALUES (?)", {std::string("a")}));
  auto again = conn->Execute("INSERT INTO " + table_ + " (k) VALUES (?)", {std::string("a")});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists) << again.error().ToString();
  EXPECT_FALSE(conn->broken());

  auto bad = conn->Execute("SELECT no_such_column FROM " + table_);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind(), ErrorKind::kIO);
  EXPECT_NE(bad.error().message().find("no_such_column"), std::string::npos)
      << bad.error().message();
  EXPECT_FALSE(conn->broken());
}

TEST_P(SqlConnectionTest, RollbackUndoesAndUpdateCountsRows) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto conn, Connect());
  FLOE_ASSERT_OK(conn->Execute("CREATE TABLE " + table_ + " (k VARCHAR(10), n BIGINT)"));
  FLOE_ASSERT_OK(conn->Begin());
  FLOE_ASSERT_OK(
      conn->Execute("INSERT INTO " + table_ + " VALUES (?, ?)", {std::string("a"), int64_t{1}}));
  conn->Rollback();
  FLOE_ASSERT_OK(conn->Begin());
  FLOE_ASSERT_OK(conn->Execute("INSERT INTO " + table_ + " VALUES (?, ?), (?, ?)",
                               {std::string("b"), int64_t{2}, std::string("c"), int64_t{2}}));
  FLOE_ASSERT_OK(conn->Commit());
  FLOE_ASSERT_OK_AND_ASSIGN(
      SqlResult updated,
      conn->Execute("UPDATE " + table_ + " SET n = ? WHERE n = ?", {int64_t{3}, int64_t{2}}));
  EXPECT_EQ(updated.rows_changed, 2);
  FLOE_ASSERT_OK_AND_ASSIGN(
      SqlResult none,
      conn->Execute("UPDATE " + table_ + " SET n = ? WHERE k = ?", {int64_t{4}, std::string("a")}));
  EXPECT_EQ(none.rows_changed, 0);
  FLOE_ASSERT_OK_AND_ASSIGN(bool exists, TableExists(*conn, table_));
  EXPECT_TRUE(exists);
  FLOE_ASSERT_OK_AND_ASSIGN(bool column, ColumnExists(*conn, table_, "n"));
  EXPECT_TRUE(column);
  FLOE_ASSERT_OK_AND_ASSIGN(bool no_column, ColumnExists(*conn, table_, "m"));
  EXPECT_FALSE(no_column);
}

TEST_P(SqlConnectionTest, PoolReusesConnectionsAndDropsAbandonedTransactions) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto setup, Connect());
  FLOE_ASSERT_OK(setup->Execute("CREATE TABLE " + table_ + " (k VARCHAR(10))"));
  int opened = 0;
  SqlConnectionPool pool([&]() {
    ++opened;
    return Connect();
  });
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto lease, pool.Acquire());
    FLOE_ASSERT_OK(lease->Begin());
    FLOE_ASSERT_OK(lease->Execute("INSERT INTO " + table_ + " VALUES (?)", {std::string("x")}));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto lease, pool.Acquire());
  EXPECT_EQ(opened, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(SqlResult rows, lease->Execute("SELECT k FROM " + table_));
  EXPECT_TRUE(rows.rows.empty());
}

TEST(PostgresConnectionTest, LostConnectionIsBroken) {
  sqltest::PostgresServer& server = sqltest::TestPostgres();
  ASSERT_TRUE(server.error.empty()) << server.error;
  FLOE_ASSERT_OK_AND_ASSIGN(auto victim,
                            OpenPostgresConnection(server.uri, std::nullopt, std::nullopt));
  FLOE_ASSERT_OK_AND_ASSIGN(SqlResult pid, victim->Execute("SELECT pg_backend_pid()"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto killer,
                            OpenPostgresConnection(server.uri, std::nullopt, std::nullopt));
  FLOE_ASSERT_OK(
      killer->Execute("SELECT pg_terminate_backend(CAST(? AS INTEGER))", {*pid.rows[0][0]}));
  auto after = victim->Execute("SELECT 1");
  ASSERT_FALSE(after);
  EXPECT_TRUE(victim->broken());
  EXPECT_FALSE(victim->Execute("SELECT 1"));
}

TEST(PostgresConnectionTest, UnreachableServerIsAnIOError) {
  auto conn = OpenPostgresConnection("host=/nonexistent-floe-socket-dir dbname=x", std::nullopt,
                                     std::nullopt);
  ASSERT_FALSE(conn);
  EXPECT_EQ(conn.error().kind(), ErrorKind::kIO);
}

TEST(SqliteConnectionTest, NotADatabaseIsAnIOError) {
  floe::testing::TempDir dir;
  std::string path = (dir.path() / "junk.db").string();
  FILE* f = fopen(path.c_str(), "w");
  fputs("this is not a SQLite database, just some text long enough to have a header......", f);
  fclose(f);
  auto conn = OpenSqliteConnection(path, 1000);
  ASSERT_FALSE(conn);
  EXPECT_EQ(conn.error().kind(), ErrorKind::kIO);
  EXPECT_NE(conn.error().message().find("junk.db"), std::string::npos) << conn.error().message();
}

INSTANTIATE_TEST_SUITE_P(Backends, SqlConnectionTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         sqltest::BackendName);

}  // namespace
}  // namespace floe::catalog
