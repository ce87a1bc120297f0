#include "floe/catalog/hadoop/hadoop_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "floe/catalog/test_commits.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

namespace fs = std::filesystem;
using floe::testing::TempDir;
using floe::testing::TestDataDir;

std::shared_ptr<HadoopCatalog> MakeCatalog(const fs::path& warehouse) {
  auto catalog = HadoopCatalog::Make("hadoop", {{"warehouse", warehouse.string()}});
  EXPECT_TRUE(catalog.has_value()) << catalog.error().ToString();
  return *catalog;
}

CreateTableRequest SimpleRequest() {
  CreateTableRequest request;
  request.schema = testing::SimpleSchema();
  return request;
}

const TableIdentifier kTable{{{"db"}}, "events"};

TEST(HadoopCatalogTest, RequiresWarehouse) {
  auto catalog = HadoopCatalog::Make("h", {});
  ASSERT_FALSE(catalog.has_value());
  EXPECT_EQ(catalog.error().kind(), ErrorKind::kInvalidArgument);
}

TEST(HadoopCatalogTest, NamespacesAreFoldersWithoutProperties) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  FLOE_ASSERT_OK_AND_ASSIGN(auto none, catalog->ListNamespaces({}));
  EXPECT_TRUE(none.empty());

  FLOE_ASSERT_OK(catalog->CreateNamespace({{"db"}}, {}));
  FLOE_ASSERT_OK(catalog->CreateNamespace({{"db", "nested"}}, {}));
  EXPECT_TRUE(fs::is_directory(dir.path() / "db" / "nested"));
  EXPECT_EQ(catalog->CreateNamespace({{"db"}}, {}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->CreateNamespace({{"x"}}, {{"owner", "me"}}).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(catalog->CreateNamespace({{".."}}, {}).error().kind(), ErrorKind::kInvalidArgument);

  FLOE_ASSERT_OK_AND_ASSIGN(auto top, catalog->ListNamespaces({}));
  EXPECT_EQ(top, std::vector<Namespace>{{{"db"}}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto children, catalog->ListNamespaces({{"db"}}));
  EXPECT_EQ(children, (std::vector<Namespace>{{{"db", "nested"}}}));
  EXPECT_EQ(catalog->ListNamespaces({{"nope"}}).error().kind(), ErrorKind::kNotFound);

  FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties, catalog->LoadNamespaceProperties({{"db"}}));
  EXPECT_EQ(properties, (StringMap{{"location", (dir.path() / "db").string()}}));
  EXPECT_EQ(catalog->UpdateNamespaceProperties({{"db"}}, {{"a", "b"}}, {}).error().kind(),
            ErrorKind::kUnsupported);

  // A table is not a namespace, and keeps its namespace from being dropped.
  FLOE_ASSERT_OK(catalog->CreateTable(kTable, SimpleRequest()));
  FLOE_ASSERT_OK_AND_ASSIGN(children, catalog->ListNamespaces({{"db"}}));
  EXPECT_EQ(children.size(), 1u);
  EXPECT_FALSE(*catalog->NamespaceExists({{"db", "events"}}));
  auto not_empty = catalog->DropNamespace({{"db"}});
  ASSERT_FALSE(not_empty.has_value());
  EXPECT_EQ(not_empty.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(not_empty.error().message().find("events"), std::string::npos);
  FLOE_ASSERT_OK(catalog->DropNamespace({{"db", "nested"}}));
  EXPECT_FALSE(*catalog->NamespaceExists({{"db", "nested"}}));
  EXPECT_EQ(catalog->DropNamespace({{"db", "nested"}}).error().kind(), ErrorKind::kNotFound);
}

TEST(HadoopCatalogTest, CreateLoadListDrop) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  FLOE_ASSERT_OK(catalog->CreateNamespace({{"db"}}, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable created, catalog->CreateTable(kTable, SimpleRequest()));
  std::string folder = (dir.path() / "db" / "events").string();
  EXPECT_EQ(created.metadata_location, folder + "/metadata/v1.metadata.json");
  EXPECT_EQ(created.metadata->location(), folder);
  EXPECT_EQ(floe::testing::ReadFileOrDie(dir.path() / "db/events/metadata/version-hint.text"), "1");
  EXPECT_EQ(catalog->CreateTable(kTable, SimpleRequest()).error().kind(),
            ErrorKind::kAlreadyExists);

  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(loaded.metadata->table_uuid(), created.metadata->table_uuid());
  EXPECT_TRUE(*catalog->TableExists(kTable));
  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables({{"db"}}));
  EXPECT_EQ(tables, std::vector<TableIdentifier>{kTable});
  EXPECT_EQ(catalog->LoadTable({{{"db"}}, "missing"}).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(catalog->RenameTable(kTable, {{{"db"}}, "other"}).error().kind(),
            ErrorKind::kUnsupported);

  CreateTableRequest elsewhere = SimpleRequest();
  elsewhere.location = (dir.path() / "elsewhere").string();
  EXPECT_EQ(catalog->CreateTable({{{"db"}}, "t2"}, elsewhere).error().kind(),
            ErrorKind::kInvalidArgument);

  FLOE_ASSERT_OK(catalog->DropTable(kTable, /*purge=*/false));
  EXPECT_FALSE(fs::exists(folder));
  EXPECT_FALSE(*catalog->TableExists(kTable));
  EXPECT_EQ(catalog->DropTable(kTable, false).error().kind(), ErrorKind::kNotFound);
}

TEST(HadoopCatalogTest, CommitWritesNextVersionAndHint) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog->CreateTable(kTable, SimpleRequest()));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit commit,
                            testing::AppendCommit(*catalog->file_io(), table, "a"));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable committed, catalog->CommitTable(kTable, commit));
  EXPECT_TRUE(committed.metadata_location.ends_with("/metadata/v2.metadata.json"));
  EXPECT_EQ(floe::testing::ReadFileOrDie(dir.path() / "db/events/metadata/version-hint.text"), "2");
  ASSERT_EQ(committed.metadata->metadata_log().size(), 1u);
  EXPECT_EQ(committed.metadata->metadata_log()[0].metadata_file, table.metadata_location);

  // The same commit again: its base moved on.
  auto stale = catalog->CommitTable(kTable, commit);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(stale.error().retryable());

  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  EXPECT_EQ(loaded.metadata_location, committed.metadata_location);
  FLOE_ASSERT_OK_AND_ASSIGN(auto files,
                            testing::CurrentDataFiles(*catalog->file_io(), *loaded.metadata));
  EXPECT_EQ(files, std::vector<std::string>{loaded.metadata->location() + "/data/a.parquet"});
}

TEST(HadoopCatalogTest, CreateCommitWritesTheFirstVersion) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  testing::ExpectCreateCommitWorks(*catalog, kTable, (dir.path() / "db/events").string());
  EXPECT_TRUE(fs::exists(dir.path() / "db/events/metadata/v1.metadata.json"));
  EXPECT_EQ(floe::testing::ReadFileOrDie(dir.path() / "db/events/metadata/version-hint.text"), "2");

  // Hadoop tables live in their folder: a create commit cannot put one elsewhere.
  TableIdentifier moved{kTable.ns, "moved"};
  auto refused = catalog->CommitTable(moved, testing::CreateCommit((dir.path() / "x").string()));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::kInvalidArgument) << refused.error().ToString();
  EXPECT_FALSE(catalog->TableExists(moved).value());
}

TEST(HadoopCatalogTest, StaleHintIsPassedAndGzipWritten) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  CreateTableRequest request = SimpleRequest();
  request.properties = {{"write.metadata.compression-codec", "gzip"}};
  FLOE_ASSERT_OK(catalog->CreateTable(kTable, request));
  for (const char* tag : {"a", "b"})
    FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, tag));
  fs::path metadata = dir.path() / "db/events/metadata";
  EXPECT_TRUE(fs::exists(metadata / "v3.gz.metadata.json"));
  // A committer that died before updating the hint.
  {
    std::ofstream hint(metadata / "version-hint.text", std::ios::trunc);
    hint << "1";
  }
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  EXPECT_TRUE(loaded.metadata_location.ends_with("v3.gz.metadata.json"));
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "c"));
  EXPECT_TRUE(fs::exists(metadata / "v4.gz.metadata.json"));
}

// The hint is not synced: a crash may leave it empty. The folder is listed instead.
TEST(HadoopCatalogTest, EmptyHintFallsBackToListing) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  FLOE_ASSERT_OK(catalog->CreateTable(kTable, SimpleRequest()));
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "a"));
  fs::path metadata = dir.path() / "db/events/metadata";
  { std::ofstream hint(metadata / "version-hint.text", std::ios::trunc); }
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  EXPECT_TRUE(loaded.metadata_location.ends_with("v2.metadata.json")) << loaded.metadata_location;
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "b"));
  EXPECT_EQ(floe::testing::ReadFileOrDie(metadata / "version-hint.text"), "3");
}

TEST(HadoopCatalogTest, MetadataPathIsRefusedAsInJava) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  CreateTableRequest request = SimpleRequest();
  request.properties = {{"write.metadata.path", (dir.path() / "meta").string()}};
  EXPECT_EQ(catalog->CreateTable(kTable, request).error().kind(), ErrorKind::kInvalidArgument);
}

TEST(HadoopCatalogTest, OldMetadataDeletedAfterCommitWhenAsked) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  CreateTableRequest request = SimpleRequest();
  request.properties = {{"write.metadata.previous-versions-max", "1"},
                        {"write.metadata.delete-after-commit.enabled", "true"}};
  FLOE_ASSERT_OK(catalog->CreateTable(kTable, request));
  for (const char* tag : {"a", "b", "c"}) {
    FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, tag));
  }
  fs::path metadata = dir.path() / "db/events/metadata";
  EXPECT_FALSE(fs::exists(metadata / "v1.metadata.json"));
  EXPECT_FALSE(fs::exists(metadata / "v2.metadata.json"));
  EXPECT_TRUE(fs::exists(metadata / "v3.metadata.json"));
  EXPECT_TRUE(fs::exists(metadata / "v4.metadata.json"));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  ASSERT_EQ(loaded.metadata->metadata_log().size(), 1u);
  EXPECT_TRUE(loaded.metadata->metadata_log()[0].metadata_file.ends_with("v3.metadata.json"));
}

TEST(HadoopCatalogTest, DropWithPurgeDeletesReferencedFilesOutsideTheFolder) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path() / "wh");
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog->CreateTable(kTable, SimpleRequest()));
  FLOE_ASSERT_OK(testing::AppendWithRetry(*catalog, kTable, "a"));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(kTable));
  // A data file written elsewhere (write.data.path) that the table references, and a stranger.
  fs::create_directories(dir.path() / "data");
  FLOE_ASSERT_OK_AND_ASSIGN(auto files,
                            testing::CurrentDataFiles(*catalog->file_io(), *loaded.metadata));
  ASSERT_EQ(files.size(), 1u);
  FLOE_ASSERT_OK(catalog->file_io()->WriteFile(files[0], "x", false));
  FLOE_ASSERT_OK(
      catalog->file_io()->WriteFile((dir.path() / "data/stranger").string(), "x", false));

  FLOE_ASSERT_OK(catalog->DropTable(kTable, /*purge=*/true));
  EXPECT_FALSE(fs::exists(files[0]));
  EXPECT_FALSE(fs::exists(loaded.metadata->location()));
  EXPECT_TRUE(fs::exists(dir.path() / "data/stranger"));
}

TEST(HadoopCatalogTest, RegisterTableCopiesMetadataAsFirstVersion) {
  TempDir dir;
  auto catalog = MakeCatalog(dir.path());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog->CreateTable(kTable, SimpleRequest()));
  TableIdentifier copy{{{"db"}}, "copy"};
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable registered,
                            catalog->RegisterTable(copy, table.metadata_location));
  EXPECT_TRUE(registered.metadata_location.ends_with("db/copy/metadata/v1.metadata.json"));
  EXPECT_EQ(registered.metadata->table_uuid(), table.metadata->table_uuid());
  EXPECT_EQ(catalog->RegisterTable(copy, table.metadata_location).error().kind(),
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->RegisterTable({{{"db"}}, "x"}, "/nope/v1.metadata.json").error().kind(),
            ErrorKind::kNotFound);
}

// Tables other engines wrote in this layout, read where they lie (never written to).
TEST(HadoopCatalogTest, LoadsTablesOtherEnginesWrote) {
  fs::path persistent = TestDataDir() / "duckdb-iceberg/data/persistent";
  if (!fs::exists(persistent)) GTEST_SKIP() << "no shared test data";
  struct Case {
    fs::path warehouse;
    TableIdentifier ident;
    int format_version;
    std::string metadata_file;
  };
  std::vector<Case> cases = {
      {persistent / "equality_deletes/warehouse", {{{"mydb"}}, "mytable"}, 2, "v7.metadata.json"},
      // The file names expected are those the tables' own version hints name.
      {persistent / "name_mapping/warehouse_1", {{{"mydb"}}, "t1"}, 1, "v7.metadata.json"},
      {persistent / "iceberg_v1_deprecated", {{{"default"}}, "legacy_v1"}, 1, "v2.metadata.json"},
      {persistent / "legacy_bare_deletion_vector/warehouse",
       {{{"default"}}, "legacy_bare_deletion_vector"},
       3,
       "00002-legacy-bare-dv.metadata.json"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.ident.ToString());
    auto catalog = MakeCatalog(c.warehouse);
    FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(c.ident.ns));
    EXPECT_NE(std::ranges::find(tables, c.ident), tables.end());
    FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(c.ident));
    EXPECT_EQ(loaded.metadata->format_version(), c.format_version);
    if (!c.metadata_file.empty()) {
      EXPECT_EQ(io::FileName(loaded.metadata_location), c.metadata_file);
    }
    // The file the catalog picked is the one the table's own hint names.
    fs::path folder = c.warehouse;
    for (const auto& level : c.ident.ns.levels) folder /= level;
    folder /= c.ident.name;
    FLOE_ASSERT_OK_AND_ASSIGN(std::string current,
                              FindCurrentMetadataLocation(*catalog->file_io(), folder.string()));
    EXPECT_EQ(loaded.metadata_location, current);
  }
}

// ClickHouse's IcebergLocal engine writes this layout (v<N>.metadata.json, no hint): floe loads
// what it wrote, commits on top, and ClickHouse still reads the table afterwards.
TEST(HadoopCatalogTest, ClickHouseTablesRoundTrip) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  TempDir dir;
  std::string table_dir = (dir.path() / "db" / "t").string();
  auto made = floe::testing::RunPeer(
      "ch",
      {fmt::format("CREATE TABLE t (id Int64, name String) ENGINE = IcebergLocal('{}', "
                   "'Parquet'); INSERT INTO t SETTINGS allow_experimental_insert_into_iceberg=1 "
                   "VALUES (1,'a'),(2,'b'); INSERT INTO t SETTINGS "
                   "allow_experimental_insert_into_iceberg=1 VALUES (3,'c')",
                   table_dir)});
  ASSERT_TRUE(made.has_value()) << made.error().ToString();

  auto catalog = MakeCatalog(dir.path());
  TableIdentifier ident{{{"db"}}, "t"};
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(ident));
  EXPECT_EQ(loaded.metadata->snapshots().size(), 2u);
  EXPECT_NE(loaded.metadata->current_schema()->FindField("name"), nullptr);
  FLOE_ASSERT_OK_AND_ASSIGN(auto files,
                            testing::CurrentDataFiles(*catalog->file_io(), *loaded.metadata));
  EXPECT_EQ(files.size(), 2u);

  TableCommit commit;
  commit.requirements.emplace_back(std::in_place_type<AssertTableUuid>,
                                   loaded.metadata->table_uuid());
  commit.updates.push_back(SetProperties{{{"floe.touched", "yes"}}});
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable committed, catalog->CommitTable(ident, commit));
  EXPECT_EQ(committed.metadata->properties().at("floe.touched"), "yes");

  auto count = floe::testing::RunPeer(
      "ch", {fmt::format("SELECT count() AS n FROM icebergLocal('{}')", table_dir)});
  ASSERT_TRUE(count.has_value()) << count.error().ToString();
  EXPECT_NE(count->find("\"n\":3"), std::string::npos) << *count;
}

}  // namespace
}  // namespace floe::catalog
