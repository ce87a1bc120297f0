#include "floe/sql/session.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/catalog/catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::sql {
namespace {

TEST(SessionTest, SetChecksTypedOptionsAndResetRestoresDefaults) {
  Session session({.embedded_warehouse = ""});
  ASSERT_TRUE(session.ExecuteSql("SET 'execution.runtime-mode' = 'batch'").has_value());
  EXPECT_EQ(*session.config().runtime_mode(), stream::RuntimeMode::kBatch);

  auto bad = session.ExecuteSql("SET 'execution.runtime-mode' = 'sometimes'");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("'sometimes'"), std::string::npos);
  EXPECT_EQ(*session.config().runtime_mode(), stream::RuntimeMode::kBatch);

  ASSERT_TRUE(session.ExecuteSql("SET 'execution.checkpointing.interval' = '10s'").has_value());
  EXPECT_EQ(session.config().JobConfig()->checkpoint_interval_ms, 10'000);
  ASSERT_TRUE(session.ExecuteSql("SET 'my.own.key' = 'kept'").has_value());
  EXPECT_EQ(session.config().Get("my.own.key"), "kept");

  ASSERT_TRUE(session.ExecuteSql("RESET 'execution.runtime-mode'").has_value());
  EXPECT_EQ(*session.config().runtime_mode(), stream::RuntimeMode::kStreaming);
  ASSERT_TRUE(session.ExecuteSql("RESET").has_value());
  EXPECT_FALSE(session.config().Get("my.own.key").has_value());
}

TEST(SessionTest, OpensTheEmbeddedCatalogAndResolvesNamesAgainstIt) {
  testing::TempDir dir;
  Session session({.embedded_warehouse = (dir.path() / "warehouse").string()});
  ASSERT_TRUE(session.Open().has_value());
  EXPECT_EQ(session.current_catalog(), "floe");
  EXPECT_EQ(session.current_database(), "default");
  EXPECT_EQ(session.CatalogNames(), (std::vector<std::string>{"default_catalog", "floe"}));

  auto name = session.ResolveTable(ObjectName{{"t$snapshots"}});
  ASSERT_TRUE(name.has_value()) << name.error().message();
  EXPECT_EQ(name->ToString(), "floe.default.t$snapshots");
  EXPECT_EQ(name->metadata, "snapshots");
  EXPECT_EQ(session.ResolveTable(ObjectName{{"c", "db", "t"}})->ToString(), "c.db.t");
  EXPECT_FALSE(session.ResolveTable(ObjectName{{"..", "t"}}).has_value());
  EXPECT_FALSE(session.ResolveTable(ObjectName{{"a", "b", "c", "d"}}).has_value());

  EXPECT_FALSE(session.RemoveCatalog("floe").has_value());  // current
  EXPECT_FALSE(session.RemoveCatalog(kDefaultCatalog).has_value());
  auto quit = session.ExecuteSql("QUIT");
  ASSERT_TRUE(quit.has_value());
  EXPECT_EQ(quit->kind, StatementResult::Kind::kQuit);
}

// A warehouse made before the catalog moved inside it keeps its tables: the old SQLite file
// beside the folder is moved in, with a note.
TEST(SessionTest, MovesAnOlderCatalogFileIntoItsWarehouse) {
  testing::TempDir dir;
  const std::filesystem::path warehouse = dir.path() / "warehouse";
  {
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto old, catalog::CreateCatalog(
                      "floe", {{"catalog-type", "sql"}, {"warehouse", warehouse.string()}}));
    FLOE_ASSERT_OK(old->CreateNamespace({{"default"}}, {}));
    catalog::CreateTableRequest request;
    request.schema = catalog::testing::SimpleSchema();
    FLOE_ASSERT_OK(old->CreateTable({{{"default"}}, "t"}, request));
  }
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "warehouse.catalog.db"));
  Session session({.embedded_warehouse = warehouse.string()});
  FLOE_ASSERT_OK(session.Open());
  ASSERT_EQ(session.notes().size(), 1u);
  EXPECT_NE(session.notes()[0].find("Moved the catalog file"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "warehouse.catalog.db"));
  EXPECT_TRUE(std::filesystem::exists(warehouse / "catalog.db"));
  auto described = session.ExecuteSql("DESCRIBE t");
  EXPECT_TRUE(described.has_value()) << described.error().message();
}

// A table whose folder was deleted is reported with its name and missing file, and can be
// dropped (and then made again).
TEST(SessionTest, ATableWithoutItsMetadataFileIsReportedAndDroppable) {
  testing::TempDir dir;
  const std::filesystem::path warehouse = dir.path() / "warehouse";
  const std::string metadata = (warehouse / "default" / "t" / "metadata").string();
  {
    Session session({.embedded_warehouse = warehouse.string()});
    FLOE_ASSERT_OK(session.Open());
    FLOE_ASSERT_OK(session.ExecuteSql("CREATE TABLE t (id BIGINT)"));
    std::filesystem::remove_all(warehouse / "default" / "t");
    // A read names the table and the file; DROP works though the session cached the table.
    auto read = session.ExecuteSql("SELECT * FROM t");
    ASSERT_FALSE(read.has_value());
    EXPECT_NE(read.error().message().find("loading table default.t: " + metadata),
              std::string::npos)
        << read.error().message();
    FLOE_ASSERT_OK(session.ExecuteSql("DROP TABLE t"));
    FLOE_ASSERT_OK(session.ExecuteSql("CREATE TABLE t (id BIGINT)"));
    std::filesystem::remove_all(warehouse / "default" / "t");
  }
  Session session({.embedded_warehouse = warehouse.string()});
  FLOE_ASSERT_OK(session.Open());
  auto described = session.ExecuteSql("DESCRIBE t");
  ASSERT_FALSE(described.has_value());
  const std::string& message = described.error().message();
  EXPECT_NE(message.find("table 'floe.default.t' is in the catalog but its metadata file is "
                         "missing"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(metadata), std::string::npos) << message;
  EXPECT_NE(message.find("DROP TABLE floe.default.t removes it"), std::string::npos) << message;
  FLOE_ASSERT_OK(session.ExecuteSql("DROP TABLE t"));
  FLOE_ASSERT_OK(session.ExecuteSql("CREATE TABLE t (id BIGINT)"));
  FLOE_ASSERT_OK(session.ExecuteSql("DESCRIBE t"));
}

}  // namespace
}  // namespace floe::sql
