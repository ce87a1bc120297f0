#include <gtest/gtest.h>

#include "floe/catalog/sql/sql_database_internal.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

TEST(SqlDatabaseTest, AcceptsJdbcAndNativeUris) {
  struct Case {
    std::string uri;
    SqlDialect dialect;
    std::string target;
  };
  const std::vector<Case> cases = {
      {"jdbc:sqlite:/data/cat.db", SqlDialect::kSqlite, "/data/cat.db"},
      {"sqlite:/data/cat.db", SqlDialect::kSqlite, "/data/cat.db"},
      {"sqlite:///data/cat.db", SqlDialect::kSqlite, "/data/cat.db"},
      {"jdbc:postgresql://db.example:5433/iceberg", SqlDialect::kPostgres,
       "postgresql://db.example:5433/iceberg"},
      {"postgresql:///postgres?host=/tmp/x", SqlDialect::kPostgres,
       "postgresql:///postgres?host=/tmp/x"},
      {"postgres://u@h/db", SqlDialect::kPostgres, "postgres://u@h/db"},
      {"host=/tmp/x dbname=postgres", SqlDialect::kPostgres, "host=/tmp/x dbname=postgres"},
  };
  for (const Case& c : cases) {
    FLOE_ASSERT_OK_AND_ASSIGN(SqlDatabase db, SqlDatabaseFromProperties({{"uri", c.uri}}));
    EXPECT_EQ(db.dialect, c.dialect) << c.uri;
    EXPECT_EQ(db.target, c.target) << c.uri;
  }
}

TEST(SqlDatabaseTest, UserAndPasswordComeFromJdbcProperties) {
  FLOE_ASSERT_OK_AND_ASSIGN(SqlDatabase db,
                            SqlDatabaseFromProperties({{"uri", "jdbc:postgresql://h/db"},
                                                       {"jdbc.user", "alice"},
                                                       {"jdbc.password", "s3cr3t"}}));
  EXPECT_EQ(db.user, "alice");
  EXPECT_EQ(db.password, "s3cr3t");
}

TEST(SqlDatabaseTest, EmbeddedDefaultIsAFileBesideTheWarehouse) {
  FLOE_ASSERT_OK_AND_ASSIGN(SqlDatabase db,
                            SqlDatabaseFromProperties({{"warehouse", "/data/wh/"}}));
  EXPECT_EQ(db.dialect, SqlDialect::kSqlite);
  EXPECT_EQ(db.target, "/data/wh.catalog.db");
  FLOE_ASSERT_OK_AND_ASSIGN(SqlDatabase uri_db,
                            SqlDatabaseFromProperties({{"warehouse", "file:///data/wh"}}));
  EXPECT_EQ(uri_db.target, "/data/wh.catalog.db");
}

TEST(SqlDatabaseTest, RejectsWhatItCannotServe) {
  for (const StringMap& properties : std::vector<StringMap>{
           {},
           {{"uri", "jdbc:mysql://h/db"}},
           {{"uri", "jdbc:sqlite::memory:"}},
           {{"uri", "jdbc:sqlite:file:/x.db?mode=memory"}},
           {{"uri", "sqlite:"}},
           {{"warehouse", "s3://bucket/wh"}},
           {{"warehouse", "/"}},
       }) {
    auto db = SqlDatabaseFromProperties(properties);
    ASSERT_FALSE(db);
    EXPECT_EQ(db.error().kind(), ErrorKind::kInvalidArgument);
  }
}

}  // namespace
}  // namespace floe::catalog
