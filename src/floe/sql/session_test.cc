#include "floe/sql/session.h"

#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace floe::sql
