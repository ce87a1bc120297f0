#include "floe/stream/iceberg/table_loader.h"

#include <gtest/gtest.h>

#include "floe/catalog/test_commits.h"
#include "floe/table/table.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

const catalog::TableIdentifier kTable{{{"db"}}, "events"};

void CreateTable(const std::shared_ptr<catalog::Catalog>& catalog) {
  catalog::CreateTableRequest request;
  request.schema = catalog::testing::SimpleSchema();
  ASSERT_TRUE(catalog->CreateNamespace({{"db"}}, {}).has_value());
  ASSERT_TRUE(catalog->CreateTable(kTable, request).has_value());
}

TEST(TableLoaderTest, LoadsThroughACatalogAndFromTheTableFolder) {
  testing::TempDir dir;
  const std::string warehouse = (dir.path() / "warehouse").string();
  TableLoader by_catalog = TableLoader::FromCatalog(
      "lake", {{"catalog-type", "hadoop"}, {"warehouse", warehouse}}, kTable);
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, by_catalog.LoadCatalog());
  CreateTable(catalog);

  FLOE_ASSERT_OK_AND_ASSIGN(auto table, by_catalog.Load());
  TableLoader by_folder = TableLoader::FromFolder(warehouse + "/db/events");
  FLOE_ASSERT_OK_AND_ASSIGN(auto same, by_folder.Load());
  EXPECT_EQ(table->metadata_location(), same->metadata_location());
  EXPECT_EQ(same->ident(), kTable);
  EXPECT_EQ(by_catalog.ToString(), "lake.db.events");
}

TEST(TableLoaderTest, NamesWhatIsMissing) {
  testing::TempDir dir;
  auto missing = TableLoader::FromFolder((dir.path() / "warehouse/db/none").string()).Load();
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  auto shallow = TableLoader::FromFolder("/events").Load();
  ASSERT_FALSE(shallow.has_value());
  EXPECT_EQ(shallow.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::stream
