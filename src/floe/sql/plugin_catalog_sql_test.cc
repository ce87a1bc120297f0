// A catalog plugin from SQL, end to end: the example plugin (examples/catalog_plugin) keeps its
// tables in the memory of the catalog instance the session made, so CREATE, INSERT (batch and
// streaming), SELECT, CALL and DROP all work only when every job and action goes through that
// instance; a second instance made from the same properties would not know the table.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/sql/result_format.h"
#include "floe/sql/session.h"
#include "floe/testing/testing.h"

namespace floe::sql {
namespace {

class PluginCatalogSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = std::make_unique<Session>(SessionOptions{
        .embedded_warehouse = "", .checkpoint_root = (dir_.path() / "checkpoints").string()});
    ASSERT_TRUE(session_->Open().has_value());
  }

  void Ok(const std::string& sql) {
    auto result = session_->ExecuteSql(sql);
    ASSERT_TRUE(result.has_value()) << sql << "\n" << result.error().ToString();
  }

  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> lines;
    auto result = session_->ExecuteSql(sql);
    EXPECT_TRUE(result.has_value()) << sql << "\n" << result.error().ToString();
    if (!result.has_value() || result->rows == nullptr) return lines;
    while (true) {
      auto batch = result->rows->Next();
      EXPECT_TRUE(batch.has_value()) << sql;
      if (!batch.has_value() || !batch->has_value()) break;
      for (int64_t row = 0; row < (*batch)->num_rows(); ++row) {
        std::string line;
        for (int c = 0; c < (*batch)->num_columns(); ++c) {
          line += (c > 0 ? " | " : "") + FormatCell((*batch)->column(c), row);
        }
        lines.push_back(std::move(line));
      }
    }
    return lines;
  }

  floe::testing::TempDir dir_;
  std::unique_ptr<Session> session_;
};

TEST_F(PluginCatalogSqlTest, AnInMemoryPluginServesEveryStatement) {
  Ok(
      fmt::format("CREATE CATALOG p WITH ('type'='iceberg', 'catalog-impl'='{}', 'warehouse'='{}', "
                  "'example.namespaces'='db')",
                  FLOE_EXAMPLE_CATALOG_PLUGIN_PATH, (dir_.path() / "wh").string()));
  Ok("USE CATALOG p");
  Ok("USE db");
  Ok("CREATE TABLE t (id BIGINT, data STRING)");
  Ok("SET 'execution.runtime-mode' = 'batch'");
  Ok("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  // A streaming INSERT is a job of its own: its sink loads the table through the session's
  // instance, and the SELECT after it waits for it.
  Ok("SET 'execution.runtime-mode' = 'streaming'");
  Ok("INSERT INTO t VALUES (3, 'c')");
  Ok("SET 'execution.runtime-mode' = 'batch'");
  EXPECT_EQ(Rows("SELECT id, data FROM t ORDER BY id"),
            (std::vector<std::string>{"1 | a", "2 | b", "3 | c"}));
  // Two data files (one per INSERT) become one.
  std::vector<std::string> rewrite =
      Rows("CALL p.system.rewrite_data_files('db.t', options => map('min-input-files', '2'))");
  ASSERT_EQ(rewrite.size(), 1u);
  EXPECT_TRUE(rewrite[0].starts_with("2 | 1 | ")) << rewrite[0];
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM t$files"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Rows("SELECT id, data FROM t ORDER BY id"),
            (std::vector<std::string>{"1 | a", "2 | b", "3 | c"}));
  Ok("DROP TABLE t");
  auto gone = session_->ExecuteSql("SELECT * FROM t");
  ASSERT_FALSE(gone.has_value());
  EXPECT_NE(gone.error().message().find("does not exist"), std::string::npos)
      << gone.error().message();
}

}  // namespace
}  // namespace floe::sql
