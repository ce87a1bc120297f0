#include "floe/catalog/sql/sql_catalog.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/catalog/sql/sql_test_util.h"
#include "floe/catalog/test_commits.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"

namespace floe::catalog {
namespace {

using sqltest::Backend;
using sqltest::SqlCatalogTest;

Namespace Ns(std::vector<std::string> levels) { return Namespace{std::move(levels)}; }

CreateTableRequest Request() {
  CreateTableRequest request;
  request.schema = std::make_shared<Schema>(std::vector<NestedField>{
      {1, "id", types::Long(), true}, {2, "data", types::String(), false}});
  return request;
}

std::vector<std::string> NamespaceNames(const std::vector<Namespace>& namespaces) {
  std::vector<std::string> names;
  for (const Namespace& ns : namespaces) names.push_back(ns.ToString());
  return names;
}

int CountMetadataFiles(const std::filesystem::path& folder) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    count += entry.path().string().ends_with(".metadata.json");
  }
  return count;
}

TEST_P(SqlCatalogTest, CreatesTheJdbcSchemaOnce) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK_AND_ASSIGN(auto again, Open());
  // Column names, types and primary keys as Iceberg Java's JdbcCatalog creates them.
  if (GetParam() != Backend::kPostgres) {
    EXPECT_EQ(Query("SELECT name, type, pk FROM pragma_table_info('iceberg_tables')"),
              (std::vector<std::string>{
                  "catalog_name|VARCHAR(255)|1", "table_namespace|VARCHAR(255)|2",
                  "table_name|VARCHAR(255)|3", "metadata_location|VARCHAR(1000)|0",
                  "previous_metadata_location|VARCHAR(1000)|0", "iceberg_type|VARCHAR(5)|0"}));
    EXPECT_EQ(Query("SELECT name, type, pk FROM pragma_table_info('iceberg_namespace_properties')"),
              (std::vector<std::string>{"catalog_name|VARCHAR(255)|1", "namespace|VARCHAR(255)|2",
                                        "property_key|VARCHAR(255)|3",
                                        "property_value|VARCHAR(1000)|0"}));
  } else {
    const std::string columns =
        "SELECT column_name, data_type, character_maximum_length FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = '{}' ORDER BY ordinal_position";
    EXPECT_EQ(Query(fmt::format(fmt::runtime(columns), "iceberg_tables")),
              (std::vector<std::string>{
                  "catalog_name|character varying|255", "table_namespace|character varying|255",
                  "table_name|character varying|255", "metadata_location|character varying|1000",
                  "previous_metadata_location|character varying|1000",
                  "iceberg_type|character varying|5"}));
    EXPECT_EQ(Query(fmt::format(fmt::runtime(columns), "iceberg_namespace_properties")),
              (std::vector<std::string>{
                  "catalog_name|character varying|255", "namespace|character varying|255",
                  "property_key|character varying|255", "property_value|character varying|1000"}));
    const std::string keys =
        "SELECT k.column_name FROM information_schema.table_constraints c JOIN "
        "information_schema.key_column_usage k ON c.constraint_name = k.constraint_name AND "
        "c.table_schema = k.table_schema WHERE c.constraint_type = 'PRIMARY KEY' AND "
        "c.table_schema = current_schema() AND c.table_name = '{}' ORDER BY k.ordinal_position";
    EXPECT_EQ(Query(fmt::format(fmt::runtime(keys), "iceberg_tables")),
              (std::vector<std::string>{"catalog_name", "table_namespace", "table_name"}));
    EXPECT_EQ(Query(fmt::format(fmt::runtime(keys), "iceberg_namespace_properties")),
              (std::vector<std::string>{"catalog_name", "namespace", "property_key"}));
  }
}

TEST_P(SqlCatalogTest, NamespacesWithProperties) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {{"owner", "alice"}, {"k", "v"}}));
  EXPECT_EQ(catalog->CreateNamespace(Ns({"db"}), {}).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->CreateNamespace(Ns({"other"}), {{"exists", "x"}}).error().kind(),
            ErrorKind::kInvalidArgument);
  FLOE_ASSERT_OK_AND_ASSIGN(bool exists, catalog->NamespaceExists(Ns({"db"})));
  EXPECT_TRUE(exists);
  FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties, catalog->LoadNamespaceProperties(Ns({"db"})));
  EXPECT_EQ(properties,
            (StringMap{{"owner", "alice"}, {"k", "v"}, {"location", warehouse_ + "/db"}}));

  FLOE_ASSERT_OK(catalog->UpdateNamespaceProperties(Ns({"db"}), {{"owner", "bob"}, {"new", "1"}},
                                                    {"k", "absent"}));
  EXPECT_EQ(catalog->UpdateNamespaceProperties(Ns({"db"}), {{"a", "1"}}, {"a"}).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(catalog->UpdateNamespaceProperties(Ns({"nope"}), {{"a", "1"}}, {}).error().kind(),
            ErrorKind::kNotFound);
  // The rows as Java would store them, `exists` marker included.
  EXPECT_EQ(Query("SELECT namespace, property_key, property_value FROM "
                  "iceberg_namespace_properties WHERE catalog_name = " +
                  NameLiteral() + " ORDER BY property_key"),
            (std::vector<std::string>{"db|exists|true", "db|new|1", "db|owner|bob"}));

  FLOE_ASSERT_OK(catalog->DropNamespace(Ns({"db"})));
  FLOE_ASSERT_OK_AND_ASSIGN(bool gone, catalog->NamespaceExists(Ns({"db"})));
  EXPECT_FALSE(gone);
  EXPECT_EQ(catalog->DropNamespace(Ns({"db"})).error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(catalog->LoadNamespaceProperties(Ns({"db"})).error().kind(), ErrorKind::kNotFound);
}

TEST_P(SqlCatalogTest, MultiLevelNamespaces) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  for (auto levels : std::vector<std::vector<std::string>>{
           {"a"}, {"a", "b"}, {"a", "b", "c"}, {"a", "x"}, {"ab", "x"}, {"z"}}) {
    FLOE_ASSERT_OK(catalog->CreateNamespace(Ns(levels), {}));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto top, catalog->ListNamespaces(Namespace{}));
  EXPECT_EQ(NamespaceNames(top), (std::vector<std::string>{"a", "ab", "z"}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto under_a, catalog->ListNamespaces(Ns({"a"})));
  EXPECT_EQ(NamespaceNames(under_a), (std::vector<std::string>{"a.b", "a.x"}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto under_ab, catalog->ListNamespaces(Ns({"a", "b"})));
  EXPECT_EQ(NamespaceNames(under_ab), (std::vector<std::string>{"a.b.c"}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto leaf, catalog->ListNamespaces(Ns({"a", "b", "c"})));
  EXPECT_TRUE(leaf.empty());
  EXPECT_EQ(catalog->ListNamespaces(Ns({"q"})).error().kind(), ErrorKind::kNotFound);

  // "ab" exists through its child; names are compared exactly (no LIKE wildcards, no case
  // folding).
  for (auto [levels, expected] :
       std::vector<std::pair<std::vector<std::string>, bool>>{{{"ab"}, true},
                                                              {{"a_"}, false},
                                                              {{"a%"}, false},
                                                              {{"AB"}, false},
                                                              {{"a", "b"}, true},
                                                              {{"a", "b", "c", "d"}, false}}) {
    FLOE_ASSERT_OK_AND_ASSIGN(bool exists, catalog->NamespaceExists(Ns(levels)));
    EXPECT_EQ(exists, expected) << Ns(levels).ToString();
  }

  auto not_empty = catalog->DropNamespace(Ns({"a"}));
  ASSERT_FALSE(not_empty);
  EXPECT_EQ(not_empty.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(not_empty.error().message().find("a.b"), std::string::npos)
      << not_empty.error().message();
  FLOE_ASSERT_OK(catalog->DropNamespace(Ns({"a", "b", "c"})));
  FLOE_ASSERT_OK(catalog->DropNamespace(Ns({"a", "b"})));
  FLOE_ASSERT_OK(catalog->DropNamespace(Ns({"a", "x"})));
  FLOE_ASSERT_OK(catalog->DropNamespace(Ns({"a"})));
  FLOE_ASSERT_OK_AND_ASSIGN(auto rest, catalog->ListNamespaces(Namespace{}));
  EXPECT_EQ(NamespaceNames(rest), (std::vector<std::string>{"ab", "z"}));
}

TEST_P(SqlCatalogTest, CatalogsSharingADatabaseDoNotSeeEachOther) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto other, CreateSqlCatalog(name_ + ".other", Properties()));
  FLOE_ASSERT_OK_AND_ASSIGN(bool exists, other->NamespaceExists(Ns({"db"})));
  EXPECT_FALSE(exists);
  FLOE_ASSERT_OK_AND_ASSIGN(auto top, other->ListNamespaces(Namespace{}));
  EXPECT_TRUE(top.empty());
}

TEST_P(SqlCatalogTest, TablesCreateListLoadRenameDropRegister) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Ns({"db"}), "t"};
  EXPECT_EQ(catalog->CreateTable(t, Request()).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable created, catalog->CreateTable(t, Request()));
  EXPECT_EQ(created.metadata->location(), warehouse_ + "/db/t");
  EXPECT_TRUE(created.metadata_location.starts_with(warehouse_ + "/db/t/metadata/00000-"))
      << created.metadata_location;
  EXPECT_TRUE(std::filesystem::exists(created.metadata_location));
  EXPECT_EQ(catalog->CreateTable(t, Request()).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(CountMetadataFiles(warehouse_ + "/db/t/metadata"), 1);

  EXPECT_EQ(Query("SELECT table_namespace, table_name, metadata_location, "
                  "coalesce(previous_metadata_location, 'NULL'), iceberg_type FROM iceberg_tables "
                  "WHERE catalog_name = " +
                  NameLiteral()),
            (std::vector<std::string>{"db|t|" + created.metadata_location + "|NULL|TABLE"}));

  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(Ns({"db"})));
  EXPECT_EQ(tables, (std::vector<TableIdentifier>{t}));
  EXPECT_EQ(catalog->ListTables(Ns({"nope"})).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(t));
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(loaded.metadata->table_uuid(), created.metadata->table_uuid());
  auto not_empty = catalog->DropNamespace(Ns({"db"}));
  ASSERT_FALSE(not_empty);
  EXPECT_NE(not_empty.error().message().find("holds tables"), std::string::npos)
      << not_empty.error().message();

  // Rename: only into an existing namespace, never onto a taken name.
  TableIdentifier moved{Ns({"db2"}), "moved"};
  EXPECT_EQ(catalog->RenameTable(t, moved).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db2"}), {}));
  TableIdentifier other{Ns({"db2"}), "other"};
  FLOE_ASSERT_OK(catalog->CreateTable(other, Request()));
  EXPECT_EQ(catalog->RenameTable(t, other).error().kind(), ErrorKind::kAlreadyExists);
  FLOE_ASSERT_OK(catalog->RenameTable(t, moved));
  EXPECT_EQ(catalog->LoadTable(t).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable renamed, catalog->LoadTable(moved));
  EXPECT_EQ(renamed.metadata_location, created.metadata_location);
  EXPECT_EQ(catalog->RenameTable(t, moved).error().kind(), ErrorKind::kNotFound);

  // Drop without purge forgets the table and keeps its files; register brings it back.
  FLOE_ASSERT_OK(catalog->DropTable(moved, /*purge=*/false));
  FLOE_ASSERT_OK_AND_ASSIGN(bool exists, catalog->TableExists(moved));
  EXPECT_FALSE(exists);
  EXPECT_EQ(catalog->DropTable(moved, false).error().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(std::filesystem::exists(created.metadata_location));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable registered,
                            catalog->RegisterTable(moved, created.metadata_location));
  EXPECT_EQ(registered.metadata->table_uuid(), created.metadata->table_uuid());
  EXPECT_EQ(catalog->RegisterTable(moved, created.metadata_location).error().kind(),
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog->RegisterTable(TableIdentifier{Ns({"db2"}), "x"}, warehouse_ + "/missing.json")
                .error()
                .kind(),
            ErrorKind::kNotFound);

  // Drop with purge deletes the table's files.
  FLOE_ASSERT_OK(catalog->DropTable(moved, /*purge=*/true));
  EXPECT_FALSE(std::filesystem::exists(created.metadata_location));
  EXPECT_EQ(Query("SELECT table_name FROM iceberg_tables WHERE catalog_name = " + NameLiteral()),
            (std::vector<std::string>{"other"}));
}

TEST_P(SqlCatalogTest, CommitSwapsTheMetadataLocation) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Ns({"db"}), "t"};
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, catalog->CreateTable(t, Request()));

  TableCommit commit;
  commit.requirements = {AssertTableUuid{base.metadata->table_uuid()}};
  commit.updates = {SetProperties{{{"owner", "floe"}}}};
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable next, catalog->CommitTable(t, commit));
  EXPECT_TRUE(next.metadata_location.starts_with(warehouse_ + "/db/t/metadata/00001-"))
      << next.metadata_location;
  EXPECT_EQ(next.metadata->property("owner"), "floe");
  ASSERT_EQ(next.metadata->metadata_log().size(), 1u);
  EXPECT_EQ(next.metadata->metadata_log()[0].metadata_file, base.metadata_location);
  EXPECT_EQ(Query("SELECT metadata_location, previous_metadata_location FROM iceberg_tables "
                  "WHERE catalog_name = " +
                  NameLiteral()),
            (std::vector<std::string>{next.metadata_location + "|" + base.metadata_location}));

  // A requirement that no longer holds: retryable, nothing changed, no file left behind.
  TableCommit stale;
  stale.requirements = {AssertTableUuid{"00000000-0000-0000-0000-000000000000"}};
  stale.updates = {SetProperties{{{"owner", "nobody"}}}};
  auto failed = catalog->CommitTable(t, stale);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(failed.error().retryable());
  EXPECT_EQ(CountMetadataFiles(warehouse_ + "/db/t/metadata"), 2);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog->LoadTable(t));
  EXPECT_EQ(after.metadata_location, next.metadata_location);

  EXPECT_EQ(catalog->CommitTable(TableIdentifier{Ns({"db"}), "nope"}, commit).error().kind(),
            ErrorKind::kNotFound);
}

TEST_P(SqlCatalogTest, CreateCommitInsertsTheTable) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Ns({"db"}), "t"};
  auto no_namespace = catalog->CommitTable(t, testing::CreateCommit());
  ASSERT_FALSE(no_namespace);
  EXPECT_EQ(no_namespace.error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  testing::ExpectCreateCommitWorks(*catalog, t, warehouse_ + "/db/t");
  EXPECT_EQ(Query("SELECT count(*) FROM iceberg_tables WHERE catalog_name = " + NameLiteral() +
                  " AND table_name = 't'"),
            (std::vector<std::string>{"1"}));
}

TEST_P(SqlCatalogTest, LostSwapIsRetryableAndCleansUp) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Ns({"db"}), "t"};
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, catalog->CreateTable(t, Request()));
  // Another writer moves the table on between our read and our swap: simulated by a second
  // catalog committing first, then a commit whose requirements hold on any base.
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, Open());
  TableCommit commit;
  commit.updates = {SetProperties{{{"k", "1"}}}};
  FLOE_ASSERT_OK(writer->CommitTable(t, commit));
  // The row now points past base: a swap from base must match no row.
  EXPECT_EQ(Query("SELECT count(*) FROM iceberg_tables WHERE catalog_name = " + NameLiteral() +
                  " AND metadata_location = '" + base.metadata_location + "'"),
            (std::vector<std::string>{"0"}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog->CommitTable(t, commit));
  EXPECT_EQ(after.metadata->metadata_log().size(), 2u);
  EXPECT_EQ(CountMetadataFiles(warehouse_ + "/db/t/metadata"), 3);
}

TEST_P(SqlCatalogTest, IdentifiersAreStoredVerbatimAndUnsafeOnesRejected) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  const std::vector<std::string> names = {
      "it's",    "\"double\"", "semi;colon", "x'); DROP TABLE iceberg_tables; --",
      "données", "表格",       "🧊 ice",   "a_b%c",
      "?"};
  for (const std::string& name : names) {
    FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({name}), {{"key " + name, "value " + name}}));
    TableIdentifier ident{Ns({name}), "t " + name};
    FLOE_ASSERT_OK(catalog->CreateTable(ident, Request()));
    FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(Ns({name})));
    EXPECT_EQ(tables, (std::vector<TableIdentifier>{ident}));
    FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties, catalog->LoadNamespaceProperties(Ns({name})));
    EXPECT_EQ(properties["key " + name], "value " + name);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto top, catalog->ListNamespaces(Namespace{}));
  EXPECT_EQ(top.size(), names.size());
  // Read back by the database's own client: the bytes went in unchanged.
  std::vector<std::string> rows = Query(
      "SELECT table_namespace || '/' || table_name FROM iceberg_tables WHERE catalog_name = " +
      NameLiteral());
  std::sort(rows.begin(), rows.end());
  std::vector<std::string> expected;
  for (const std::string& name : names) expected.push_back(name + "/t " + name);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rows, expected);

  for (const Namespace& bad :
       {Ns({".."}), Ns({"a/b"}), Ns({"a.b"}), Ns({""}), Ns({std::string("n\0l", 3)}),
        Ns({"line\nbreak"}), Ns({"ok", "."})}) {
    auto status = catalog->CreateNamespace(bad, {});
    ASSERT_FALSE(status) << bad.ToString();
    EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument);
  }
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"ok"}), {}));
  for (const std::string& bad : {std::string(".."), std::string("../escape"), std::string("a\\b"),
                                 std::string("tab\tname")}) {
    auto created = catalog->CreateTable(TableIdentifier{Ns({"ok"}), bad}, Request());
    ASSERT_FALSE(created) << bad;
    EXPECT_EQ(created.error().kind(), ErrorKind::kInvalidArgument);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "escape"));
}

TEST_P(SqlCatalogTest, UsesAnOlderSchemaWithoutTheTypeColumnAsItIs) {
  if (GetParam() == Backend::kPostgres) GTEST_SKIP() << "the shared server already has V1 tables";
  // A database made by a Java catalog before views (schema version V0).
  Query(
      "CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace "
      "VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, metadata_location "
      "VARCHAR(1000), previous_metadata_location VARCHAR(1000), PRIMARY KEY (catalog_name, "
      "table_namespace, table_name))");
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  TableIdentifier t{Ns({"db"}), "t"};
  FLOE_ASSERT_OK(catalog->CreateTable(t, Request()));
  TableCommit commit;
  commit.updates = {SetProperties{{{"k", "1"}}}};
  FLOE_ASSERT_OK(catalog->CommitTable(t, commit));
  FLOE_ASSERT_OK(catalog->RenameTable(t, TableIdentifier{Ns({"db"}), "u"}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(Ns({"db"})));
  EXPECT_EQ(tables, (std::vector<TableIdentifier>{{Ns({"db"}), "u"}}));
  EXPECT_EQ(Query("SELECT count(*) FROM pragma_table_info('iceberg_tables')"),
            (std::vector<std::string>{"5"}));
}

TEST_P(SqlCatalogTest, UnreachableDatabaseIsAClearError) {
  StringMap properties = {{"warehouse", warehouse_}};
  properties["uri"] = GetParam() == Backend::kSqlite
                          ? "jdbc:sqlite:" + (dir_.path() / "no" / "such" / "dir.db").string()
                          : "postgresql:///postgres?host=/nonexistent-floe-dir";
  auto catalog = CreateSqlCatalog("c", properties);
  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().kind(), ErrorKind::kIO) << catalog.error().ToString();
}

TEST_P(SqlCatalogTest, MadeByTheCatalogFactory) {
  StringMap properties = Properties();
  properties["catalog-type"] = "sql";
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, CreateCatalog(name_, properties));
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  EXPECT_EQ(Query("SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = " +
                  NameLiteral()),
            (std::vector<std::string>{"db"}));
}

TEST(SqlCatalogDefaultTest, WithOnlyAWarehouseTheCatalogIsASqliteFileBesideIt) {
  floe::testing::TempDir dir;
  std::string warehouse = (dir.path() / "wh").string();
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto catalog, CreateCatalog("local", {{"catalog-type", "sql"}, {"warehouse", warehouse}}));
  FLOE_ASSERT_OK(catalog->CreateNamespace(Ns({"db"}), {}));
  FLOE_ASSERT_OK(catalog->CreateTable(TableIdentifier{Ns({"db"}), "t"}, Request()));
  std::string file = warehouse + ".catalog.db";
  sqltest::CommandRun rows = sqltest::QueryWithClient(
      Backend::kSqlite, file,
      "SELECT catalog_name, table_namespace, table_name FROM iceberg_tables");
  EXPECT_EQ(rows.out, "local|db|t\n");
  EXPECT_TRUE(std::filesystem::exists(warehouse + "/db/t/metadata"));
}

INSTANTIATE_TEST_SUITE_P(Backends, SqlCatalogTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kRest),
                         sqltest::BackendName);

}  // namespace
}  // namespace floe::catalog
