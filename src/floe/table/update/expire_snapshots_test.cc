#include "floe/table/update/expire_snapshots.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "floe/io/memory_file_io.h"
#include "floe/table/update/delete_files.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/manage_snapshots.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/testing.h"
#include "floe/util/clock.h"

namespace floe::table {
namespace {

using test::DataFile;

class ExpireSnapshotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/false);
    ASSERT_TRUE(t) << t.error().ToString();
    t_ = std::move(*t);
    // Data files exist so that deleting them is observable.
    for (const char* name : {"/d/1.parquet", "/d/2.parquet", "/d/3.parquet"}) {
      FLOE_ASSERT_OK(t_.io->WriteFile(name, "data", false));
    }
    auto append = [&](const char* path) {
      auto op = t_.table->NewFastAppend();
      op->AppendFile(DataFile(path, 1));
      EXPECT_TRUE(op->Commit());
      ids_.push_back(op->snapshot_id());
    };
    append("/d/1.parquet");
    append("/d/2.parquet");
    FLOE_ASSERT_OK(t_.table->NewDeleteFiles()->DeleteFile("/d/1.parquet").Commit());
    ids_.push_back(*t_.table->metadata()->current_snapshot_id());
    append("/d/3.parquet");
  }

  bool Exists(const std::string& path) { return t_.io->Exists(path).value(); }

  test::TestTable t_;
  std::vector<int64_t> ids_;
};

TEST_F(ExpireSnapshotsTest, RetainLastDeletesOnlyUnreachableFiles) {
  TableMetadataPtr before = t_.table->metadata();
  std::string first_list = before->SnapshotById(ids_[0])->manifest_list;
  auto first_manifests = test::ManifestsOf(*t_.io, *before->SnapshotById(ids_[0]));

  auto expire = t_.table->NewExpireSnapshots();
  expire->ExpireOlderThan(NowMs() + 1).RetainLast(2);
  FLOE_ASSERT_OK(expire->Commit());
  TableMetadataPtr after = t_.table->metadata();
  ASSERT_EQ(after->snapshots().size(), 2u);
  EXPECT_TRUE(after->SnapshotById(ids_[2]));
  EXPECT_TRUE(after->SnapshotById(ids_[3]));
  EXPECT_EQ(expire->expired_ids().size(), 2u);

  // 1.parquet was removed by a kept snapshot and is live in none: deleted. 2 and 3 are live.
  EXPECT_FALSE(Exists("/d/1.parquet"));
  EXPECT_TRUE(Exists("/d/2.parquet"));
  EXPECT_TRUE(Exists("/d/3.parquet"));
  EXPECT_FALSE(Exists(first_list));
  // Files of the remaining snapshots are all still there.
  for (const SnapshotPtr& snapshot : after->snapshots()) {
    EXPECT_TRUE(Exists(snapshot->manifest_list));
    for (const auto& manifest : test::ManifestsOf(*t_.io, *snapshot)) {
      EXPECT_TRUE(Exists(manifest.manifest_path)) << manifest.manifest_path;
    }
  }
  EXPECT_EQ(test::LiveFiles(*t_.table), (std::set<std::string>{"/d/2.parquet", "/d/3.parquet"}));
}

TEST_F(ExpireSnapshotsTest, RefsRetainTheirSnapshots) {
  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()->CreateTag("keep", ids_[0]).Commit());
  FLOE_ASSERT_OK(t_.table->NewExpireSnapshots()->ExpireOlderThan(NowMs() + 1).Commit());
  TableMetadataPtr after = t_.table->metadata();
  EXPECT_TRUE(after->SnapshotById(ids_[0]));  // tagged
  EXPECT_TRUE(after->SnapshotById(ids_[3]));  // main's head (min-snapshots-to-keep 1)
  EXPECT_FALSE(after->SnapshotById(ids_[1]));
  EXPECT_TRUE(Exists("/d/1.parquet"));  // live in the tagged snapshot

  EXPECT_FALSE(t_.table->NewExpireSnapshots()->ExpireSnapshotId(ids_[0]).Commit());
}

TEST_F(ExpireSnapshotsTest, DefaultAgeKeepsRecentSnapshots) {
  auto expire = t_.table->NewExpireSnapshots();
  FLOE_ASSERT_OK(expire->Commit());  // all younger than the 5-day default
  EXPECT_EQ(t_.table->metadata()->snapshots().size(), 4u);
  FLOE_ASSERT_OK(t_.table->NewExpireSnapshots()->ExpireSnapshotId(ids_[1]).Commit());
  EXPECT_EQ(t_.table->metadata()->snapshots().size(), 3u);
  EXPECT_TRUE(Exists("/d/1.parquet"));  // still live in the first snapshot
}

TEST_F(ExpireSnapshotsTest, MaxRefAgeRemovesOldRefs) {
  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()
                     ->CreateBranch("old", ids_[0])
                     .SetMaxRefAgeMs("old", 1)
                     .Commit());
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  FLOE_ASSERT_OK(t_.table->NewExpireSnapshots()->ExpireOlderThan(NowMs() + 1).Commit());
  EXPECT_EQ(t_.table->metadata()->FindRef("old"), nullptr);
  EXPECT_FALSE(t_.table->metadata()->SnapshotById(ids_[0]));
}

}  // namespace
}  // namespace floe::table
