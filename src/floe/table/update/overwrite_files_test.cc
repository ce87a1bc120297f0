#include "floe/table/update/overwrite_files.h"

#include <gtest/gtest.h>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/replace_partitions.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;

using OverwriteTest = test::TwoFileTableTest;

TEST_F(OverwriteTest, ByRowFilterReplacesMatchingPartition) {
  auto overwrite = t_.table->NewOverwrite();
  overwrite->OverwriteByRowFilter(expr::Equal("category", Literal::String("a")))
      .AddFile(DataFile("/d/a2.parquet", 3, "a"))
      .ValidateAddedFilesMatchOverwriteFilter();
  FLOE_ASSERT_OK(overwrite->Commit());
  EXPECT_EQ(test::LiveFiles(*t_.table), (std::set<std::string>{"/d/a2.parquet", "/d/b1.parquet"}));
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->operation(), "overwrite");
  EXPECT_EQ(s->summary.at("deleted-data-files"), "1");
  EXPECT_EQ(s->summary.at("deleted-records"), "10");
  EXPECT_EQ(s->summary.at("added-records"), "3");
  EXPECT_EQ(s->summary.at("total-records"), "23");
  EXPECT_EQ(s->summary.at("total-data-files"), "2");
  // The removed file stays in a rewritten manifest as DELETED by this snapshot.
  bool found_deleted = false;
  for (const auto& entry : test::EntriesOf(*t_.io, *s)) {
    if (entry.data_file.file_path == "/d/a1.parquet") {
      found_deleted = true;
      EXPECT_EQ(entry.status, manifest::EntryStatus::kDeleted);
      EXPECT_EQ(entry.snapshot_id, s->snapshot_id);
      EXPECT_EQ(entry.sequence_number, 1);
    }
    if (entry.data_file.file_path == "/d/b1.parquet") {
      EXPECT_EQ(entry.status, manifest::EntryStatus::kExisting);
      EXPECT_EQ(entry.snapshot_id, start_);
    }
  }
  EXPECT_TRUE(found_deleted);
}

TEST_F(OverwriteTest, PartialMatchIsAnError) {
  // ids 0..100 in every file: id < 50 matches some rows of each, all of none.
  auto overwrite = t_.table->NewOverwrite();
  overwrite->OverwriteByRowFilter(expr::LessThan("id", Literal::Long(50)));
  Status status = overwrite->Commit();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message().find("some, but not all"), std::string::npos);
  EXPECT_EQ(t_.table->metadata()->current_snapshot_id(), start_);
}

TEST_F(OverwriteTest, MetricsDecideWholeFiles) {
  auto overwrite = t_.table->NewOverwrite();
  overwrite->OverwriteByRowFilter(expr::LessThan("id", Literal::Long(1000)));
  FLOE_ASSERT_OK(overwrite->Commit());
  EXPECT_TRUE(test::LiveFiles(*t_.table).empty());
  EXPECT_EQ(t_.table->metadata()->current_snapshot()->operation(), "delete");
}

TEST_F(OverwriteTest, AddedFileOutsideFilterFailsValidation) {
  auto overwrite = t_.table->NewOverwrite();
  overwrite->OverwriteByRowFilter(expr::Equal("category", Literal::String("a")))
      .AddFile(DataFile("/d/b2.parquet", 3, "b"))
      .ValidateAddedFilesMatchOverwriteFilter();
  Status status = overwrite->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_FALSE(status.error().retryable());
}

TEST_F(OverwriteTest, ConflictingAppendSinceStartFails) {
  auto overwrite = t_.table->NewOverwrite();
  overwrite->OverwriteByRowFilter(expr::Equal("category", Literal::String("a")))
      .AddFile(DataFile("/d/a2.parquet", 3, "a"))
      .ValidateFromSnapshot(start_)
      .ValidateNoConflictingData();
  // Another writer appends to partition a, then to b.
  auto other = t_.Open();
  FLOE_ASSERT_OK(other->NewFastAppend()->AppendFile(DataFile("/d/b9.parquet", 1, "b")).Commit());
  FLOE_ASSERT_OK(t_.table->Refresh());
  auto ok = t_.table->NewOverwrite();
  ok->OverwriteByRowFilter(expr::Equal("category", Literal::String("a")))
      .AddFile(DataFile("/d/a3.parquet", 3, "a"))
      .ValidateFromSnapshot(start_)
      .ValidateNoConflictingData();
  FLOE_ASSERT_OK(ok->Commit());  // b's append does not conflict with a's overwrite

  FLOE_ASSERT_OK(other->NewFastAppend()->AppendFile(DataFile("/d/a9.parquet", 1, "a")).Commit());
  Status status = overwrite->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_FALSE(status.error().retryable());
  EXPECT_NE(status.error().message().find("/d/a"), std::string::npos);
}

TEST_F(OverwriteTest, ReplacePartitionsReplacesTouchedPartitionsOnly) {
  auto replace = t_.table->NewReplacePartitions();
  replace->AddFile(DataFile("/d/a2.parquet", 4, "a")).AddFile(DataFile("/d/c1.parquet", 5, "c"));
  FLOE_ASSERT_OK(replace->Commit());
  EXPECT_EQ(test::LiveFiles(*t_.table),
            (std::set<std::string>{"/d/a2.parquet", "/d/b1.parquet", "/d/c1.parquet"}));
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->operation(), "overwrite");
  EXPECT_EQ(s->summary.at("replace-partitions"), "true");
  EXPECT_EQ(s->summary.at("changed-partition-count"), "2");
  EXPECT_EQ(s->summary.at("total-records"), "29");

  auto append_only = t_.table->NewReplacePartitions();
  append_only->AddFile(DataFile("/d/b2.parquet", 1, "b")).ValidateAppendOnly();
  Status status = append_only->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
}

TEST(ReplacePartitionsTest, UnpartitionedReplacesWholeTable) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                                        /*partitioned=*/false));
  FLOE_ASSERT_OK(t.table->NewFastAppend()
                     ->AppendFile(DataFile("/d/1.parquet", 1))
                     .AppendFile(DataFile("/d/2.parquet", 2))
                     .Commit());
  int64_t start = *t.table->metadata()->current_snapshot_id();
  auto other = t.Open();
  FLOE_ASSERT_OK(t.table->NewReplacePartitions()->AddFile(DataFile("/d/3.parquet", 3)).Commit());
  EXPECT_EQ(test::LiveFiles(*t.table), (std::set<std::string>{"/d/3.parquet"}));
  // A replace validated from the start conflicts with the one that just landed.
  auto late = other->NewReplacePartitions();
  late->AddFile(DataFile("/d/4.parquet", 4))
      .ValidateFromSnapshot(start)
      .ValidateNoConflictingData();
  Status status = late->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_EQ(test::LiveFiles(*t.table), (std::set<std::string>{"/d/3.parquet"}));
}

}  // namespace
}  // namespace floe::table
