#include <gtest/gtest.h>

#include "floe/catalog/caching_catalog.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

ErrorKind KindOf(const StringMap& properties) {
  auto catalog = CreateCatalog("c", properties);
  EXPECT_FALSE(catalog.has_value());
  return catalog ? ErrorKind::kInternal : catalog.error().kind();
}

TEST(CatalogFactoryTest, HadoopIsCachedByDefault) {
  floe::testing::TempDir dir;
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto catalog,
      CreateCatalog("lake", {{"catalog-type", "Hadoop"}, {"warehouse", dir.path().string()}}));
  EXPECT_EQ(catalog->name(), "lake");
  auto* cached = dynamic_cast<CachingCatalog*>(catalog.get());
  ASSERT_NE(cached, nullptr);
  EXPECT_NE(dynamic_cast<HadoopCatalog*>(cached->inner().get()), nullptr);

  FLOE_ASSERT_OK_AND_ASSIGN(auto uncached,
                            CreateCatalog("lake", {{"catalog-type", "hadoop"},
                                                   {"warehouse", dir.path().string()},
                                                   {"cache-enabled", "false"}}));
  EXPECT_NE(dynamic_cast<HadoopCatalog*>(uncached.get()), nullptr);
}

TEST(CatalogFactoryTest, PluginByPath) {
  floe::testing::TempDir dir;
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog,
                            CreateCatalog("p", {{"catalog-impl", FLOE_EXAMPLE_CATALOG_PLUGIN_PATH},
                                                {"warehouse", dir.path().string()},
                                                {"example.namespaces", "db"},
                                                {"cache.expiration-interval-ms", "60000"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(StringMap seen, catalog->LoadNamespaceProperties({{"db"}}));
  // The factory's own properties are not the plugin's business.
  EXPECT_FALSE(seen.contains("catalog-impl"));
  EXPECT_FALSE(seen.contains("cache.expiration-interval-ms"));
  EXPECT_EQ(seen.at("warehouse"), dir.path().string());
  CreateTableRequest request;
  request.schema = testing::SimpleSchema();
  FLOE_ASSERT_OK(catalog->CreateTable({{{"db"}}, "t"}, request));
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, {{{"db"}}, "t"}, "a"));
}

TEST(CatalogFactoryTest, RefusesWhatItCannotBuild) {
  EXPECT_EQ(KindOf({{"catalog-type", "hive"}}), ErrorKind::kUnsupported);
  EXPECT_EQ(KindOf({{"catalog-type", "rest"}, {"uri", "http://x"}}), ErrorKind::kUnsupported);
  EXPECT_EQ(KindOf({}), ErrorKind::kUnsupported);  // hive, the connector's default
  EXPECT_EQ(KindOf({{"catalog-type", "glue2"}}), ErrorKind::kInvalidArgument);
  EXPECT_EQ(KindOf({{"catalog-type", "hadoop"}}), ErrorKind::kInvalidArgument);  // no warehouse
  EXPECT_EQ(KindOf({{"catalog-type", "hadoop"}, {"catalog-impl", "/x.so"}}),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(KindOf({{"catalog-type", "hadoop"},
                    {"warehouse", "/tmp/w"},
                    {"cache.expiration-interval-ms", "0"}}),
            ErrorKind::kInvalidArgument);

  auto unknown = CreateCatalog("c", {{"catalog-type", "glue2"}});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("hadoop, sql"), std::string::npos);
  auto hive = CreateCatalog("c", {{"catalog-type", "hive"}});
  EXPECT_NE(hive.error().message().find("not yet supported"), std::string::npos);
}

}  // namespace
}  // namespace floe::catalog
