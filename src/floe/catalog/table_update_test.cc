#include "floe/catalog/table_update.h"

#include <gtest/gtest.h>

#include "floe/catalog/new_table.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

TableMetadataPtr NewTable(int format_version = 2) {
  auto schema = std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "name", types::String())});
  auto made = NewTableMetadata(
      CreateTableRequest{.schema = schema,
                         .properties = {{"format-version", std::to_string(format_version)}}},
      "/tmp/t", 1000);
  EXPECT_TRUE(made.has_value()) << made.error().ToString();
  return *made;
}

SnapshotPtr MakeSnapshot(int64_t id, std::optional<int64_t> parent, int64_t sequence,
                         int64_t timestamp_ms) {
  return std::make_shared<Snapshot>(Snapshot{.snapshot_id = id,
                                             .parent_snapshot_id = parent,
                                             .sequence_number = sequence,
                                             .timestamp_ms = timestamp_ms,
                                             .manifest_list = "/tmp/t/metadata/snap.avro",
                                             .summary = {{"operation", "append"}}});
}

TEST(TableUpdateTest, AddsSchemasWithFreshIdsAndReusesEqualOnes) {
  TableMetadataPtr base = NewTable();
  auto wider = std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "name", types::String()),
      types::Optional(3, "score", types::Long())});
  std::vector<TableUpdate> updates = {AddSchema{wider}, SetCurrentSchema{kLastAdded}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr next, ApplyUpdates(*base, updates, 2000));
  EXPECT_EQ(next->current_schema_id(), 1);
  EXPECT_EQ(next->last_column_id(), 3);
  EXPECT_EQ(next->last_updated_ms(), 2000);

  // Adding the first schema again selects it instead of adding a copy.
  std::vector<TableUpdate> back = {AddSchema{base->current_schema()}, SetCurrentSchema{kLastAdded}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr reverted, ApplyUpdates(*next, back, 3000));
  EXPECT_EQ(reverted->schemas().size(), 2u);
  EXPECT_EQ(reverted->current_schema_id(), 0);
  EXPECT_EQ(reverted->last_column_id(), 3);
}

TEST(TableUpdateTest, SpecsAndSortOrdersGetNewIdsOrReuseOld) {
  TableMetadataPtr base = NewTable();
  auto spec = std::make_shared<PartitionSpec>(
      7, std::vector<PartitionField>{PartitionField{.source_ids = {1},
                                                    .field_id = 1000,
                                                    .name = "id_bucket",
                                                    .transform = Transform::Bucket(16)}});
  auto order = std::make_shared<SortOrder>(9, std::vector<SortField>{SortField{.source_ids = {1}}});
  std::vector<TableUpdate> updates = {AddPartitionSpec{spec}, SetDefaultSpec{kLastAdded},
                                      AddSortOrder{order}, SetDefaultSortOrder{kLastAdded}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr next, ApplyUpdates(*base, updates, 2000));
  EXPECT_EQ(next->default_spec_id(), 1);
  EXPECT_EQ(next->last_partition_id(), 1000);
  EXPECT_EQ(next->default_sort_order_id(), 1);
  std::vector<TableUpdate> again = {AddPartitionSpec{spec}, SetDefaultSpec{kLastAdded}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr same, ApplyUpdates(*next, again, 3000));
  EXPECT_EQ(same->partition_specs().size(), 2u);

  std::vector<TableUpdate> no_added = {SetDefaultSpec{kLastAdded}};
  auto invalid = ApplyUpdates(*base, no_added, 2000);
  ASSERT_FALSE(invalid.has_value());
  EXPECT_EQ(invalid.error().kind(), ErrorKind::kInvalidArgument);
}

TEST(TableUpdateTest, SnapshotsMoveMainAndKeepTheLogConsistent) {
  TableMetadataPtr base = NewTable();
  std::vector<TableUpdate> two = {
      AddSnapshot{MakeSnapshot(1, std::nullopt, 1, 100)}, SetSnapshotRef{"main", SnapshotRef{1}},
      AddSnapshot{MakeSnapshot(2, 1, 2, 200)}, SetSnapshotRef{"main", SnapshotRef{2}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr next, ApplyUpdates(*base, two, 5000));
  EXPECT_EQ(next->current_snapshot_id(), 2);
  EXPECT_EQ(next->last_sequence_number(), 2);
  // Snapshot 1 was current only inside the commit: it is not in the log.
  ASSERT_EQ(next->snapshot_log().size(), 1u);
  EXPECT_EQ(next->snapshot_log()[0], (SnapshotLogEntry{200, 2}));

  std::vector<TableUpdate> tag_and_rollback = {
      SetSnapshotRef{"v1", SnapshotRef{.snapshot_id = 1, .type = SnapshotRefType::kTag}},
      SetSnapshotRef{"main", SnapshotRef{1}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr rolled, ApplyUpdates(*next, tag_and_rollback, 6000));
  EXPECT_EQ(rolled->current_snapshot_id(), 1);
  ASSERT_EQ(rolled->snapshot_log().size(), 2u);
  EXPECT_EQ(rolled->snapshot_log()[1], (SnapshotLogEntry{6000, 1}));  // rollback: commit time

  // Expiring snapshot 2 removes the history before the gap, and nothing else.
  std::vector<TableUpdate> expire = {RemoveSnapshots{{2}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr expired, ApplyUpdates(*rolled, expire, 7000));
  EXPECT_EQ(expired->snapshots().size(), 1u);
  ASSERT_EQ(expired->snapshot_log().size(), 1u);
  EXPECT_EQ(expired->snapshot_log()[0], (SnapshotLogEntry{6000, 1}));
  EXPECT_NE(expired->FindRef("v1"), nullptr);

  // Removing the snapshot main points at clears the current snapshot and its ref.
  std::vector<TableUpdate> remove_current = {RemoveSnapshots{{1}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr empty, ApplyUpdates(*expired, remove_current, 8000));
  EXPECT_FALSE(empty->current_snapshot_id().has_value());
  EXPECT_TRUE(empty->refs().empty());
}

TEST(TableUpdateTest, StaleSnapshotsAreRetryableConflicts) {
  TableMetadataPtr base = NewTable();
  std::vector<TableUpdate> first = {AddSnapshot{MakeSnapshot(1, std::nullopt, 1, 100)},
                                    SetSnapshotRef{"main", SnapshotRef{1}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr next, ApplyUpdates(*base, first, 5000));
  std::vector<TableUpdate> stale = {AddSnapshot{MakeSnapshot(2, 1, 1, 200)}};
  auto result = ApplyUpdates(*next, stale, 6000);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(result.error().retryable());
}

TEST(TableUpdateTest, PropertiesLocationAndFormatVersion) {
  TableMetadataPtr base = NewTable(1);
  std::vector<TableUpdate> updates = {SetProperties{{{"a", "1"}, {"b", "2"}}},
                                      RemoveProperties{{"a", "missing"}}, SetLocation{"/tmp/moved"},
                                      UpgradeFormatVersion{2}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr next, ApplyUpdates(*base, updates, 2000));
  EXPECT_EQ(next->properties(), (StringMap{{"b", "2"}}));
  EXPECT_EQ(next->location(), "/tmp/moved");
  EXPECT_EQ(next->format_version(), 2);
  std::vector<TableUpdate> downgrade = {UpgradeFormatVersion{1}};
  EXPECT_FALSE(ApplyUpdates(*next, downgrade, 3000).has_value());
}

TEST(TableUpdateTest, RequirementsNameWhatChanged) {
  TableMetadataPtr base = NewTable();
  std::vector<TableRequirement> ok = {AssertTableUuid{base->table_uuid()},
                                      AssertRefSnapshotId{"main", std::nullopt},
                                      AssertCurrentSchemaId{0},
                                      AssertDefaultSpecId{0},
                                      AssertLastAssignedFieldId{2},
                                      AssertLastAssignedPartitionId{999},
                                      AssertDefaultSortOrderId{0}};
  FLOE_ASSERT_OK(CheckRequirements(base.get(), ok));

  std::vector<TableRequirement> moved = {AssertRefSnapshotId{"main", 42}};
  Status status = CheckRequirements(base.get(), moved);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(status.error().retryable());
  EXPECT_NE(status.error().message().find("'main' is at snapshot none, expected 42"),
            std::string::npos)
      << status.error().message();

  std::vector<TableRequirement> create = {AssertCreate{}};
  FLOE_ASSERT_OK(CheckRequirements(nullptr, create));
  Status exists = CheckRequirements(base.get(), create);
  ASSERT_FALSE(exists.has_value());
  EXPECT_EQ(exists.error().kind(), ErrorKind::kAlreadyExists);
}

TEST(TableUpdateTest, UpdatesToCreateRebuildTheSameTable) {
  TableMetadataPtr base = NewTable();
  std::vector<TableUpdate> first = {AddSnapshot{MakeSnapshot(1, std::nullopt, 1, 100)},
                                    SetSnapshotRef{"main", SnapshotRef{1}},
                                    SetProperties{{{"k", "v"}}}};
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr full, ApplyUpdates(*base, first, 5000));
  std::vector<TableUpdate> recreate = UpdatesToCreate(*full);
  EXPECT_EQ(UpdateName(recreate.front()), "assign-uuid");
  // Applied to the empty table they came from, they rebuild the full one.
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr same, ApplyUpdates(*base, recreate, 5000));
  EXPECT_EQ(same->schemas().size(), full->schemas().size());
  EXPECT_EQ(same->current_snapshot_id(), full->current_snapshot_id());
  EXPECT_EQ(same->properties(), full->properties());
}

}  // namespace
}  // namespace floe::catalog
