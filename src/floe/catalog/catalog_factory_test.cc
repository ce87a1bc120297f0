#include <gtest/gtest.h>

#include <filesystem>

#include "floe/catalog/caching_catalog.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

// The working directory changed for a scope.
struct InFolder {
  std::filesystem::path before = std::filesystem::current_path();
  explicit InFolder(const std::filesystem::path& folder) { std::filesystem::current_path(folder); }
  ~InFolder() { std::filesystem::current_path(before); }
};

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

TEST(CatalogFactoryTest, PropertyVersionIsOne) {
  floe::testing::TempDir dir;
  const std::string warehouse = dir.path().string();
  FLOE_ASSERT_OK(CreateCatalog(
      "c", {{"catalog-type", "hadoop"}, {"warehouse", warehouse}, {"property-version", "1"}}));
  auto other = CreateCatalog(
      "c", {{"catalog-type", "hadoop"}, {"warehouse", warehouse}, {"property-version", "99"}});
  ASSERT_FALSE(other.has_value());
  EXPECT_EQ(other.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(other.error().message().find("property-version '99' is not supported"),
            std::string::npos)
      << other.error().message();
}

// A relative warehouse is resolved once, when the catalog is made: the table's metadata names
// absolute locations that hold wherever the table is read from later.
TEST(CatalogFactoryTest, RelativeWarehouseGivesAbsoluteLocations) {
  floe::testing::TempDir dir;
  InFolder in_folder(dir.path());
  for (std::string type : {"hadoop", "sql"}) {
    auto catalog =
        CreateCatalog("c", {{"catalog-type", type}, {"warehouse", "./wh-" + type + "/"}});
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message();
    FLOE_ASSERT_OK((*catalog)->CreateNamespace({{"db"}}, {}));
    CreateTableRequest request;
    request.schema = testing::SimpleSchema();
    request.properties = {{"write.data.path", "elsewhere/data"}};
    auto created = (*catalog)->CreateTable({{{"db"}}, "t"}, request);
    ASSERT_TRUE(created.has_value()) << created.error().message();
    const std::string root = std::filesystem::current_path().string();
    EXPECT_EQ(created->metadata->location(), root + "/wh-" + type + "/db/t");
    EXPECT_TRUE(created->metadata_location.starts_with(root + "/wh-" + type + "/db/t/metadata/"))
        << created->metadata_location;
    EXPECT_EQ(created->metadata->property("write.data.path"), root + "/elsewhere/data");
  }
}

// An older floe wrote the locations of a table made with a relative warehouse as it was given,
// relative to the folder it ran in. Such a table still reads, from any folder, under the
// warehouse; without that, its relative paths would name files under the reader's folder.
TEST(CatalogFactoryTest, RelativeLocationsOfOlderTablesReadUnderTheWarehouse) {
  floe::testing::TempDir dir;
  const std::string warehouse = (dir.path() / "wh").string();
  const TableIdentifier ident{{{"db"}}, "t"};
  {
    InFolder in_folder(dir.path());
    FLOE_ASSERT_OK_AND_ASSIGN(auto catalog,
                              CreateCatalog("c", {{"catalog-type", "sql"}, {"warehouse", "wh"}}));
    FLOE_ASSERT_OK(catalog->CreateNamespace({{"db"}}, {}));
    CreateTableRequest request;
    request.schema = testing::SimpleSchema();
    FLOE_ASSERT_OK(catalog->CreateTable(ident, request));
    // The location as the older floe recorded it; what is written next lies under it.
    FLOE_ASSERT_OK(catalog->CommitTable(ident, TableCommit{{}, {SetLocation{"wh/db/t"}}}));
    FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, ident, "old"));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto catalog, CreateCatalog("c", {{"catalog-type", "sql"}, {"warehouse", warehouse}}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(ident));
  EXPECT_EQ(loaded.metadata->location(), "wh/db/t");
  EXPECT_TRUE(loaded.metadata_location.starts_with("wh/db/t/metadata/"))
      << loaded.metadata_location;
  ASSERT_NE(loaded.metadata->current_snapshot(), nullptr);
  EXPECT_TRUE(loaded.metadata->current_snapshot()->manifest_list.starts_with("wh/db/t/metadata/"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / loaded.metadata_location));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> files,
                            testing::CurrentDataFiles(*catalog->file_io(), *loaded.metadata));
  EXPECT_EQ(files, (std::vector<std::string>{"wh/db/t/data/old.parquet"}));
}

TEST(CatalogFactoryTest, RefusesWhatItCannotBuild) {
  EXPECT_EQ(KindOf({{"catalog-type", "hive"}}), ErrorKind::kUnsupported);
  EXPECT_EQ(KindOf({{"catalog-type", "rest"}}), ErrorKind::kInvalidArgument);  // no uri
  EXPECT_EQ(KindOf({{"catalog-type", "rest"}, {"uri", "ftp://x"}}), ErrorKind::kInvalidArgument);
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
