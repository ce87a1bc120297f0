// The Glue catalog on moto's Glue, with its warehouse in moto's S3: the catalog contract (the
// checks the sql and REST catalogs pass, test_commits.h), the layout Iceberg's GlueCatalog writes
// as the aws CLI reads it back, conflicts through a proxy that checks VersionId as Glue does,
// and commits whose answer is lost. Skipped without moto.

#include "floe/catalog/glue/glue_catalog.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "floe/catalog/glue/glue_operations_internal.h"
#include "floe/catalog/glue/glue_test_support.h"
#include "floe/catalog/glue/version_checking_glue_test_support.h"
#include "floe/catalog/test_commits.h"
#include "floe/io/s3/s3_file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/testing/fault_proxy.h"

namespace floe::catalog {
namespace {

using gluetest::AwsGlue;

CreateTableRequest Request() {
  CreateTableRequest request;
  request.schema = std::make_shared<Schema>(std::vector<NestedField>{
      {1, "id", types::Long(), true}, {2, "data", types::String(), false, "the payload"}});
  return request;
}

class GlueCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_REQUIRE_S3_SERVER();
    moto_ = floe::testing::S3Server::Get().endpoint();
    s3_ = std::make_unique<io::S3Client>(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(bucket_, io::NewTestBucket(*s3_, "glue"));
    db_ = gluetest::UniqueDatabase("db");
  }

  Result<std::shared_ptr<Catalog>> Open(const std::string& glue_endpoint = "") {
    return CreateGlueCatalog(
        "glue", gluetest::MotoProperties(glue_endpoint.empty() ? moto_ : glue_endpoint, bucket_));
  }

  std::string TableFolder(const std::string& db, const std::string& table) const {
    return fmt::format("s3://{}/wh/{}.db/{}", bucket_, db, table);
  }

  // The .metadata.json objects under the table's folder.
  int CountMetadataFiles(const std::string& db, const std::string& table) {
    auto listing = s3_->List(bucket_, fmt::format("wh/{}.db/{}/metadata/", db, table), "");
    EXPECT_TRUE(listing) << listing.error().ToString();
    int count = 0;
    if (listing) {
      for (const auto& object : listing->objects) count += object.key.ends_with(".metadata.json");
    }
    return count;
  }

  bool Exists(const std::string& location) {
    auto path = io::ParseS3Location(location);
    EXPECT_TRUE(path) << location;
    return path && s3_->Head(path->bucket, path->key).has_value();
  }

  std::string moto_;
  std::string bucket_;
  std::string db_;
  std::unique_ptr<io::S3Client> s3_;
};

TEST_F(GlueCatalogTest, NamespacesAreGlueDatabases) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  Namespace ns{{db_}};
  FLOE_ASSERT_OK(catalog->CreateNamespace(
      ns, {{"comment", "the db"}, {"location", "s3://" + bucket_ + "/dbs/x"}, {"owner", "alice"}}));
  auto again = catalog->CreateNamespace(ns, {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_NE(again.error().message().find("Glue CreateDatabase: AlreadyExistsException"),
            std::string::npos)
      << again.error().message();
  EXPECT_TRUE(catalog->NamespaceExists(ns).value());
  FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties, catalog->LoadNamespaceProperties(ns));
  EXPECT_EQ(properties, (StringMap{{"comment", "the db"},
                                   {"location", "s3://" + bucket_ + "/dbs/x"},
                                   {"owner", "alice"}}));
  FLOE_ASSERT_OK(
      catalog->UpdateNamespaceProperties(ns, {{"owner", "bob"}, {"new", "1"}}, {"comment"}));
  EXPECT_EQ(catalog->UpdateNamespaceProperties(ns, {{"a", "1"}}, {"a"}).error().kind(),
            ErrorKind::kInvalidArgument);

  // What Glue holds, read by the aws CLI: comment and location in the database's own fields.
  if (gluetest::AwsCliInstalled()) {
    FLOE_ASSERT_OK_AND_ASSIGN(Json shown, AwsGlue(moto_, "get-database --name " + db_));
    const Json* database = shown.Find("Database");
    ASSERT_NE(database, nullptr) << shown.Dump();
    EXPECT_EQ(database->GetString("LocationUri").value_or(""), "s3://" + bucket_ + "/dbs/x");
    EXPECT_EQ(database->Find("Description"), nullptr) << shown.Dump();
    const Json* parameters = database->Find("Parameters");
    ASSERT_NE(parameters, nullptr);
    EXPECT_EQ(parameters->GetString("owner").value_or(""), "bob");
    EXPECT_EQ(parameters->GetString("new").value_or(""), "1");
  }

  FLOE_ASSERT_OK_AND_ASSIGN(auto top, catalog->ListNamespaces(Namespace{}));
  EXPECT_NE(std::find(top.begin(), top.end(), ns), top.end());
  FLOE_ASSERT_OK_AND_ASSIGN(auto children, catalog->ListNamespaces(ns));
  EXPECT_TRUE(children.empty());
  EXPECT_EQ(catalog->ListNamespaces(Namespace{{db_ + "_none"}}).error().kind(),
            ErrorKind::kNotFound);

  // Glue databases do not nest, and take Iceberg's GlueCatalog names only.
  for (const Namespace& bad : {Namespace{{db_, "b"}}, Namespace{{"Upper"}}, Namespace{{"a-b"}},
                               Namespace{{"a.b"}}, Namespace{{""}}}) {
    auto status = catalog->CreateNamespace(bad, {});
    ASSERT_FALSE(status) << bad.ToString();
    EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument) << bad.ToString();
  }

  FLOE_ASSERT_OK(catalog->CreateTable(TableIdentifier{ns, "t"}, Request()));
  auto not_empty = catalog->DropNamespace(ns);
  ASSERT_FALSE(not_empty);
  EXPECT_NE(not_empty.error().message().find("holds tables"), std::string::npos);
  FLOE_ASSERT_OK(catalog->DropTable(TableIdentifier{ns, "t"}, true));
  FLOE_ASSERT_OK(catalog->DropNamespace(ns));
  EXPECT_FALSE(catalog->NamespaceExists(ns).value());
  auto gone = catalog->DropNamespace(ns);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(gone.error().message().find("GetDatabase: EntityNotFoundException"), std::string::npos)
      << gone.error().message();
}

TEST_F(GlueCatalogTest, TablesCreateListLoadRenameDropRegister) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Namespace{{db_}}, "t"};
  EXPECT_EQ(catalog->CreateTable(t, Request()).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(t.ns, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable created, catalog->CreateTable(t, Request()));
  EXPECT_EQ(created.metadata->location(), TableFolder(db_, "t"));
  EXPECT_TRUE(created.metadata_location.starts_with(TableFolder(db_, "t") + "/metadata/00000-"))
      << created.metadata_location;
  EXPECT_TRUE(Exists(created.metadata_location));
  EXPECT_EQ(catalog->CreateTable(t, Request()).error().kind(), ErrorKind::kAlreadyExists);
  EXPECT_EQ(CountMetadataFiles(db_, "t"), 1);

  // The table as Iceberg's GlueCatalog lays it out, read by the aws CLI.
  if (gluetest::AwsCliInstalled()) {
    FLOE_ASSERT_OK_AND_ASSIGN(
        Json shown, AwsGlue(moto_, fmt::format("get-table --database-name {} --name t", db_)));
    const Json* table = shown.Find("Table");
    ASSERT_NE(table, nullptr) << shown.Dump();
    EXPECT_EQ(table->GetString("TableType").value_or(""), "EXTERNAL_TABLE");
    const Json* parameters = table->Find("Parameters");
    ASSERT_NE(parameters, nullptr);
    EXPECT_EQ(parameters->GetString("table_type").value_or(""), "ICEBERG");
    EXPECT_EQ(parameters->GetString("metadata_location").value_or(""), created.metadata_location);
    EXPECT_EQ(parameters->Find("previous_metadata_location"), nullptr);
    const Json* storage = table->Find("StorageDescriptor");
    ASSERT_NE(storage, nullptr);
    EXPECT_EQ(storage->GetString("Location").value_or(""), TableFolder(db_, "t"));
    const Json* columns = storage->Find("Columns");
    ASSERT_TRUE(columns != nullptr && columns->is_array() && columns->as_array().size() == 2)
        << shown.Dump();
    const Json& data = columns->as_array()[1];
    EXPECT_EQ(data.GetString("Name").value_or(""), "data");
    EXPECT_EQ(data.GetString("Type").value_or(""), "string");
    EXPECT_EQ(data.GetString("Comment").value_or(""), "the payload");
    EXPECT_EQ(columns->as_array()[0].GetString("Type").value_or(""), "bigint");
    const Json* field = data.Find("Parameters");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->GetString("iceberg.field.id").value_or(""), "2");
    EXPECT_EQ(field->GetString("iceberg.field.optional").value_or(""), "true");
    EXPECT_EQ(field->GetString("iceberg.field.current").value_or(""), "true");
  }

  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(t.ns));
  EXPECT_EQ(tables, (std::vector<TableIdentifier>{t}));
  EXPECT_EQ(catalog->ListTables(Namespace{{db_ + "_none"}}).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(t));
  EXPECT_EQ(loaded.metadata_location, created.metadata_location);
  EXPECT_EQ(loaded.metadata->table_uuid(), created.metadata->table_uuid());

  // Rename: only into an existing database, never onto a taken name.
  std::string db2 = gluetest::UniqueDatabase("db2");
  TableIdentifier moved{Namespace{{db2}}, "moved"};
  EXPECT_EQ(catalog->RenameTable(t, moved).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(moved.ns, {}));
  TableIdentifier other{moved.ns, "other"};
  FLOE_ASSERT_OK(catalog->CreateTable(other, Request()));
  EXPECT_EQ(catalog->RenameTable(t, other).error().kind(), ErrorKind::kAlreadyExists);
  FLOE_ASSERT_OK(catalog->LoadTable(t));
  FLOE_ASSERT_OK(catalog->RenameTable(t, moved));
  EXPECT_EQ(catalog->LoadTable(t).error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable renamed, catalog->LoadTable(moved));
  EXPECT_EQ(renamed.metadata_location, created.metadata_location);
  EXPECT_EQ(catalog->RenameTable(t, moved).error().kind(), ErrorKind::kNotFound);

  // Drop without purge forgets the table and keeps its files; register brings it back.
  FLOE_ASSERT_OK(catalog->DropTable(moved, /*purge=*/false));
  EXPECT_FALSE(catalog->TableExists(moved).value());
  EXPECT_EQ(catalog->DropTable(moved, false).error().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(Exists(created.metadata_location));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable registered,
                            catalog->RegisterTable(moved, created.metadata_location));
  EXPECT_EQ(registered.metadata->table_uuid(), created.metadata->table_uuid());
  EXPECT_EQ(catalog->RegisterTable(moved, created.metadata_location).error().kind(),
            ErrorKind::kAlreadyExists);
  EXPECT_EQ(catalog
                ->RegisterTable(TableIdentifier{moved.ns, "x"},
                                "s3://" + bucket_ + "/missing.metadata.json")
                .error()
                .kind(),
            ErrorKind::kNotFound);

  // Drop with purge deletes the table's files.
  FLOE_ASSERT_OK(catalog->DropTable(moved, /*purge=*/true));
  EXPECT_FALSE(Exists(created.metadata_location));
  FLOE_ASSERT_OK_AND_ASSIGN(auto left, catalog->ListTables(moved.ns));
  EXPECT_EQ(left, (std::vector<TableIdentifier>{other}));
}

TEST_F(GlueCatalogTest, OtherGlueTablesAreNotIcebergTables) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  FLOE_ASSERT_OK(catalog->CreateNamespace(Namespace{{db_}}, {}));
  glue::GlueClient client(
      glue::GlueClientOptionsFrom(gluetest::MotoProperties(moto_, bucket_)).value());
  Json input = Json::MakeObject();
  input.Set("Name", "hive_table");
  input.Set("TableType", "EXTERNAL_TABLE");
  FLOE_ASSERT_OK(glue::CreateTable(client, db_, input));
  FLOE_ASSERT_OK_AND_ASSIGN(auto tables, catalog->ListTables(Namespace{{db_}}));
  EXPECT_TRUE(tables.empty());
  TableIdentifier hive{Namespace{{db_}}, "hive_table"};
  auto loaded = catalog->LoadTable(hive);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(loaded.error().message().find("not an Iceberg table"), std::string::npos)
      << loaded.error().message();
  EXPECT_EQ(catalog->CreateTable(hive, Request()).error().kind(), ErrorKind::kAlreadyExists);
  auto missing = catalog->LoadTable(TableIdentifier{Namespace{{db_}}, "nope"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("Glue GetTable: EntityNotFoundException"),
            std::string::npos)
      << missing.error().message();
}

TEST_F(GlueCatalogTest, CommitSwapsTheMetadataLocation) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Namespace{{db_}}, "t"};
  FLOE_ASSERT_OK(catalog->CreateNamespace(t.ns, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, catalog->CreateTable(t, Request()));

  TableCommit commit;
  commit.requirements = {AssertTableUuid{base.metadata->table_uuid()}};
  commit.updates = {SetProperties{{{"owner", "floe"}}}};
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable next, catalog->CommitTable(t, commit));
  EXPECT_TRUE(next.metadata_location.starts_with(TableFolder(db_, "t") + "/metadata/00001-"))
      << next.metadata_location;
  EXPECT_EQ(next.metadata->property("owner"), "floe");
  ASSERT_EQ(next.metadata->metadata_log().size(), 1u);
  EXPECT_EQ(next.metadata->metadata_log()[0].metadata_file, base.metadata_location);
  if (gluetest::AwsCliInstalled()) {
    FLOE_ASSERT_OK_AND_ASSIGN(
        Json shown, AwsGlue(moto_, fmt::format("get-table --database-name {} --name t", db_)));
    const Json* parameters = shown.Find("Table")->Find("Parameters");
    ASSERT_NE(parameters, nullptr) << shown.Dump();
    EXPECT_EQ(parameters->GetString("metadata_location").value_or(""), next.metadata_location);
    EXPECT_EQ(parameters->GetString("previous_metadata_location").value_or(""),
              base.metadata_location);
  }

  // A requirement that no longer holds: retryable, nothing changed, no file left behind.
  TableCommit stale;
  stale.requirements = {AssertTableUuid{"00000000-0000-0000-0000-000000000000"}};
  stale.updates = {SetProperties{{{"owner", "nobody"}}}};
  auto failed = catalog->CommitTable(t, stale);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(failed.error().retryable());
  EXPECT_EQ(CountMetadataFiles(db_, "t"), 2);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog->LoadTable(t));
  EXPECT_EQ(after.metadata_location, next.metadata_location);

  EXPECT_EQ(catalog->CommitTable(TableIdentifier{t.ns, "nope"}, commit).error().kind(),
            ErrorKind::kNotFound);
}

TEST_F(GlueCatalogTest, CreateCommitCreatesTheTable) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Namespace{{db_}}, "t"};
  auto no_namespace = catalog->CommitTable(t, testing::CreateCommit());
  ASSERT_FALSE(no_namespace);
  EXPECT_EQ(no_namespace.error().kind(), ErrorKind::kNotFound);
  FLOE_ASSERT_OK(catalog->CreateNamespace(t.ns, {}));
  testing::ExpectCreateCommitWorks(*catalog, t, TableFolder(db_, "t"));
}

TEST_F(GlueCatalogTest, MadeByTheCatalogFactoryWithADatabaseLocation) {
  StringMap properties = gluetest::MotoProperties(moto_, bucket_);
  properties["catalog-type"] = "glue";
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, CreateCatalog("lake", properties));
  FLOE_ASSERT_OK(catalog->CreateNamespace(Namespace{{db_}},
                                          {{"location", "s3://" + bucket_ + "/elsewhere/"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(
      LoadedTable created, catalog->CreateTable(TableIdentifier{Namespace{{db_}}, "t"}, Request()));
  // A database with a location holds its tables there, as in Iceberg's GlueCatalog.
  EXPECT_EQ(created.metadata->location(), "s3://" + bucket_ + "/elsewhere/t");
  properties["glue.endpoint"] = "ftp://x";
  EXPECT_EQ(CreateCatalog("lake", properties).error().kind(), ErrorKind::kInvalidArgument);
}

// moto's UpdateTable ignores VersionId: the reason for VersionCheckingGlue. When moto learns the
// check this fails, and the proxy can go.
TEST_F(GlueCatalogTest, MotoAppliesAStaleVersionId) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open());
  TableIdentifier t{Namespace{{db_}}, "t"};
  FLOE_ASSERT_OK(catalog->CreateNamespace(t.ns, {}));
  FLOE_ASSERT_OK(catalog->CreateTable(t, Request()));
  glue::GlueClient client(
      glue::GlueClientOptionsFrom(gluetest::MotoProperties(moto_, bucket_)).value());
  FLOE_ASSERT_OK_AND_ASSIGN(glue::GlueTable first, glue::GetTable(client, db_, "t"));
  FLOE_ASSERT_OK(glue::UpdateTable(client, db_, first.input, first.version_id, true));
  FLOE_ASSERT_OK_AND_ASSIGN(glue::GlueTable second, glue::GetTable(client, db_, "t"));
  EXPECT_NE(second.version_id, first.version_id);
  EXPECT_TRUE(glue::UpdateTable(client, db_, first.input, first.version_id, true))
      << "moto now refuses a stale VersionId";
}

// Writer B reads the table, writer A commits between B's last read and B's UpdateTable: Glue
// refuses B's update (its VersionId is stale), B gets a retryable conflict naming the operation,
// its metadata file is deleted, and B's retry lands on top of A's commit: no commit is lost.
TEST_F(GlueCatalogTest, AConcurrentUpdateTableLosesCleanly) {
  gluetest::VersionCheckingGlue glue(moto_);
  FLOE_ASSERT_OK_AND_ASSIGN(auto a, Open(glue.endpoint()));
  FLOE_ASSERT_OK_AND_ASSIGN(auto b, Open(glue.endpoint()));
  TableIdentifier t{Namespace{{db_}}, "t"};
  FLOE_ASSERT_OK(a->CreateNamespace(t.ns, {}));
  FLOE_ASSERT_OK(a->CreateTable(t, Request()));

  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable b_base, b->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit b_commit,
                            testing::AppendCommit(*b->file_io(), b_base, "b"));
  Status a_committed;
  glue.BeforeNextUpdate([&] {
    auto appended = testing::AppendWithRetry(*a, t, "a");
    if (!appended) a_committed = std::unexpected(appended.error());
  });
  auto lost = b->CommitTable(t, b_commit);
  FLOE_ASSERT_OK(a_committed);
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind(), ErrorKind::kCommitFailed) << lost.error().ToString();
  EXPECT_TRUE(lost.error().retryable());
  EXPECT_NE(lost.error().message().find("UpdateTable: ConcurrentModificationException"),
            std::string::npos)
      << lost.error().message();
  EXPECT_EQ(glue.refused_updates(), 1);
  // Created, A's commit; B's refused file is gone.
  EXPECT_EQ(CountMetadataFiles(db_, "t"), 2);

  FLOE_ASSERT_OK_AND_ASSIGN(int attempts, testing::AppendWithRetry(*b, t, "b"));
  EXPECT_EQ(attempts, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable final, a->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writers, testing::ChainWriters(*final.metadata));
  EXPECT_EQ(writers, (std::vector<std::string>{"b", "a"}));
}

// Threads appending through Glue's VersionId check: every commit lands exactly once, in one chain.
TEST_F(GlueCatalogTest, ThreadsAppendingToOneTable) {
  constexpr int kThreads = 4;
  constexpr int kCommits = 6;
  gluetest::VersionCheckingGlue glue(moto_);
  FLOE_ASSERT_OK_AND_ASSIGN(auto setup, Open(glue.endpoint()));
  TableIdentifier t{Namespace{{db_}}, "t"};
  FLOE_ASSERT_OK(setup->CreateNamespace(t.ns, {}));
  FLOE_ASSERT_OK(setup->CreateTable(t, Request()));
  std::vector<std::thread> threads;
  std::vector<Status> results(kThreads);
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      auto catalog = Open(glue.endpoint());
      if (!catalog) {
        results[w] = std::unexpected(catalog.error());
        return;
      }
      for (int i = 0; i < kCommits; ++i) {
        auto appended = testing::AppendWithRetry(**catalog, t, fmt::format("w{}-c{}", w, i));
        if (!appended) {
          results[w] = std::unexpected(appended.error());
          return;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const Status& result : results) FLOE_ASSERT_OK(result);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable final, setup->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writers, testing::ChainWriters(*final.metadata));
  EXPECT_EQ(writers.size(), size_t{kThreads * kCommits});
  EXPECT_EQ(std::set<std::string>(writers.begin(), writers.end()).size(),
            size_t{kThreads * kCommits});
  FLOE_ASSERT_OK_AND_ASSIGN(auto files,
                            testing::CurrentDataFiles(*setup->file_io(), *final.metadata));
  EXPECT_EQ(files.size(), size_t{kThreads * kCommits});
}

// The CreateTable of a create and the UpdateTable of a commit, their answers lost after Glue
// applied them (found landed by reading the table again); an UpdateTable lost before Glue saw it
// (commit state unknown: the new metadata file stays, the table still loads at its old state).
TEST_F(GlueCatalogTest, ALostAnswerIsLookedUpOrUnknown) {
  floe::testing::FaultProxy proxy(moto_);
  ASSERT_FALSE(proxy.endpoint().empty());
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, Open(proxy.endpoint()));
  TableIdentifier t{Namespace{{db_}}, "t"};
  FLOE_ASSERT_OK(catalog->CreateNamespace(t.ns, {}));
  // A create is GetDatabase, GetTable (none yet), CreateTable: its answer lost, the table is
  // found created.
  proxy.FailRequest(3, floe::testing::FaultProxy::Fault::kDropAfter);
  FLOE_ASSERT_OK(catalog->CreateTable(t, Request()));
  EXPECT_EQ(proxy.requests(), 4);

  // A commit is GetTable (the base), GetTable (after the file is written), UpdateTable.
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, catalog->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit first,
                            testing::AppendCommit(*catalog->file_io(), base, "x"));
  proxy.FailRequest(3, floe::testing::FaultProxy::Fault::kDropAfter);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable landed, catalog->CommitTable(t, first));
  EXPECT_EQ(proxy.requests(), 4);  // the fourth: the GetTable that found it landed
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog->LoadTable(t));
  EXPECT_EQ(loaded.metadata_location, landed.metadata_location);

  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit second,
                            testing::AppendCommit(*catalog->file_io(), loaded, "y"));
  proxy.FailRequest(3, floe::testing::FaultProxy::Fault::kDropBefore);
  auto unknown = catalog->CommitTable(t, second);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind(), ErrorKind::kCommitStateUnknown) << unknown.error().ToString();
  EXPECT_NE(unknown.error().message().find("UpdateTable"), std::string::npos)
      << unknown.error().message();
  // Created, x, and the file of the commit whose fate was unknown: kept.
  EXPECT_EQ(CountMetadataFiles(db_, "t"), 3);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog->LoadTable(t));
  EXPECT_EQ(after.metadata_location, landed.metadata_location);
  FLOE_ASSERT_OK_AND_ASSIGN(auto writers, testing::ChainWriters(*after.metadata));
  EXPECT_EQ(writers, (std::vector<std::string>{"x"}));
}

}  // namespace
}  // namespace floe::catalog
