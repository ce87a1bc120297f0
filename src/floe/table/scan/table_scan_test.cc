#include "floe/table/scan/table_scan.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "floe/table/scan/scan_test_table.h"
#include "floe/table/scan/snapshot_changes.h"
#include "floe/table/scan/split_planner.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

using manifest::DataFile;
using manifest::EntryStatus;
using manifest::FileContent;
using manifest::ManifestContent;
using testing::ScanTestTable;

std::vector<std::string> Paths(const std::vector<FileScanTask>& tasks) {
  std::vector<std::string> out;
  for (const auto& t : tasks) out.push_back(t.data_file->file_path);
  return out;
}

std::vector<std::string> DeletePaths(const FileScanTask& task) {
  std::vector<std::string> out;
  for (const auto& d : task.deletes) out.push_back(d->file_path);
  return out;
}

const FileScanTask& TaskFor(const std::vector<FileScanTask>& tasks, const std::string& path) {
  for (const auto& t : tasks) {
    if (t.data_file->file_path == path) return t;
  }
  ADD_FAILURE() << "no task for " << path;
  return tasks.front();
}

// Two snapshots: s1 adds a.parquet (eu, ids 0..9) and b.parquet (us, ids 10..19) under spec 1;
// s2 adds c.parquet (bucket spec 2, ids 20..29) and deletes b.parquet.
class PruningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s1 = t_.Manifest(
        1, ManifestContent::kData, 1,
        {ScanTestTable::Added(ScanTestTable::Data("a.parquet", {Literal::String("eu")}, 0, 9), 1),
         ScanTestTable::Added(ScanTestTable::Data("b.parquet", {Literal::String("us")}, 10, 19),
                              1)});
    t_.Commit(1, "append", {s1}, 1000);
    auto kept = t_.Manifest(
        1, ManifestContent::kData, 2,
        {ScanTestTable::WithStatus(ScanTestTable::Data("a.parquet", {Literal::String("eu")}, 0, 9),
                                   EntryStatus::kExisting, 1, 1),
         ScanTestTable::WithStatus(
             ScanTestTable::Data("b.parquet", {Literal::String("us")}, 10, 19),
             EntryStatus::kDeleted, 2, 1)});
    auto added = t_.Manifest(
        2, ManifestContent::kData, 2,
        {ScanTestTable::Added(ScanTestTable::Data("c.parquet", {Literal::Int(1)}, 20, 29), 2)});
    metadata_ = t_.Commit(2, "overwrite", {kept, added}, 2000);
  }

  std::vector<std::string> Plan(expr::ExprPtr filter) {
    TableScan scan(metadata_, t_.shared_io());
    if (filter) scan.Filter(filter);
    auto tasks = scan.PlanFiles();
    EXPECT_TRUE(tasks.has_value()) << tasks.error().ToString();
    return tasks ? Paths(*tasks) : std::vector<std::string>{};
  }

  ScanTestTable t_;
  TableMetadataPtr metadata_;
};

TEST_F(PruningTest, LiveEntriesOnlyInManifestOrder) {
  EXPECT_EQ(Plan(nullptr), (std::vector<std::string>{"a.parquet", "c.parquet"}));
}

TEST_F(PruningTest, PartitionAndMetricsPruneEachSpecByItsOwnProjection) {
  // region = 'eu' prunes nothing in spec 2 (bucket of id), which keeps c by metrics only if ids
  // allow: region has no metrics, so c stays.
  EXPECT_EQ(Plan(expr::Equal("region", Literal::String("eu"))),
            (std::vector<std::string>{"a.parquet", "c.parquet"}));
  EXPECT_EQ(Plan(expr::Equal("region", Literal::String("us"))),
            (std::vector<std::string>{"c.parquet"}));
  // id = 25: a pruned by its id bounds [0, 9]; bucket(25, 4) decides c's partition.
  FLOE_ASSERT_OK_AND_ASSIGN(Literal bucket_value, Transform::Bucket(4).Apply(Literal::Long(25)));
  int32_t bucket = bucket_value.int_value();
  auto id25 = Plan(expr::Equal("id", Literal::Long(25)));
  if (bucket == 1) {
    EXPECT_EQ(id25, (std::vector<std::string>{"c.parquet"}));
  } else {
    EXPECT_TRUE(id25.empty());
  }
  EXPECT_EQ(Plan(expr::GreaterThan("id", Literal::Long(100))), std::vector<std::string>{});
  EXPECT_EQ(Plan(expr::False()), std::vector<std::string>{});
}

TEST_F(PruningTest, ResidualsPerPartition) {
  TableScan scan(metadata_, t_.shared_io());
  scan.Filter(expr::And(expr::Equal("region", Literal::String("eu")),
                        expr::GreaterThan("id", Literal::Long(3))));
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, scan.PlanFiles());
  ASSERT_EQ(tasks.size(), 2u);
  // The identity partition decides region for a; only the id test remains.
  EXPECT_EQ(tasks[0].residual->ToString(), "id > 3");
  // c's spec says nothing about region.
  EXPECT_NE(tasks[1].residual->ToString().find("region"), std::string::npos);
}

TEST_F(PruningTest, TimeTravelAndRefs) {
  TableScan scan(metadata_, t_.shared_io());
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks,
                            TableScan(metadata_, t_.shared_io()).UseSnapshot(1).PlanFiles());
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  FLOE_ASSERT_OK_AND_ASSIGN(tasks, TableScan(metadata_, t_.shared_io()).AsOfTime(1999).PlanFiles());
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  FLOE_ASSERT_OK_AND_ASSIGN(tasks, TableScan(metadata_, t_.shared_io()).AsOfTime(2000).PlanFiles());
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a.parquet", "c.parquet"}));
  auto early = TableScan(metadata_, t_.shared_io()).AsOfTime(999).PlanFiles();
  ASSERT_FALSE(early.has_value());
  EXPECT_EQ(early.error().kind(), ErrorKind::kNotFound);

  TableMetadataPtr tagged =
      t_.Build({{"v1", SnapshotRef{.snapshot_id = 1, .type = SnapshotRefType::kTag}}});
  FLOE_ASSERT_OK_AND_ASSIGN(tasks, TableScan(tagged, t_.shared_io()).UseRef("v1").PlanFiles());
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a.parquet", "b.parquet"}));
  FLOE_ASSERT_OK_AND_ASSIGN(tasks,
                            TableScan(tagged, t_.shared_io()).Option("tag", "v1").PlanFiles());
  EXPECT_EQ(tasks.size(), 2u);
  EXPECT_FALSE(TableScan(tagged, t_.shared_io()).UseRef("nope").PlanFiles().has_value());
  EXPECT_FALSE(
      TableScan(tagged, t_.shared_io()).UseRef("v1").UseSnapshot(2).PlanFiles().has_value());
  EXPECT_FALSE(TableScan(metadata_, t_.shared_io()).UseSnapshot(77).PlanFiles().has_value());
}

TEST_F(PruningTest, ThreadCountDoesNotChangeThePlan) {
  ThreadPool pool(3);
  FLOE_ASSERT_OK_AND_ASSIGN(auto serial, TableScan(metadata_, t_.shared_io()).PlanFiles());
  FLOE_ASSERT_OK_AND_ASSIGN(auto parallel,
                            TableScan(metadata_, t_.shared_io()).WithThreadPool(&pool).PlanFiles());
  EXPECT_EQ(Paths(serial), Paths(parallel));
}

TEST_F(PruningTest, FilterAndColumnsBindToTheSnapshotSchema) {
  TableScan scan(metadata_, t_.shared_io());
  scan.Select({"ID"}).CaseSensitive(false).Filter(expr::Equal("REGION", Literal::String("eu")));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr projected, scan.ProjectedSchema());
  ASSERT_EQ(projected->fields().size(), 1u);
  EXPECT_EQ(projected->fields()[0].id, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, scan.PlanFiles());
  EXPECT_EQ(tasks.size(), 2u);
  auto bad =
      TableScan(metadata_, t_.shared_io()).Filter(expr::Equal("nope", Literal::Int(1))).PlanFiles();
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("nope"), std::string::npos);
}

TEST(TableScanTest, EmptyTablePlansNothing) {
  ScanTestTable t;
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, TableScan(t.Build(), t.shared_io()).PlanFiles());
  EXPECT_TRUE(tasks.empty());
}

// Delete association: every scope rule of the spec, with sequence numbers set per entry.
TEST(DeleteAssociationTest, ScopeRules) {
  ScanTestTable t;
  auto eu = [] { return std::vector<Literal>{Literal::String("eu")}; };
  auto us = [] { return std::vector<Literal>{Literal::String("us")}; };
  // Data: d1 (eu, seq 1), d2 (eu, seq 2), d3 (us, seq 1).
  auto data = t.Manifest(
      1, ManifestContent::kData, 1,
      {ScanTestTable::WithStatus(ScanTestTable::Data("d1", eu(), 0, 9), EntryStatus::kAdded, 1, 1),
       ScanTestTable::WithStatus(ScanTestTable::Data("d2", eu(), 0, 9), EntryStatus::kAdded, 1, 2),
       ScanTestTable::WithStatus(ScanTestTable::Data("d3", us(), 0, 9), EntryStatus::kAdded, 1,
                                 1)});
  auto deletes = [](std::string name, FileContent content, std::vector<Literal> partition) {
    DataFile f = ScanTestTable::Data(std::move(name), std::move(partition), 0, 9);
    f.content = content;
    if (content == FileContent::kEqualityDeletes) f.equality_ids = {1};
    return f;
  };
  DataFile pos_eu_2 = deletes("pos-eu-2", FileContent::kPositionDeletes, eu());
  DataFile pos_ref_d1 = deletes("pos-ref-d1", FileContent::kPositionDeletes, eu());
  pos_ref_d1.referenced_data_file = "d1";
  DataFile pos_bounds_d2 = deletes("pos-bounds-d2", FileContent::kPositionDeletes, eu());
  pos_bounds_d2.lower_bounds = {{2147483546, "d2"}};
  pos_bounds_d2.upper_bounds = {{2147483546, "d2"}};
  DataFile eq_eu_2 = deletes("eq-eu-2", FileContent::kEqualityDeletes, eu());
  DataFile eq_eu_3 = deletes("eq-eu-3", FileContent::kEqualityDeletes, eu());
  auto part_deletes = t.Manifest(
      1, ManifestContent::kDeletes, 2,
      {ScanTestTable::WithStatus(pos_eu_2, EntryStatus::kAdded, 2, 2),
       ScanTestTable::WithStatus(pos_ref_d1, EntryStatus::kAdded, 2, 3),
       ScanTestTable::WithStatus(pos_bounds_d2, EntryStatus::kAdded, 2, 3),
       ScanTestTable::WithStatus(eq_eu_2, EntryStatus::kAdded, 2, 2),
       ScanTestTable::WithStatus(eq_eu_3, EntryStatus::kAdded, 2, 3),
       ScanTestTable::WithStatus(deletes("eq-eu-dead", FileContent::kEqualityDeletes, eu()),
                                 EntryStatus::kDeleted, 2, 3)});
  // A global equality delete (unpartitioned spec) at seq 2.
  auto global = t.Manifest(
      0, ManifestContent::kDeletes, 2,
      {ScanTestTable::WithStatus(deletes("eq-global-2", FileContent::kEqualityDeletes, {}),
                                 EntryStatus::kAdded, 2, 2)});
  TableMetadataPtr m = t.Commit(1, "overwrite", {data, part_deletes, global}, 1000);
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, TableScan(m, t.shared_io()).PlanFiles());
  ASSERT_EQ(tasks.size(), 3u);
  // d1 (seq 1): position deletes at seq >= 1 in eu (pos-eu-2, pos-ref-d1; pos-bounds-d2's bounds
  // exclude d1), equality deletes at seq > 1 in eu or global.
  EXPECT_EQ(
      DeletePaths(TaskFor(tasks, "d1")),
      (std::vector<std::string>{"pos-eu-2", "eq-eu-2", "eq-global-2", "pos-ref-d1", "eq-eu-3"}));
  // d2 (seq 2): position deletes at seq >= 2 (same commit included), equality deletes only > 2.
  EXPECT_EQ(DeletePaths(TaskFor(tasks, "d2")),
            (std::vector<std::string>{"pos-eu-2", "pos-bounds-d2", "eq-eu-3"}));
  // d3 (us, seq 1): only the global equality delete.
  EXPECT_EQ(DeletePaths(TaskFor(tasks, "d3")), (std::vector<std::string>{"eq-global-2"}));
}

TEST(DeleteAssociationTest, DeletionVectorSupersedesPositionDeleteFiles) {
  ScanTestTable t(3);
  auto eu = [] { return std::vector<Literal>{Literal::String("eu")}; };
  auto data = t.Manifest(
      1, ManifestContent::kData, 1,
      {ScanTestTable::WithStatus(ScanTestTable::Data("d1", eu(), 0, 9), EntryStatus::kAdded, 1, 1),
       ScanTestTable::WithStatus(ScanTestTable::Data("d2", eu(), 0, 9), EntryStatus::kAdded, 1,
                                 1)});
  DataFile pos = ScanTestTable::Data("pos", eu(), 0, 9);
  pos.content = FileContent::kPositionDeletes;
  DataFile dv = ScanTestTable::Data("dv.puffin", eu(), 0, 9);
  dv.content = FileContent::kPositionDeletes;
  dv.file_format = "puffin";
  dv.referenced_data_file = "d1";
  dv.content_offset = 4;
  dv.content_size_in_bytes = 40;
  auto deletes = t.Manifest(1, ManifestContent::kDeletes, 2,
                            {ScanTestTable::WithStatus(pos, EntryStatus::kAdded, 2, 2),
                             ScanTestTable::WithStatus(dv, EntryStatus::kAdded, 2, 2)});
  TableMetadataPtr m = t.Commit(1, "overwrite", {data, deletes}, 1000);
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, TableScan(m, t.shared_io()).PlanFiles());
  EXPECT_EQ(DeletePaths(TaskFor(tasks, "d1")), (std::vector<std::string>{"dv.puffin"}));
  EXPECT_EQ(DeletePaths(TaskFor(tasks, "d2")), (std::vector<std::string>{"pos"}));
}

TEST(DeleteAssociationTest, FilterPrunesEqualityDeletesByTheirMetrics) {
  ScanTestTable t;
  auto data = t.Manifest(
      0, ManifestContent::kData, 1,
      {ScanTestTable::WithStatus(ScanTestTable::Data("d", {}, 0, 100), EntryStatus::kAdded, 1, 1)});
  DataFile low = ScanTestTable::Data("eq-low", {}, 0, 9);
  low.content = FileContent::kEqualityDeletes;
  low.equality_ids = {1};
  DataFile high = ScanTestTable::Data("eq-high", {}, 90, 99);
  high.content = FileContent::kEqualityDeletes;
  high.equality_ids = {1};
  auto deletes = t.Manifest(0, ManifestContent::kDeletes, 2,
                            {ScanTestTable::WithStatus(low, EntryStatus::kAdded, 2, 2),
                             ScanTestTable::WithStatus(high, EntryStatus::kAdded, 2, 2)});
  TableMetadataPtr m = t.Commit(1, "overwrite", {data, deletes}, 1000);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto tasks,
      TableScan(m, t.shared_io()).Filter(expr::GreaterThan("id", Literal::Long(50))).PlanFiles());
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(DeletePaths(tasks[0]), (std::vector<std::string>{"eq-high"}));
}

// Incremental append scans: s1 append, s2 append, s3 replace, s4 overwrite.
class IncrementalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = t_.Manifest(0, ManifestContent::kData, 1,
                         {ScanTestTable::Added(ScanTestTable::Data("a", {}, 0, 9), 1)});
    t_.Commit(1, "append", {a}, 1000);
    auto b = t_.Manifest(0, ManifestContent::kData, 2,
                         {ScanTestTable::Added(ScanTestTable::Data("b", {}, 0, 9), 2)});
    t_.Commit(2, "append", {b, a}, 2000);
    auto c = t_.Manifest(
        0, ManifestContent::kData, 3,
        {ScanTestTable::Added(ScanTestTable::Data("c", {}, 0, 9), 3),
         ScanTestTable::WithStatus(ScanTestTable::Data("a", {}, 0, 9), EntryStatus::kDeleted, 3, 1),
         ScanTestTable::WithStatus(ScanTestTable::Data("b", {}, 0, 9), EntryStatus::kDeleted, 3,
                                   2)});
    t_.Commit(3, "replace", {c}, 3000);
    auto d = t_.Manifest(0, ManifestContent::kData, 4,
                         {ScanTestTable::Added(ScanTestTable::Data("d", {}, 0, 9), 4)});
    metadata_ = t_.Commit(4, "overwrite", {d, c}, 4000);
  }
  ScanTestTable t_;
  TableMetadataPtr metadata_;
};

TEST_F(IncrementalTest, AppendsInTheRange) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto tasks, TableScan(metadata_, t_.shared_io()).FromSnapshot(1).UseSnapshot(3).PlanFiles());
  EXPECT_EQ(Paths(tasks), std::vector<std::string>{"b"});
  FLOE_ASSERT_OK_AND_ASSIGN(
      tasks, TableScan(metadata_, t_.shared_io()).FromSnapshot(1, true).UseSnapshot(2).PlanFiles());
  EXPECT_EQ(Paths(tasks), (std::vector<std::string>{"a", "b"}));
  FLOE_ASSERT_OK_AND_ASSIGN(tasks,
                            TableScan(metadata_, t_.shared_io())
                                .Options({{"start-snapshot-id", "1"}, {"end-snapshot-id", "2"}})
                                .PlanFiles());
  EXPECT_EQ(Paths(tasks), std::vector<std::string>{"b"});
}

TEST_F(IncrementalTest, NonAppendInTheRangeIsNamed) {
  auto result = TableScan(metadata_, t_.shared_io()).FromSnapshot(2).PlanFiles();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(result.error().message().find("snapshot 4"), std::string::npos);
  EXPECT_NE(result.error().message().find("overwrite"), std::string::npos);
  auto not_ancestor =
      TableScan(metadata_, t_.shared_io()).FromSnapshot(3).UseSnapshot(2).PlanFiles();
  EXPECT_FALSE(not_ancestor.has_value());
}

TEST_F(IncrementalTest, ChangesOfAnySnapshot) {
  auto names = [](const std::vector<ChangedFile>& files) {
    std::vector<std::string> out;
    for (const auto& f : files) out.push_back(f.file->file_path);
    return out;
  };
  FLOE_ASSERT_OK_AND_ASSIGN(SnapshotChanges replace, ReadSnapshotChanges(*metadata_, t_.io(), 3));
  EXPECT_EQ(names(replace.added_data_files), std::vector<std::string>{"c"});
  EXPECT_EQ(names(replace.removed_data_files), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(replace.removed_data_files[1].data_sequence_number, 2);
  EXPECT_TRUE(replace.added_delete_files.empty());
  FLOE_ASSERT_OK_AND_ASSIGN(SnapshotChanges overwrite, ReadSnapshotChanges(*metadata_, t_.io(), 4));
  EXPECT_EQ(names(overwrite.added_data_files), std::vector<std::string>{"d"});
  EXPECT_TRUE(overwrite.removed_data_files.empty());
  EXPECT_EQ(overwrite.added_data_files[0].data_sequence_number, 4);
  EXPECT_FALSE(ReadSnapshotChanges(*metadata_, t_.io(), 99).has_value());
}

FileScanTask SizedTask(std::string path, int64_t size, std::vector<int64_t> offsets = {}) {
  DataFile f;
  f.file_path = std::move(path);
  f.file_format = "parquet";
  f.file_size_in_bytes = size;
  f.split_offsets = std::move(offsets);
  FileScanTask task;
  task.data_file = std::make_shared<const DataFile>(std::move(f));
  task.length = size;
  return task;
}

TEST(SplitPlannerTest, SplitsAtOffsetsMergingSmallRowGroups) {
  std::vector<FileScanTask> out;
  // Row groups at 4, 30, 60, 90 in a 120-byte file, target 50: no two adjacent row groups fit
  // in 50 bytes, so one range each (the first from 0).
  SplitTask(SizedTask("f", 120, {4, 30, 60, 90}), 50, out);
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const auto& t : out) ranges.emplace_back(t.start, t.length);
  EXPECT_EQ(ranges,
            (std::vector<std::pair<int64_t, int64_t>>{{0, 30}, {30, 30}, {60, 30}, {90, 30}}));
  // Ranges cover the file exactly once.
  out.clear();
  SplitTask(SizedTask("g", 1000, {4, 100, 200, 300, 900}), 450, out);
  int64_t next = 0;
  for (const auto& t : out) {
    EXPECT_EQ(t.start, next);
    EXPECT_LE(t.length, 1000);
    next = t.start + t.length;
  }
  EXPECT_EQ(next, 1000);
  EXPECT_EQ(out.size(), 3u);  // [0,300) [300,900) [900,1000)
  // Without offsets: fixed-size pieces; bad offsets are ignored.
  out.clear();
  SplitTask(SizedTask("h", 250, {4, 300}), 100, out);
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(out.back().length, 50);
  out.clear();
  SplitTask(SizedTask("small", 80, {4, 40}), 100, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].whole_file());
}

TEST(SplitPlannerTest, PacksWithOpenFileCostAndLookback) {
  std::vector<FileScanTask> tasks;
  for (int i = 0; i < 10; ++i) tasks.push_back(SizedTask(fmt::format("t{}", i), 1));
  // Each 1-byte file weighs the open cost 10: 3 per bin of 30.
  auto bins = PackTasks(tasks, 30, 10, 10);
  ASSERT_EQ(bins.size(), 4u);
  EXPECT_EQ(bins[0].tasks.size(), 3u);
  EXPECT_EQ(bins[3].tasks.size(), 1u);
  // Lookback 1: a file that does not fit closes the only open bin.
  std::vector<FileScanTask> mixed = {SizedTask("a", 60), SizedTask("b", 60), SizedTask("c", 30)};
  auto one = PackTasks(mixed, 100, 1, 1);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[1].tasks.size(), 2u);  // b and c
  // Lookback 2: c goes back to a's bin.
  auto two = PackTasks(mixed, 100, 1, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].tasks.size(), 2u);
  EXPECT_EQ(two[0].tasks[1].data_file->file_path, "c");
}

TEST_F(PruningTest, PlanTasksHonoursTheSplitOptions) {
  // a and c are 1,000 bytes each (10 rows * 100): with the default open cost they weigh 4 MiB
  // and share one combined task; with a target below the open cost each gets its own.
  FLOE_ASSERT_OK_AND_ASSIGN(auto combined, TableScan(metadata_, t_.shared_io()).PlanTasks());
  ASSERT_EQ(combined.size(), 1u);
  EXPECT_EQ(combined[0].tasks.size(), 2u);
  FLOE_ASSERT_OK_AND_ASSIGN(combined, TableScan(metadata_, t_.shared_io())
                                          .Option("read.split.target-size", "1000")
                                          .Option("split-file-open-cost", "600")
                                          .PlanTasks());
  EXPECT_EQ(combined.size(), 2u);
  auto bad =
      TableScan(metadata_, t_.shared_io()).Option("read.split.target-size", "big").PlanTasks();
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("read.split.target-size"), std::string::npos);
}

}  // namespace
}  // namespace floe::table
