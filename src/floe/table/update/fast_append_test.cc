#include "floe/table/update/fast_append.h"

#include <gtest/gtest.h>

#include <regex>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;

TEST(FastAppendTest, AppendsManifestPerCommitAndKeepsOldOnes) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/true));
  auto first = t.table->NewFastAppend();
  first->AppendFile(DataFile("/warehouse/db/t/data/a1.parquet", 10, "a"))
      .AppendFile(DataFile("/warehouse/db/t/data/b1.parquet", 5, "b"));
  FLOE_ASSERT_OK(first->Commit());
  auto second = t.table->NewFastAppend();
  second->AppendFile(DataFile("/warehouse/db/t/data/a2.parquet", 7, "a"));
  FLOE_ASSERT_OK(second->Commit());

  TableMetadataPtr metadata = t.table->metadata();
  ASSERT_EQ(metadata->snapshots().size(), 2u);
  SnapshotPtr s1 = metadata->SnapshotById(first->snapshot_id());
  SnapshotPtr s2 = metadata->current_snapshot();
  ASSERT_TRUE(s1 && s2);
  EXPECT_EQ(s2->snapshot_id, second->snapshot_id());
  EXPECT_GT(s2->snapshot_id, 0);
  EXPECT_EQ(s2->parent_snapshot_id, s1->snapshot_id);
  EXPECT_EQ(s1->sequence_number, 1);
  EXPECT_EQ(s2->sequence_number, 2);
  EXPECT_EQ(metadata->last_sequence_number(), 2);
  EXPECT_EQ(s2->operation(), "append");

  // Names and folder as Iceberg writes them.
  std::regex list_name(R"(/warehouse/db/t/metadata/snap-\d+-1-[0-9a-f-]{36}\.avro)");
  EXPECT_TRUE(std::regex_match(s2->manifest_list, list_name)) << s2->manifest_list;

  auto manifests = test::ManifestsOf(*t.io, *s2);
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].added_snapshot_id, s2->snapshot_id);
  EXPECT_EQ(manifests[0].sequence_number, 2);
  EXPECT_EQ(manifests[0].added_files_count, 1);
  EXPECT_EQ(manifests[1].added_snapshot_id, s1->snapshot_id);  // carried over unchanged
  EXPECT_EQ(manifests[1].sequence_number, 1);
  EXPECT_EQ(manifests[1].added_files_count, 2);
  std::regex manifest_name(R"(/warehouse/db/t/metadata/[0-9a-f-]{36}-m0\.avro)");
  EXPECT_TRUE(std::regex_match(manifests[0].manifest_path, manifest_name));

  auto entries = test::EntriesOf(*t.io, *s2);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].data_file.file_path, "/warehouse/db/t/data/a2.parquet");
  EXPECT_EQ(entries[0].status, manifest::EntryStatus::kAdded);
  EXPECT_EQ(entries[0].sequence_number, 2);
  EXPECT_EQ(entries[0].snapshot_id, s2->snapshot_id);
  EXPECT_EQ(entries[1].sequence_number, 1);

  EXPECT_EQ(s1->summary.at("added-data-files"), "2");
  EXPECT_EQ(s1->summary.at("added-records"), "15");
  EXPECT_EQ(s1->summary.at("added-files-size"), "215");
  EXPECT_EQ(s1->summary.at("changed-partition-count"), "2");
  EXPECT_EQ(s2->summary.at("added-data-files"), "1");
  EXPECT_EQ(s2->summary.at("total-data-files"), "3");
  EXPECT_EQ(s2->summary.at("total-records"), "22");
  EXPECT_EQ(s2->summary.at("total-files-size"), "322");
  EXPECT_EQ(s2->summary.at("total-delete-files"), "0");
  EXPECT_EQ(s2->summary.at("total-position-deletes"), "0");
  EXPECT_EQ(s2->summary.at("total-equality-deletes"), "0");
  EXPECT_EQ(s2->summary.at("changed-partition-count"), "1");
  EXPECT_FALSE(s2->summary.contains("deleted-data-files"));
}

TEST(FastAppendTest, V3AssignsRowLineage) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/false, 3));
  FLOE_ASSERT_OK(t.table->NewFastAppend()->AppendFile(DataFile("/d/1.parquet", 10)).Commit());
  FLOE_ASSERT_OK(t.table->NewFastAppend()->AppendFile(DataFile("/d/2.parquet", 4)).Commit());
  TableMetadataPtr metadata = t.table->metadata();
  SnapshotPtr s2 = metadata->current_snapshot();
  SnapshotPtr s1 = metadata->SnapshotById(*s2->parent_snapshot_id);
  EXPECT_EQ(s1->first_row_id, 0);
  EXPECT_EQ(s1->added_rows, 10);
  EXPECT_EQ(s2->first_row_id, 10);
  EXPECT_EQ(s2->added_rows, 4);
  EXPECT_EQ(metadata->next_row_id(), 14);
  auto entries = test::EntriesOf(*t.io, *s2);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].data_file.first_row_id, 10);
  EXPECT_EQ(entries[1].data_file.first_row_id, 0);
}

TEST(FastAppendTest, CommitsToBranchWithoutMovingMain) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/false));
  FLOE_ASSERT_OK(t.table->NewFastAppend()->AppendFile(DataFile("/d/1.parquet", 1)).Commit());
  int64_t main_id = *t.table->metadata()->current_snapshot_id();
  auto append = t.table->NewFastAppend();
  append->AppendFile(DataFile("/d/2.parquet", 1)).ToBranch("audit");
  FLOE_ASSERT_OK(append->Commit());
  TableMetadataPtr metadata = t.table->metadata();
  EXPECT_EQ(metadata->current_snapshot_id(), main_id);
  const SnapshotRef* audit = metadata->FindRef("audit");
  ASSERT_NE(audit, nullptr);
  EXPECT_EQ(audit->snapshot_id, append->snapshot_id());
  EXPECT_EQ(metadata->SnapshotById(audit->snapshot_id)->parent_snapshot_id, main_id);
}

TEST(FastAppendTest, RejectsDeleteFilesAndUnknownSpecs) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/false));
  auto deletes = t.table->NewFastAppend();
  deletes->AppendFile(test::PositionDeletes("/d/del.parquet", 1, "/d/1.parquet"));
  Status status = deletes->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument);
  auto bad_spec = t.table->NewFastAppend();
  manifest::DataFile file = DataFile("/d/1.parquet", 1);
  file.spec_id = 7;
  bad_spec->AppendFile(file);
  EXPECT_FALSE(bad_spec->Commit());
  // Nothing was left behind in the metadata folder but the table's metadata files.
  auto listing = t.io->List("/warehouse/db/t/metadata").value();
  for (const auto& entry : listing) {
    EXPECT_NE(entry.name.find(".metadata.json"), std::string::npos) << entry.name;
  }
}

TEST(FastAppendTest, SummaryFromBaseIsRecomputedOnTheRetriedBase) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/false));
  auto stale = t.Open();
  FLOE_ASSERT_OK(t.table->NewFastAppend()
                     ->AppendFile(DataFile("/d/1.parquet", 1))
                     .SetSummaryProperty("count", "1")
                     .Commit());
  // Opened before that commit: the first attempt is on a base without it, the retry on one with.
  std::vector<std::string> seen;
  auto append = stale->NewFastAppend();
  append->AppendFile(DataFile("/d/2.parquet", 1))
      .SetSummaryFromBase([&](const TableMetadata&, const Snapshot* parent) -> Result<StringMap> {
        std::string count = parent ? parent->summary.at("count") : "0";
        seen.push_back(count);
        return StringMap{{"count", std::to_string(std::stoi(count) + 1)}};
      });
  FLOE_ASSERT_OK(append->Commit());
  EXPECT_EQ(seen, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(t.Open()->metadata()->current_snapshot()->summary.at("count"), "2");

  // An error fails the commit without a retry, and nothing commits.
  int calls = 0;
  std::shared_ptr<Table> other = t.Open();  // outlives the change that refers to it
  auto refused = other->NewFastAppend();
  refused->AppendFile(DataFile("/d/3.parquet", 1))
      .SetSummaryFromBase([&](const TableMetadata&, const Snapshot*) -> Result<StringMap> {
        ++calls;
        return std::unexpected(Error(ErrorKind::kCommitFailed, "fenced"));
      });
  Status status = refused->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message(), "fenced");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(t.Open()->metadata()->snapshots().size(), 2u);
}

}  // namespace
}  // namespace floe::table
