#include <gtest/gtest.h>

#include <string>

#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"

namespace floe::sql {
namespace {

// The one cell of a one-row, one-column result (SHOW CREATE VIEW).
std::string OnlyCell(Session& session, const std::string& sql) {
  auto result = session.ExecuteSql(sql);
  EXPECT_TRUE(result.has_value()) << sql << ": " << result.error().message();
  if (!result.has_value()) return "";
  auto batch = result->rows->Next();
  EXPECT_TRUE(batch.has_value() && batch->has_value());
  if (!batch.has_value() || !batch->has_value()) return "";
  EXPECT_EQ((*batch)->num_rows(), 1);
  return FormatCell((*batch)->column(0), 0, *(*batch)->schema()->field(0).type);
}

// Flink's SQL client layout (its view.q test): the columns one a line, then AS and the query.
TEST(ViewTest, ShowCreateViewListsTheColumnsAndTheQueryAsWritten) {
  Session session({.embedded_warehouse = ""});
  ASSERT_TRUE(session.ExecuteSql("SET 'execution.runtime-mode' = 'batch'").has_value());
  ASSERT_TRUE(session
                  .ExecuteSql("CREATE TEMPORARY VIEW v1 AS SELECT EXPR$0 AS id, EXPR$1 AS name "
                              "FROM (VALUES (1, 'a'))")
                  .has_value());
  EXPECT_EQ(OnlyCell(session, "SHOW CREATE VIEW v1"),
            "CREATE TEMPORARY VIEW `default_catalog`.`default_database`.`v1` (\n"
            "  `id`,\n"
            "  `name`\n"
            ")\n"
            "AS SELECT EXPR$0 AS id, EXPR$1 AS name FROM (VALUES (1, 'a'))\n");
  ASSERT_TRUE(
      session.ExecuteSql("CREATE VIEW v2 (n) COMMENT 'names' AS SELECT name FROM v1").has_value());
  EXPECT_EQ(OnlyCell(session, "SHOW CREATE VIEW v2"),
            "CREATE VIEW `default_catalog`.`default_database`.`v2` (\n"
            "  `n`\n"
            ")\n"
            "COMMENT 'names'\n"
            "AS SELECT name FROM v1\n");
  auto missing = session.ExecuteSql("SHOW CREATE VIEW nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("does not exist"), std::string::npos);
}

// A view whose query reaches itself is refused by planning instead of recursing.
TEST(ViewTest, AViewThatReachesItselfIsAnError) {
  Session session({.embedded_warehouse = ""});
  ASSERT_TRUE(session.ExecuteSql("SET 'execution.runtime-mode' = 'batch'").has_value());
  ASSERT_TRUE(session.ExecuteSql("CREATE TEMPORARY VIEW a AS SELECT 1 AS x").has_value());
  ASSERT_TRUE(session.ExecuteSql("CREATE TEMPORARY VIEW b AS SELECT x FROM a").has_value());
  ASSERT_TRUE(session.ExecuteSql("DROP TEMPORARY VIEW a").has_value());
  // b's query names the missing a: the statement is refused when the view is made.
  EXPECT_FALSE(session.ExecuteSql("CREATE TEMPORARY VIEW a AS SELECT x FROM b").has_value());
  // Made by hand, as no statement can: a's query is b's, which names a.
  ASSERT_TRUE(session.ExecuteSql("CREATE TEMPORARY VIEW a AS SELECT 2 AS x").has_value());
  SessionView& a = session.views(true).at("default_catalog.default_database.a");
  a.query = session.views(true).at("default_catalog.default_database.b").query;
  auto loop = session.ExecuteSql("SELECT * FROM b");
  ASSERT_FALSE(loop.has_value());
  EXPECT_NE(loop.error().message().find("refers to itself"), std::string::npos)
      << loop.error().message();
}

}  // namespace
}  // namespace floe::sql
