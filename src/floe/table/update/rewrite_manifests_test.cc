#include "floe/table/update/rewrite_manifests.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/delete_files.h"
#include "floe/table/update/row_delta.h"
#include "floe/table/update/test_table.h"
#include "floe/table/update/update_properties.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;

const char* const kCategories[] = {"a", "b", "c"};

// A partitioned v2 table after 9 fast appends of two files each (categories cycling, so that
// every manifest spans two partitions), one of those files deleted since, and a position delete
// file: 9 data manifests, one delete manifest.
Result<test::TestTable> ManyManifests(StringMap properties = {}) {
  FLOE_ASSIGN_OR_RETURN(test::TestTable t,
                        test::MakeTestTable(std::make_shared<io::MemoryFileIO>(),
                                            /*partitioned=*/true, 2, std::move(properties)));
  for (int i = 0; i < 9; ++i) {
    auto append = t.table->NewFastAppend();
    for (int j = 0; j < 2; ++j) {
      const int n = 2 * i + j;
      append->AppendFile(DataFile(fmt::format("/d/{}.parquet", n), n + 1, kCategories[n % 3]));
    }
    FLOE_RETURN_IF_ERROR(append->Commit());
  }
  FLOE_RETURN_IF_ERROR(t.table->NewDeleteFiles()->DeleteFile("/d/4.parquet").Commit());
  FLOE_RETURN_IF_ERROR(
      t.table->NewRowDelta()
          ->AddDeletes(test::PositionDeletes("/d/del.parquet", 2, "/d/0.parquet", "a"))
          .Commit());
  return t;
}

std::map<std::string, manifest::ManifestEntry> LiveByPath(io::FileIO& io, const Snapshot& snap) {
  std::map<std::string, manifest::ManifestEntry> live;
  for (manifest::ManifestEntry& entry : test::EntriesOf(io, snap)) {
    if (entry.status != manifest::EntryStatus::kDeleted) {
      live[entry.data_file.file_path] = std::move(entry);
    }
  }
  return live;
}

TEST(RewriteManifestsTest, PacksLiveEntriesKeepingTheirSnapshotsAndSequenceNumbers) {
  FLOE_ASSERT_OK_AND_ASSIGN(test::TestTable t, ManyManifests());
  SnapshotPtr before = t.table->metadata()->current_snapshot();
  ASSERT_EQ(test::ManifestsOf(*t.io, *before).size(), 10u);
  const auto live_before = LiveByPath(*t.io, *before);
  ASSERT_EQ(live_before.size(), 18u);  // 17 data files and the delete file

  auto rewrite = t.table->NewRewriteManifests();
  FLOE_ASSERT_OK(rewrite->Commit());
  EXPECT_EQ(rewrite->rewritten(), 9);
  EXPECT_EQ(rewrite->added(), 1);
  SnapshotPtr after = t.table->metadata()->current_snapshot();
  EXPECT_EQ(after->parent_snapshot_id, before->snapshot_id);
  EXPECT_EQ(after->summary.at("operation"), "replace");
  EXPECT_EQ(after->summary.at("manifests-created"), "1");
  EXPECT_EQ(after->summary.at("manifests-kept"), "1");
  EXPECT_EQ(after->summary.at("manifests-replaced"), "9");
  EXPECT_EQ(after->summary.at("entries-processed"), "17");
  EXPECT_EQ(after->summary.at("total-records"), before->summary.at("total-records"));
  EXPECT_EQ(after->summary.at("total-data-files"), "17");

  const auto manifests = test::ManifestsOf(*t.io, *after);
  ASSERT_EQ(manifests.size(), 2u);
  EXPECT_EQ(manifests[0].content, manifest::ManifestContent::kData);
  EXPECT_EQ(manifests[0].existing_files_count, 17);
  EXPECT_EQ(manifests[0].added_files_count, 0);
  EXPECT_EQ(manifests[1].manifest_path, test::ManifestsOf(*t.io, *before).back().manifest_path);

  // Every live file is still there, with the snapshot that added it and its sequence numbers.
  const auto live_after = LiveByPath(*t.io, *after);
  ASSERT_EQ(live_after.size(), live_before.size());
  for (const auto& [path, entry] : live_before) {
    ASSERT_TRUE(live_after.contains(path)) << path;
    const manifest::ManifestEntry& now = live_after.at(path);
    EXPECT_EQ(now.snapshot_id, entry.snapshot_id) << path;
    EXPECT_EQ(now.sequence_number, entry.sequence_number) << path;
    EXPECT_EQ(now.file_sequence_number, entry.file_sequence_number) << path;
    if (path != "/d/del.parquet") {
      EXPECT_EQ(now.status, manifest::EntryStatus::kExisting) << path;
    }
  }
  EXPECT_FALSE(live_after.contains("/d/4.parquet"));
}

TEST(RewriteManifestsTest, ClustersByPartitionIntoManifestsOfTheTargetSize) {
  // A target below one entry's size: a manifest per entry, in partition order.
  FLOE_ASSERT_OK_AND_ASSIGN(test::TestTable t,
                            ManyManifests({{"commit.manifest.target-size-bytes", "1"}}));
  FLOE_ASSERT_OK(t.table->NewRewriteManifests()->Commit());
  SnapshotPtr after = t.table->metadata()->current_snapshot();
  std::vector<std::string> categories;
  for (const manifest::ManifestFile& manifest : test::ManifestsOf(*t.io, *after)) {
    if (manifest.content != manifest::ManifestContent::kData) continue;
    ASSERT_TRUE(manifest.partitions.has_value());
    ASSERT_EQ(manifest.partitions->size(), 1u);
    const manifest::FieldSummary& category = manifest.partitions->front();
    ASSERT_TRUE(category.lower_bound.has_value());
    EXPECT_EQ(category.lower_bound, category.upper_bound);
    categories.push_back(*category.lower_bound);
  }
  ASSERT_EQ(categories.size(), 17u);
  EXPECT_TRUE(std::ranges::is_sorted(categories)) << fmt::format("{}", fmt::join(categories, ","));
}

TEST(RewriteManifestsTest, OnlyTheGivenSpecAndNeverUndoesAConcurrentCommit) {
  FLOE_ASSERT_OK_AND_ASSIGN(test::TestTable t, ManyManifests());
  auto rewrite = t.table->NewRewriteManifests();
  rewrite->SpecId(7);  // no manifest has it: nothing to rewrite
  FLOE_ASSERT_OK(rewrite->Commit());
  EXPECT_EQ(rewrite->rewritten(), 0);
  EXPECT_EQ(test::ManifestsOf(*t.io, *t.table->metadata()->current_snapshot()).size(), 10u);

  // Another writer appends after this one loaded the table: the rewrite's retry on the fresh
  // base rewrites that file's manifest too.
  std::shared_ptr<Table> stale = t.Open();
  FLOE_ASSERT_OK(t.table->NewFastAppend()->AppendFile(DataFile("/d/new.parquet", 5, "b")).Commit());
  FLOE_ASSERT_OK(stale->NewRewriteManifests()->Commit());
  const auto live = LiveByPath(*t.io, *stale->metadata()->current_snapshot());
  EXPECT_TRUE(live.contains("/d/new.parquet"));
  EXPECT_EQ(live.size(), 19u);

  FLOE_ASSERT_OK_AND_ASSIGN(test::TestTable empty,
                            test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), true));
  Status none = empty.table->NewRewriteManifests()->Commit();
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(none.error().message().find("no snapshot"), std::string::npos);
}

}  // namespace
}  // namespace floe::table
