#include "floe/table/update/manage_snapshots.h"

#include <gtest/gtest.h>

#include "floe/io/memory_file_io.h"
#include "floe/spec/sort_order.h"
#include "floe/table/update/cherry_pick.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/replace_partitions.h"
#include "floe/table/update/test_table.h"
#include "floe/table/update/update_properties.h"
#include "floe/table/update/update_schema.h"
#include "floe/table/update/update_sort_order.h"
#include "floe/table/update/update_spec.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using test::DataFile;

class ManageSnapshotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = test::MakeTestTable(std::make_shared<io::MemoryFileIO>(), /*partitioned=*/true);
    ASSERT_TRUE(t) << t.error().ToString();
    t_ = std::move(*t);
    for (int i = 0; i < 3; ++i) {
      auto append = t_.table->NewFastAppend();
      append->AppendFile(DataFile("/d/" + std::to_string(i) + ".parquet", 1, "a"));
      FLOE_ASSERT_OK(append->Commit());
      ids_.push_back(append->snapshot_id());
    }
  }

  test::TestTable t_;
  std::vector<int64_t> ids_;
};

TEST_F(ManageSnapshotsTest, RollbackBranchesAndTags) {
  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()
                     ->CreateTag("v1", ids_[0])
                     .CreateBranch("dev", ids_[1])
                     .RollbackTo(ids_[1])
                     .Commit());
  TableMetadataPtr metadata = t_.table->metadata();
  EXPECT_EQ(metadata->current_snapshot_id(), ids_[1]);
  EXPECT_EQ(metadata->FindRef("v1")->type, SnapshotRefType::kTag);
  EXPECT_EQ(metadata->FindRef("dev")->snapshot_id, ids_[1]);
  EXPECT_EQ(metadata->snapshot_log().back().snapshot_id, ids_[1]);

  // ids_[2] is no longer an ancestor of main: rollback refuses it, set-current allows it.
  EXPECT_FALSE(t_.table->NewManageSnapshots()->RollbackTo(ids_[2]).Commit());
  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()->SetCurrentSnapshot(ids_[2]).Commit());
  EXPECT_EQ(t_.table->metadata()->current_snapshot_id(), ids_[2]);

  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()
                     ->FastForwardBranch("dev", "main")
                     .RenameBranch("dev", "staging")
                     .ReplaceTag("v1", ids_[1])
                     .SetMinSnapshotsToKeep("staging", 2)
                     .Commit());
  metadata = t_.table->metadata();
  EXPECT_EQ(metadata->FindRef("dev"), nullptr);
  EXPECT_EQ(metadata->FindRef("staging")->snapshot_id, ids_[2]);
  EXPECT_EQ(metadata->FindRef("staging")->min_snapshots_to_keep, 2);
  EXPECT_EQ(metadata->FindRef("v1")->snapshot_id, ids_[1]);

  EXPECT_FALSE(t_.table->NewManageSnapshots()->RemoveBranch("main").Commit());
  EXPECT_FALSE(t_.table->NewManageSnapshots()->CreateTag("v1", ids_[0]).Commit());
  FLOE_ASSERT_OK(t_.table->NewManageSnapshots()->RemoveTag("v1").RemoveBranch("staging").Commit());
  EXPECT_EQ(t_.table->metadata()->refs().size(), 1u);
}

TEST_F(ManageSnapshotsTest, CherryPickStagedAppendAndDynamicOverwrite) {
  auto staged = t_.table->NewFastAppend();
  staged->AppendFile(DataFile("/d/staged.parquet", 5, "b")).StageOnly();
  FLOE_ASSERT_OK(staged->Commit());
  EXPECT_EQ(t_.table->metadata()->current_snapshot_id(), ids_[2]);
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(DataFile("/d/x.parquet", 1, "c")).Commit());

  auto pick = t_.table->NewCherryPick();
  pick->Pick(staged->snapshot_id());
  FLOE_ASSERT_OK(pick->Commit());
  SnapshotPtr s = t_.table->metadata()->current_snapshot();
  EXPECT_EQ(s->summary.at("source-snapshot-id"), std::to_string(staged->snapshot_id()));
  EXPECT_EQ(s->operation(), "append");
  EXPECT_TRUE(test::LiveFiles(*t_.table).contains("/d/staged.parquet"));
  EXPECT_EQ(s->summary.at("total-records"), "9");
  // Picking it twice is refused.
  auto twice = t_.table->NewCherryPick();
  twice->Pick(staged->snapshot_id());
  EXPECT_FALSE(twice->Commit());

  // A staged dynamic overwrite of partition a, picked on top of a newer head.
  auto overwrite = t_.table->NewReplacePartitions();
  overwrite->AddFile(DataFile("/d/a-new.parquet", 2, "a")).StageOnly();
  FLOE_ASSERT_OK(overwrite->Commit());
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(DataFile("/d/y.parquet", 1, "c")).Commit());
  auto pick_overwrite = t_.table->NewCherryPick();
  pick_overwrite->Pick(overwrite->snapshot_id());
  FLOE_ASSERT_OK(pick_overwrite->Commit());
  EXPECT_EQ(test::LiveFiles(*t_.table),
            (std::set<std::string>{"/d/a-new.parquet", "/d/staged.parquet", "/d/x.parquet",
                                   "/d/y.parquet"}));
}

TEST_F(ManageSnapshotsTest, CherryPickFastForwards) {
  auto staged = t_.table->NewFastAppend();
  staged->AppendFile(DataFile("/d/staged.parquet", 5, "b")).StageOnly();
  FLOE_ASSERT_OK(staged->Commit());
  auto pick = t_.table->NewCherryPick();
  pick->Pick(staged->snapshot_id());
  FLOE_ASSERT_OK(pick->Commit());
  EXPECT_EQ(t_.table->metadata()->current_snapshot_id(), staged->snapshot_id());
}

TEST_F(ManageSnapshotsTest, SchemaSpecOrderAndProperties) {
  FLOE_ASSERT_OK(t_.table->NewUpdateSchema()
                     ->AddColumn("ts", types::Timestamp())
                     .RenameColumn("data", "payload")
                     .Commit());
  TableMetadataPtr metadata = t_.table->metadata();
  EXPECT_EQ(metadata->current_schema_id(), 1);
  ASSERT_NE(metadata->current_schema()->FindField("payload"), nullptr);
  EXPECT_EQ(metadata->current_schema()->FindField("ts")->id, 4);
  EXPECT_EQ(metadata->last_column_id(), 4);

  FLOE_ASSERT_OK(t_.table->NewUpdateSpec()->AddField("ts", Transform::Day()).Commit());
  metadata = t_.table->metadata();
  EXPECT_EQ(metadata->default_spec_id(), 1);
  ASSERT_EQ(metadata->default_spec()->fields().size(), 2u);
  EXPECT_EQ(metadata->default_spec()->fields()[0].field_id, 1000);  // kept
  EXPECT_EQ(metadata->default_spec()->fields()[1].field_id, 1001);
  EXPECT_EQ(metadata->default_spec()->fields()[1].name, "ts_day");
  FLOE_ASSERT_OK(t_.table->NewUpdateSpec()->RemoveField("category").Commit());
  EXPECT_EQ(t_.table->metadata()->default_spec()->fields().size(), 1u);
  EXPECT_FALSE(t_.table->NewUpdateSpec()->AddField("nope", Transform::Identity()).Commit());

  FLOE_ASSERT_OK(t_.table->NewReplaceSortOrder()->Asc("id").Desc("ts").Commit());
  metadata = t_.table->metadata();
  EXPECT_EQ(metadata->default_sort_order_id(), 1);
  EXPECT_EQ(metadata->default_sort_order()->fields().size(), 2u);

  FLOE_ASSERT_OK(t_.table->NewUpdateProperties()->Set("owner", "floe").Commit());
  EXPECT_EQ(t_.table->metadata()->property("owner"), "floe");
  FLOE_ASSERT_OK(t_.table->NewUpdateProperties()->Remove("owner").Commit());
  EXPECT_EQ(t_.table->metadata()->property("owner", "unset"), "unset");

  // Appends after the evolution use the new default spec.
  manifest::DataFile file = DataFile("/d/new.parquet", 1);
  file.spec_id = 2;
  file.partition = {Literal::Date(20000)};
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(file).Commit());
  auto manifests = test::ManifestsOf(*t_.io, *t_.table->metadata()->current_snapshot());
  EXPECT_EQ(manifests[0].partition_spec_id, 2);
}

}  // namespace
}  // namespace floe::table
