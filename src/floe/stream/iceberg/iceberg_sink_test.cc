// The IcebergSink in jobs run by the runtime (StreamEnvironment::Execute): batch and streaming
// jobs, hash distribution, a failure and restart in the middle of a streaming job, and upserts;
// checked against the table read back through the table layer's scan.

#include "floe/stream/iceberg/iceberg_sink.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "floe/stream/runtime/test_jobs.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using testing::Lambda;
using testing::MakeRows;
using testing::RowSchema;
using testing::RowsSource;

class IcebergSinkJobTest : public ::testing::Test {
 protected:
  const catalog::TableIdentifier kIdent{{{"db"}}, "rows"};

  TableLoader Loader() const {
    return TableLoader::FromCatalog(
        "lake", {{"catalog-type", "hadoop"}, {"warehouse", (dir_.path() / "wh").string()}}, kIdent);
  }

  // k long (the identifier field, unless !identifier), g int, v string: the runtime test rows;
  // partitioned by g or not.
  void CreateTable(bool partitioned, bool identifier = true) {
    auto catalog = Loader().LoadCatalog().value();
    ASSERT_TRUE(catalog->CreateNamespace(kIdent.ns, {}).has_value());
    catalog::CreateTableRequest request;
    using namespace floe::types;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "k", Long()), Required(2, "g", Int()),
                                 Optional(3, "v", String())},
        0, identifier ? std::vector<int32_t>{1} : std::vector<int32_t>{});
    if (partitioned) {
      request.spec = std::make_shared<PartitionSpec>(
          0, std::vector<PartitionField>{{{2}, 1000, "g", Transform::Identity()}});
    }
    request.properties = {{"format-version", "2"}};
    ASSERT_TRUE(catalog->CreateTable(kIdent, request).has_value());
  }

  // k -> v of every live row; fails the test on a k seen twice.
  std::map<int64_t, std::string> ReadTable() const {
    auto table = Loader().Load().value();
    table::TableScan scan(table->metadata(), table->io());
    auto tasks = scan.PlanTasks().value();
    table::TaskReader reader(table->io(), scan.schema().value(), scan.ProjectedSchema().value());
    std::map<int64_t, std::string> rows;
    for (const auto& group : tasks) {
      FLOE_EXPECT_OK(reader.Read(group, [&](RecordBatch batch) -> Status {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          const int64_t k = batch.column(0).Value<int64_t>(i);
          auto [it, inserted] = rows.emplace(k, GetValue(batch.column(2), i).get<std::string>());
          EXPECT_TRUE(inserted) << "k " << k << " twice";
        }
        return {};
      }));
    }
    return rows;
  }

  std::vector<SnapshotPtr> Snapshots() const {
    auto metadata = Loader().Load().value()->metadata();
    std::vector<SnapshotPtr> out;
    const SnapshotRef* ref = metadata->FindRef("main");
    for (SnapshotPtr s = ref ? metadata->SnapshotById(ref->snapshot_id) : nullptr; s != nullptr;
         s = s->parent_snapshot_id ? metadata->SnapshotById(*s->parent_snapshot_id) : nullptr) {
      out.push_back(s);
    }
    return out;
  }

  floe::testing::TempDir dir_;
};

std::map<int64_t, std::string> Numbered(int64_t count) {
  std::map<int64_t, std::string> rows;
  for (int64_t k = 0; k < count; ++k) rows[k] = "r" + std::to_string(k);
  return rows;
}

// Batch mode, hash distribution by partition: every row once, one commit at the end, and each
// partition written by one writer subtask only (file names start with the subtask index). No
// identifier field: with one, rows would be keyed by it, since g is not a key column.
TEST_F(IcebergSinkJobTest, BatchJobWithHashDistribution) {
  CreateTable(/*partitioned=*/true, /*identifier=*/false);
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 2});
  DataStream rows = env.FromSource(RowsSource(20, 50), "rows");
  FLOE_ASSERT_OK(IcebergSink::ForRows(rows)
                     .TableLoader(Loader())
                     .DistributionMode(DistributionMode::kHash)
                     .WriteParallelism(3)
                     .Append());
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("batch-append"));
  EXPECT_EQ(ReadTable(), Numbered(1000));
  auto snapshots = Snapshots();
  ASSERT_EQ(snapshots.size(), 1U);
  auto table = Loader().Load().value();
  std::map<std::string, std::set<std::string>> writers_of_partition;
  auto files = table::TableScan(table->metadata(), table->io()).PlanFiles();
  ASSERT_TRUE(files.has_value());
  for (const auto& task : *files) {
    const std::string name =
        task.data_file->file_path.substr(task.data_file->file_path.rfind('/') + 1);
    writers_of_partition[task.data_file->partition[0].ToString()].insert(name.substr(0, 5));
  }
  EXPECT_EQ(writers_of_partition.size(), 7U);
  for (const auto& [partition, writers] : writers_of_partition) {
    EXPECT_EQ(writers.size(), 1U) << partition;
  }
  EXPECT_EQ(result.metrics["IcebergSink lake.db.rows committer.committedDataFilesRecordCount"],
            1000);
}

// A streaming job with checkpoints fails once in the middle and restarts from its latest
// checkpoint: every row is in the table exactly once.
TEST_F(IcebergSinkJobTest, StreamingJobWithAFailureCommitsEveryRowOnce) {
  CreateTable(/*partitioned=*/false);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 2, .delay_ms = 0}});
  auto failed = std::make_shared<std::atomic<int>>(0);
  auto seen = std::make_shared<std::atomic<int>>(0);
  DataStream rows = env.FromSource(RowsSource(60, 10), "rows");
  // Slow enough for checkpoints to complete between batches; fails once, after 40 batches.
  DataStream slow = rows.Transform(
      "slow", RowSchema(),
      Lambda([failed, seen](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (++*seen == 40 && failed->exchange(1) == 0) return IOError("injected failure");
        return batch;
      }));
  FLOE_ASSERT_OK(IcebergSink::ForRows(slow).TableLoader(Loader()).SinkId("rows-sink").Append());
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("streaming-append"));
  EXPECT_EQ(result.restarts, 1);
  EXPECT_EQ(ReadTable(), Numbered(600));
  for (const SnapshotPtr& snapshot : Snapshots()) {
    EXPECT_EQ(snapshot->summary.at("floe.sink-id"), "rows-sink");
    EXPECT_EQ(snapshot->summary.at("floe.job-name"), "streaming-append");
  }
}

// Upserts of 37 keys, each updated many times: the table holds the last value of each key.
TEST_F(IcebergSinkJobTest, StreamingUpsertKeepsTheLatestValuePerKey) {
  CreateTable(/*partitioned=*/false);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  // One reader, so that the updates of a key stay in order.
  DataStream rows = env.FromSource(RowsSource(30, 40), "rows", 1);
  DataStream keyed = rows.Transform(
      "rekey", RowSchema(),
      Lambda([](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::vector<Value> k, g, v;
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          const int64_t n = batch.column(0).Value<int64_t>(i);
          k.emplace_back(n % 37);
          g.emplace_back(static_cast<int32_t>(n % 7));
          v.emplace_back("r" + std::to_string(n));
        }
        BatchSchemaPtr schema = RowSchema();
        return RecordBatch::Make(schema, {MakeArray(schema->field(0).type, k).value(),
                                          MakeArray(schema->field(1).type, g).value(),
                                          MakeArray(schema->field(2).type, v).value()});
      }),
      1);
  FLOE_ASSERT_OK(IcebergSink::ForRows(keyed).TableLoader(Loader()).Upsert(true).Append());
  FLOE_ASSERT_OK(env.Execute("upsert"));
  std::map<int64_t, std::string> expected;
  for (int64_t n = 0; n < 1200; ++n) expected[n % 37] = "r" + std::to_string(n);
  EXPECT_EQ(ReadTable(), expected);
}

// Upserts into a table partitioned by g with (k, g) as the key, hash-distributed by partition:
// the table holds the last value of each key, and each partition has one writer.
TEST_F(IcebergSinkJobTest, HashDistributedUpsertIntoAPartitionedTable) {
  CreateTable(/*partitioned=*/true);
  StreamEnvironment env({.parallelism = 3,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  DataStream rows = env.FromSource(RowsSource(20, 50), "rows", 1);
  // k = n % 40, g = n % 7 (from the source): 280 keys (k, g), each updated several times.
  DataStream keyed = rows.Transform(
      "rekey", RowSchema(),
      Lambda([](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        std::vector<Value> k;
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          k.emplace_back(batch.column(0).Value<int64_t>(i) % 40);
        }
        return RecordBatch::Make(batch.schema(), {MakeArray(DataType::Int64(), k).value(),
                                                  batch.column(1), batch.column(2)});
      }),
      1);
  FLOE_ASSERT_OK(IcebergSink::ForRows(keyed)
                     .TableLoader(Loader())
                     .Upsert()
                     .EqualityFieldColumns({"k", "g"})
                     .DistributionMode(DistributionMode::kHash)
                     .Append());
  FLOE_ASSERT_OK(env.Execute("upsert-hash"));
  std::map<std::pair<int64_t, int64_t>, std::string> expected;
  for (int64_t n = 0; n < 1000; ++n) expected[{n % 40, n % 7}] = "r" + std::to_string(n);
  auto table = Loader().Load().value();
  table::TableScan scan(table->metadata(), table->io());
  auto tasks = scan.PlanTasks();
  ASSERT_TRUE(tasks.has_value());
  table::TaskReader reader(table->io(), scan.schema().value(), scan.ProjectedSchema().value());
  std::map<std::pair<int64_t, int64_t>, std::string> actual;
  std::map<std::string, std::set<std::string>> writers_of_partition;
  for (const auto& group : *tasks) {
    for (const auto& task : group.tasks) {
      const std::string& path = task.data_file->file_path;
      writers_of_partition[task.data_file->partition[0].ToString()].insert(
          path.substr(path.rfind('/') + 1, 5));
    }
    FLOE_EXPECT_OK(reader.Read(group, [&](RecordBatch batch) -> Status {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        auto key = std::pair{batch.column(0).Value<int64_t>(i),
                             int64_t{batch.column(1).Value<int32_t>(i)}};
        EXPECT_TRUE(actual.emplace(key, GetValue(batch.column(2), i).get<std::string>()).second);
      }
      return {};
    }));
  }
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(writers_of_partition.size(), 7U);
  for (const auto& [partition, writers] : writers_of_partition) {
    EXPECT_EQ(writers.size(), 1U) << partition;
  }
}

TEST_F(IcebergSinkJobTest, AppendRefusesBadConfigurations) {
  CreateTable(/*partitioned=*/true);
  StreamEnvironment env;
  DataStream rows = env.FromSource(RowsSource(1, 1), "rows");
  auto no_loader = IcebergSink::ForRows(rows).Append();
  ASSERT_FALSE(no_loader.has_value());
  EXPECT_NE(no_loader.error().message().find("TableLoader"), std::string::npos);
  auto both = IcebergSink::ForRows(rows).TableLoader(Loader()).Overwrite().Upsert().Append();
  ASSERT_FALSE(both.has_value());
  EXPECT_NE(both.error().message().find("together"), std::string::npos);
  // Partitioned by g, keyed by k alone.
  auto upsert = IcebergSink::ForRows(rows).TableLoader(Loader()).Upsert().Append();
  ASSERT_FALSE(upsert.has_value());
  EXPECT_NE(upsert.error().message().find("partition field 'g'"), std::string::npos);

  auto narrow = std::make_shared<BatchSchema>(std::vector<Field>{{"k", DataType::Int64(), false}});
  DataStream one_column = env.FromSource(
      std::make_shared<CollectionSource>(narrow, std::vector<RecordBatch>{}), "narrow");
  auto mismatch = IcebergSink::ForRows(one_column).TableLoader(Loader()).Append();
  ASSERT_FALSE(mismatch.has_value());
  EXPECT_NE(mismatch.error().message().find("1 columns"), std::string::npos);
}

}  // namespace
}  // namespace floe::stream
