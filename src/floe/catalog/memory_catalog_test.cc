#include "floe/catalog/memory_catalog.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "floe/catalog/test_commits.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

SchemaPtr EventsSchema() {
  // Ids deliberately not 1..n: create-table renumbers them.
  return std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(7, "id", types::Long()), types::Optional(9, "category", types::String())});
}

class MemoryCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    io_ = std::make_shared<io::LocalFileIO>();
    catalog_ = std::make_shared<MemoryCatalog>("mem", io_, dir_.path().string());
    FLOE_ASSERT_OK(catalog_->CreateNamespace(Namespace{{"db"}}, {{"owner", "floe"}}));
  }

  Result<LoadedTable> Create(const StringMap& properties = {}) {
    auto spec = std::make_shared<PartitionSpec>(
        0, std::vector<PartitionField>{PartitionField{.source_ids = {9},
                                                      .field_id = 1000,
                                                      .name = "category",
                                                      .transform = Transform::Identity()}});
    return catalog_->CreateTable(
        ident_,
        CreateTableRequest{.schema = EventsSchema(), .spec = spec, .properties = properties});
  }

  // A commit that adds a snapshot on top of the table's current one and moves main to it.
  static TableCommit AppendCommit(const TableMetadata& base, int64_t snapshot_id) {
    auto snapshot = std::make_shared<Snapshot>(
        Snapshot{.snapshot_id = snapshot_id,
                 .parent_snapshot_id = base.current_snapshot_id(),
                 .sequence_number = base.last_sequence_number() + 1,
                 .timestamp_ms = 1700000000000 + snapshot_id,
                 .manifest_list = base.location() + "/metadata/snap.avro",
                 .summary = {{"operation", "append"}}});
    return TableCommit{
        .requirements = {AssertRefSnapshotId{"main", base.current_snapshot_id()}},
        .updates = {AddSnapshot{snapshot}, SetSnapshotRef{"main", SnapshotRef{snapshot_id}}}};
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<io::LocalFileIO> io_;
  std::shared_ptr<MemoryCatalog> catalog_;
  TableIdentifier ident_{Namespace{{"db"}}, "events"};
};

TEST_F(MemoryCatalogTest, CreatesATableAsIcebergDoes) {
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, Create({{"format-version", "1"}, {"k", "v"}}));
  EXPECT_EQ(table.metadata->location(), (dir_.path() / "db" / "events").string());
  EXPECT_EQ(table.metadata->format_version(), 1);
  EXPECT_EQ(table.metadata->properties(), (StringMap{{"k", "v"}}));
  // Fresh ids: columns 1..n, the partition field from 1000 pointing at the renumbered column.
  const Schema& schema = *table.metadata->current_schema();
  EXPECT_EQ(schema.FindField("id")->id, 1);
  EXPECT_EQ(schema.FindField("category")->id, 2);
  EXPECT_EQ(table.metadata->last_column_id(), 2);
  ASSERT_EQ(table.metadata->default_spec()->fields().size(), 1u);
  EXPECT_EQ(table.metadata->default_spec()->fields()[0].source_id(), 2);
  EXPECT_EQ(table.metadata->last_partition_id(), 1000);
  // The file on disk is the metadata the catalog returned.
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr read,
                            ReadTableMetadata(*io_, table.metadata_location));
  EXPECT_EQ(read->table_uuid(), table.metadata->table_uuid());
  EXPECT_TRUE(table.metadata_location.starts_with(table.metadata->location() + "/metadata/00000-"));

  auto again = Create();
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
}

TEST_F(MemoryCatalogTest, CommitsAppendSnapshotsAndLogsThem) {
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, Create());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after,
                            catalog_->CommitTable(ident_, AppendCommit(*table.metadata, 11)));
  EXPECT_EQ(after.metadata->current_snapshot_id(), 11);
  EXPECT_EQ(after.metadata->last_sequence_number(), 1);
  ASSERT_EQ(after.metadata->snapshot_log().size(), 1u);
  EXPECT_EQ(after.metadata->snapshot_log()[0].timestamp_ms, 1700000000011);
  ASSERT_EQ(after.metadata->metadata_log().size(), 1u);
  EXPECT_EQ(after.metadata->metadata_log()[0].metadata_file, table.metadata_location);
  EXPECT_TRUE(after.metadata_location.starts_with(after.metadata->location() + "/metadata/00001-"));

  // The same commit again is stale: main moved.
  auto stale = catalog_->CommitTable(ident_, AppendCommit(*table.metadata, 12));
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(stale.error().retryable());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable loaded, catalog_->LoadTable(ident_));
  EXPECT_EQ(loaded.metadata_location, after.metadata_location);
}

TEST_F(MemoryCatalogTest, CreateCommitAddsTheTable) {
  testing::ExpectCreateCommitWorks(*catalog_, ident_, dir_.path().string() + "/db/events");
  auto no_namespace =
      catalog_->CommitTable(TableIdentifier{Namespace{{"nope"}}, "t"}, testing::CreateCommit());
  ASSERT_FALSE(no_namespace);
  EXPECT_EQ(no_namespace.error().kind(), ErrorKind::kNotFound);
}

TEST_F(MemoryCatalogTest, ConcurrentCommitsFormOneChain) {
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, Create());
  constexpr int kThreads = 8;
  constexpr int kCommits = 20;
  std::atomic<int> failures = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        int64_t id = 1 + t * 1000 + i;
        while (true) {
          auto base = catalog_->LoadTable(ident_);
          if (!base) break;
          auto result = catalog_->CommitTable(ident_, AppendCommit(*base->metadata, id));
          if (result) break;
          if (!result.error().retryable()) {
            ++failures;
            break;
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, 0);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable final_table, catalog_->LoadTable(ident_));
  const TableMetadata& m = *final_table.metadata;
  ASSERT_EQ(m.snapshots().size(), size_t{kThreads * kCommits});
  // Walk the parent chain from the current snapshot: it visits every snapshot once.
  std::set<int64_t> visited;
  std::optional<int64_t> at = m.current_snapshot_id();
  int64_t expected_sequence = kThreads * kCommits;
  while (at) {
    SnapshotPtr snapshot = m.SnapshotById(*at);
    ASSERT_NE(snapshot, nullptr);
    EXPECT_EQ(snapshot->sequence_number, expected_sequence--);
    EXPECT_TRUE(visited.insert(*at).second);
    at = snapshot->parent_snapshot_id;
  }
  EXPECT_EQ(visited.size(), size_t{kThreads * kCommits});
  EXPECT_EQ(m.snapshot_log().size(), size_t{kThreads * kCommits});
}

TEST_F(MemoryCatalogTest, NamespacesHoldPropertiesAndRefuseToDropWhenNotEmpty) {
  FLOE_ASSERT_OK_AND_ASSIGN(StringMap properties,
                            catalog_->LoadNamespaceProperties(Namespace{{"db"}}));
  EXPECT_EQ(properties, (StringMap{{"owner", "floe"}}));
  FLOE_ASSERT_OK(Create());
  auto dropped = catalog_->DropNamespace(Namespace{{"db"}});
  ASSERT_FALSE(dropped.has_value());
  EXPECT_EQ(dropped.error().kind(), ErrorKind::kInvalidArgument);
  FLOE_ASSERT_OK(catalog_->DropTable(ident_, /*purge=*/true));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "db" / "events"));
  FLOE_ASSERT_OK(catalog_->DropNamespace(Namespace{{"db"}}));
  auto missing = catalog_->LoadTable(ident_);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
}

TEST_F(MemoryCatalogTest, RejectsIdentifiersThatEscapeTheWarehouse) {
  auto bad = catalog_->CreateTable(TableIdentifier{Namespace{{".."}}, "x"},
                                   CreateTableRequest{.schema = EventsSchema()});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::catalog
