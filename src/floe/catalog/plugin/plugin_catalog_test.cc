#include "floe/catalog/plugin/plugin_catalog.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/catalog/test_commits.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

const TableIdentifier kTable{{{"db"}}, "t"};

std::shared_ptr<Catalog> LoadExample(const std::filesystem::path& warehouse) {
  auto catalog = LoadPluginCatalog(FLOE_EXAMPLE_CATALOG_PLUGIN_PATH, "plugged",
                                   {{"warehouse", warehouse.string()},
                                    {"example.namespaces", "db,staging"},
                                    {"custom", "value"}});
  EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
  return catalog ? *catalog : nullptr;
}

TEST(PluginCatalogTest, PropertiesReachThePlugin) {
  floe::testing::TempDir dir;
  auto catalog = LoadExample(dir.path());
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->name(), "plugged");
  FLOE_ASSERT_OK_AND_ASSIGN(auto namespaces, catalog->ListNamespaces({}));
  EXPECT_EQ(namespaces, (std::vector<Namespace>{{{"db"}}, {{"staging"}}}));
  FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties, catalog->LoadNamespaceProperties({{"db"}}));
  EXPECT_EQ(properties.at("custom"), "value");
  EXPECT_EQ(properties.at("warehouse"), dir.path().string());

  FLOE_ASSERT_OK(catalog->UpdateNamespaceProperties({{"db"}}, {{"owner", "me"}}, {"custom"}));
  FLOE_ASSERT_OK_AND_ASSIGN(properties, catalog->LoadNamespaceProperties({{"db"}}));
  EXPECT_EQ(properties.at("owner"), "me");
  EXPECT_FALSE(properties.contains("custom"));
  EXPECT_EQ(catalog->CreateNamespace({{"db"}}, {}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->LoadNamespaceProperties({{"nope"}}).error().kind(), ErrorKind::kNotFound);

  auto missing = LoadPluginCatalog(FLOE_EXAMPLE_CATALOG_PLUGIN_PATH, "x", {});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(missing.error().message().find("warehouse"), std::string::npos);
}

TEST(PluginCatalogTest, CreateLoadCommitRenameDrop) {
  floe::testing::TempDir dir;
  auto catalog = LoadExample(dir.path());
  ASSERT_NE(catalog, nullptr);
  CreateTableRequest request;
  request.schema = testing::SimpleSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable created, catalog->CreateTable(kTable, request));
  EXPECT_EQ(created.metadata->location(), (dir.path() / "db" / "t").string());
  EXPECT_TRUE(created.metadata_location.starts_with((dir.path() / "db/t/metadata/00000-").string()))
      << created.metadata_location;
  EXPECT_EQ(catalog->CreateTable(kTable, request).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->CreateTable({{{"nope"}}, "t"}, request).error().kind(), ErrorKind::kNotFound);

  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "a"));
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "b"));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  EXPECT_TRUE(loaded.metadata_location.starts_with((dir.path() / "db/t/metadata/00002-").string()));
  FLOE_ASSERT_OK_AND_ASSIGN(auto chain, testing::ChainWriters(*loaded.metadata));
  EXPECT_EQ(chain, (std::vector<std::string>{"b", "a"}));
  ASSERT_EQ(loaded.metadata->metadata_log().size(), 2u);
  EXPECT_EQ(loaded.metadata->metadata_log()[0].metadata_file, created.metadata_location);

  // A commit built on a stale base loses, and its metadata file is removed again.
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit stale,
                            testing::AppendCommit(*catalog->file_io(), created, "stale"));
  auto lost = catalog->CommitTable(kTable, stale);
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(lost.error().retryable());
  size_t metadata_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "db/t/metadata")) {
    if (entry.path().string().ends_with(".metadata.json")) ++metadata_files;
  }
  EXPECT_EQ(metadata_files, 3u);

  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables({{"db"}}));
  EXPECT_EQ(tables, std::vector<TableIdentifier>{kTable});
  TableIdentifier moved{{{"staging"}}, "t2"};
  FLOE_ASSERT_OK(catalog->RenameTable(kTable, moved));
  EXPECT_FALSE(*catalog->TableExists(kTable));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable renamed, catalog->LoadTable(moved));
  EXPECT_EQ(renamed.metadata_location, loaded.metadata_location);

  TableIdentifier registered{{{"db"}}, "again"};
  FLOE_ASSERT_OK(catalog->RegisterTable(registered, created.metadata_location));
  EXPECT_EQ(catalog->LoadTable(registered)->metadata->table_uuid(), created.metadata->table_uuid());
  FLOE_ASSERT_OK(catalog->DropTable(registered, /*purge=*/false));
  EXPECT_TRUE(std::filesystem::exists(created.metadata_location));

  FLOE_ASSERT_OK(catalog->DropTable(moved, /*purge=*/true));
  EXPECT_FALSE(std::filesystem::exists(loaded.metadata_location));
  EXPECT_FALSE(std::filesystem::exists(created.metadata_location));
  EXPECT_EQ(catalog->LoadTable(moved).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->DropNamespace({{"staging"}}));
}

TEST(PluginCatalogTest, BadLibrariesGiveClearErrors) {
  auto check = [](const std::string& path, std::string_view expected) {
    auto catalog = LoadPluginCatalog(path, "x", {{"warehouse", "/tmp"}});
    ASSERT_FALSE(catalog.has_value()) << path;
    EXPECT_EQ(catalog.error().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(catalog.error().message().find(expected), std::string::npos)
        << catalog.error().message();
    EXPECT_NE(catalog.error().message().find(path), std::string::npos) << catalog.error().message();
  };
  check("/nonexistent/libnothing.so", "cannot load the library");
  check(floe::testing::TestDataDir() / "MANIFEST.txt", "cannot load the library");
  // A real shared library that is not a plugin: the plugin's own test binary has none, but every
  // process has the C library.
  check("libc.so.6", "no symbol floe_catalog_plugin_v1");
  check(FLOE_FUTURE_ABI_PLUGIN_PATH, "ABI version 2");
}

}  // namespace
}  // namespace floe::catalog
