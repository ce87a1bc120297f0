#include "floe/table/update/merge_append.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/test_table.h"
#include "floe/table/update/update_properties.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;

TEST(MergeAppendTest, MergesOnceMinCountIsReached) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/false, 2,
                                  {{"commit.manifest.min-count-to-merge", "3"}}));
  FLOE_ASSERT_OK(t.table->NewMergeAppend()->AppendFile(DataFile("/d/1.parquet", 1)).Commit());
  FLOE_ASSERT_OK(t.table->NewMergeAppend()->AppendFile(DataFile("/d/2.parquet", 2)).Commit());
  SnapshotPtr s2 = t.table->metadata()->current_snapshot();
  EXPECT_EQ(test::ManifestsOf(*t.io, *s2).size(), 2u);  // below the minimum: kept apart

  auto third = t.table->NewMergeAppend();
  third->AppendFile(DataFile("/d/3.parquet", 3));
  FLOE_ASSERT_OK(third->Commit());
  SnapshotPtr s3 = t.table->metadata()->current_snapshot();
  auto manifests = test::ManifestsOf(*t.io, *s3);
  ASSERT_EQ(manifests.size(), 1u);
  EXPECT_EQ(manifests[0].added_files_count, 1);
  EXPECT_EQ(manifests[0].existing_files_count, 2);
  EXPECT_EQ(manifests[0].added_snapshot_id, s3->snapshot_id);

  auto entries = test::EntriesOf(*t.io, *s3);
  ASSERT_EQ(entries.size(), 3u);
  std::map<std::string, manifest::ManifestEntry> by_path;
  for (const auto& entry : entries) by_path[entry.data_file.file_path] = entry;
  EXPECT_EQ(by_path["/d/3.parquet"].status, manifest::EntryStatus::kAdded);
  EXPECT_EQ(by_path["/d/3.parquet"].sequence_number, 3);
  EXPECT_EQ(by_path["/d/1.parquet"].status, manifest::EntryStatus::kExisting);
  EXPECT_EQ(by_path["/d/1.parquet"].sequence_number, 1);  // kept from the first commit
  EXPECT_EQ(by_path["/d/2.parquet"].sequence_number, 2);
  EXPECT_EQ(by_path["/d/2.parquet"].snapshot_id, s2->snapshot_id);
  EXPECT_EQ(s3->summary.at("total-records"), "6");
}

TEST(MergeAppendTest, MergeDisabledKeepsEveryManifest) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/false, 2,
                                  {{"commit.manifest.min-count-to-merge", "2"},
                                   {"commit.manifest-merge.enabled", "false"}}));
  for (int i = 0; i < 3; ++i) {
    FLOE_ASSERT_OK(t.table->NewMergeAppend()
                       ->AppendFile(DataFile("/d/" + std::to_string(i) + ".parquet", 1))
                       .Commit());
  }
  EXPECT_EQ(test::ManifestsOf(*t.io, *t.table->metadata()->current_snapshot()).size(), 3u);
}

TEST(MergeAppendTest, TargetSizeSplitsBins) {
  // A target below one manifest's size: every bin holds one manifest, so nothing merges.
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/false, 2,
                                  {{"commit.manifest.min-count-to-merge", "2"},
                                   {"commit.manifest.target-size-bytes", "10"}}));
  for (int i = 0; i < 3; ++i) {
    FLOE_ASSERT_OK(t.table->NewMergeAppend()
                       ->AppendFile(DataFile("/d/" + std::to_string(i) + ".parquet", 1))
                       .Commit());
  }
  EXPECT_EQ(test::ManifestsOf(*t.io, *t.table->metadata()->current_snapshot()).size(), 3u);
}

TEST(MergeAppendTest, PacksFromTheOldestSoTheNewestBinIsUnderFilled) {
  // Three one-file manifests of about equal size L and a target of 2.5 L: packed from the
  // oldest, the bins are {1, 2} and {3}; the new manifest's bin holds one manifest and stays, the
  // two older ones merge. (Packed from the newest they would be {3, 2} and {1}.)
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto t, test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/false, 2,
                                  {{"commit.manifest.min-count-to-merge", "2"},
                                   {"commit.manifest-merge.enabled", "false"}}));
  FLOE_ASSERT_OK(t.table->NewMergeAppend()->AppendFile(DataFile("/d/1.parquet", 1)).Commit());
  FLOE_ASSERT_OK(t.table->NewMergeAppend()->AppendFile(DataFile("/d/2.parquet", 1)).Commit());
  int64_t largest = 0;
  for (const auto& m : test::ManifestsOf(*t.io, *t.table->metadata()->current_snapshot())) {
    largest = std::max(largest, m.manifest_length);
  }
  FLOE_ASSERT_OK(t.table->NewUpdateProperties()
                     ->Set("commit.manifest-merge.enabled", "true")
                     .Set("commit.manifest.target-size-bytes", std::to_string(largest * 5 / 2))
                     .Commit());
  FLOE_ASSERT_OK(t.table->NewMergeAppend()->AppendFile(DataFile("/d/3.parquet", 1)).Commit());
  SnapshotPtr s3 = t.table->metadata()->current_snapshot();
  auto manifests = test::ManifestsOf(*t.io, *s3);
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].added_files_count, 1);  // the new manifest, first and alone
  EXPECT_EQ(manifests[0].existing_files_count, 0);
  EXPECT_EQ(manifests[1].added_files_count, 0);  // the two older ones, merged
  EXPECT_EQ(manifests[1].existing_files_count, 2);
  EXPECT_EQ(test::EntriesOf(*t.io, *s3).size(), 3u);
}

}  // namespace
}  // namespace floe::table
