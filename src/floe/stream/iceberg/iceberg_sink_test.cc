// The IcebergSink in jobs run by the runtime (StreamEnvironment::Execute): batch and streaming
// jobs, hash distribution, a failure and restart in the middle of a streaming job, and upserts;
// checked against the table read back through the table layer's scan.

#include "floe/stream/iceberg/iceberg_sink.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <ranges>
#include <thread>

#include "floe/io/local_file_io.h"
#include "floe/spec/sort_order.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/connectors/file_source.h"
#include "floe/stream/runtime/test_jobs.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

using testing::CheckpointPacedSource;
using testing::Lambda;
using testing::MakeRows;
using testing::RowSchema;
using testing::RowsSource;

class IcebergSinkJobTest : public ::testing::Test {
 public:
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
  for (int64_t k = 0; k < count; ++k) rows[k] = fmt::format("r{}", k);
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
  table::TableScan scan(table->metadata(), table->io());
  auto files = scan.IncludeColumnStats().PlanFiles();
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

// Rows of datagen share i of n: the rows r < next with r % n == i.
int64_t RowsBefore(int64_t i, int64_t n, int64_t next) {
  return next > i ? (next - i + n - 1) / n : 0;
}

// The rows before the positions of datagen source "gen" (readers 0..readers-1) that a snapshot
// records ("<share>/<shares>:<next row>" per share); -1 after a failure.
int64_t DatagenRowsBefore(const Snapshot& snapshot, int readers) {
  int64_t emitted = 0;
  for (int subtask = 0; subtask < readers; ++subtask) {
    const std::string key = fmt::format("floe.source-position.gen.{}", subtask);
    if (!snapshot.summary.contains(key)) {
      ADD_FAILURE() << "snapshot " << snapshot.snapshot_id << " has no " << key;
      return -1;
    }
    for (std::string_view share :
         std::views::split(snapshot.summary.at(key), ',') |
             std::views::transform([](auto r) { return std::string_view(r.begin(), r.end()); })) {
      int64_t i = 0, n = 0, next = 0;
      if (std::sscanf(std::string(share).c_str(), "%ld/%ld:%ld", &i, &n, &next) != 3) {
        ADD_FAILURE() << key << ": " << share;
        return -1;
      }
      emitted += RowsBefore(i, n, next);
    }
  }
  return emitted;
}

std::map<std::string, std::string> DatagenOptions(int64_t rows) {
  return {{"number-of-rows", std::to_string(rows)},
          {"batch-size", "50"},
          {"split-count", "4"},
          {"fields.k.kind", "sequence"},
          {"fields.k.start", "0"},
          {"fields.k.end", std::to_string(rows - 1)}};
}

// Every snapshot of a streaming job records where each datagen reader was at its checkpoint
// ("<share>/<shares>:<next row>" per share): the rows before those positions are exactly the rows
// the table holds at that snapshot (its total-records), and at the end they are all the rows.
TEST_F(IcebergSinkJobTest, SnapshotsRecordTheDatagenPositionsTheyCommit) {
  CreateTable(/*partitioned=*/false, /*identifier=*/false);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 20,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  constexpr int64_t kCount = 2000;
  auto options = DatagenOptions(kCount);
  options["rows-per-second"] = "5000";
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(RowSchema(), options));
  DataStream rows = env.FromSource(source, "gen");
  FLOE_ASSERT_OK(IcebergSink::ForRows(rows).TableLoader(Loader()).Append());
  FLOE_ASSERT_OK(env.Execute("positions"));
  EXPECT_EQ(ReadTable().size(), static_cast<size_t>(kCount));
  auto snapshots = Snapshots();
  ASSERT_GE(snapshots.size(), 3U);
  for (const SnapshotPtr& snapshot : snapshots) {
    EXPECT_EQ(std::to_string(DatagenRowsBefore(*snapshot, 2)),
              snapshot->summary.at("total-records"))
        << "snapshot " << snapshot->snapshot_id;
  }
  EXPECT_EQ(snapshots.front()->summary.at("total-records"), std::to_string(kCount));
}

// Without checkpoints (batch mode, or streaming without an interval) the sink commits once, when
// its input ends: that commit records the final positions the sources sent with their ends.
void EndOfInputCommitRecordsTheFinalPositions(IcebergSinkJobTest& test, RuntimeMode mode) {
  StreamEnvironment env({.mode = mode, .parallelism = 2});
  constexpr int64_t kCount = 1000;
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, DatagenSource::Make(RowSchema(), DatagenOptions(kCount)));
  DataStream rows = env.FromSource(source, "gen");
  FLOE_ASSERT_OK(
      IcebergSink::ForRows(rows).TableLoader(test.Loader()).WriteParallelism(3).Append());
  FLOE_ASSERT_OK(env.Execute("end-positions"));
  const std::map<int64_t, std::string> table = test.ReadTable();
  ASSERT_EQ(table.size(), static_cast<size_t>(kCount));
  EXPECT_EQ(table.begin()->first, 0);
  EXPECT_EQ(table.rbegin()->first, kCount - 1);
  auto snapshots = test.Snapshots();
  ASSERT_EQ(snapshots.size(), 1U);
  EXPECT_EQ(snapshots[0]->summary.at("floe.checkpoint-id"),
            std::to_string(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(DatagenRowsBefore(*snapshots[0], 2), kCount);
}

TEST_F(IcebergSinkJobTest, BatchCommitRecordsTheFinalSourcePositions) {
  CreateTable(/*partitioned=*/false, /*identifier=*/false);
  EndOfInputCommitRecordsTheFinalPositions(*this, RuntimeMode::kBatch);
}

TEST_F(IcebergSinkJobTest, StreamingCommitWithoutCheckpointsRecordsTheFinalSourcePositions) {
  CreateTable(/*partitioned=*/false, /*identifier=*/false);
  EndOfInputCommitRecordsTheFinalPositions(*this, RuntimeMode::kStreaming);
}

// A bounded file source reports, with the end of its input, how many files its enumerator found
// and handed out (the last of them by name), and its reader the last file and the rows it read
// from it: what the files written here say.
TEST_F(IcebergSinkJobTest, FileSourcePositionsAtTheEndOfABatchJob) {
  CreateTable(/*partitioned=*/false, /*identifier=*/false);
  const std::filesystem::path folder = dir_.path() / "in";
  std::filesystem::create_directories(folder);
  const std::map<std::string, std::pair<int64_t, int64_t>> files = {
      {"a.csv", {0, 3}}, {"b.csv", {3, 8}}, {"c.csv", {8, 10}}};  // rows [first, end)
  for (const auto& [name, range] : files) {
    std::ofstream out(folder / name);
    for (int64_t k = range.first; k < range.second; ++k)
      out << k << "," << k % 7 << ",r" << k << "\n";
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            FileSource::Make(std::make_shared<io::LocalFileIO>(), RowSchema(),
                                             {{"path", folder.string()}, {"format", "csv"}}));
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 1});
  DataStream rows = env.FromSource(source, "files");
  FLOE_ASSERT_OK(IcebergSink::ForRows(rows).TableLoader(Loader()).Append());
  FLOE_ASSERT_OK(env.Execute("file-positions"));
  EXPECT_EQ(ReadTable(), Numbered(10));
  auto snapshots = Snapshots();
  ASSERT_EQ(snapshots.size(), 1U);
  const StringMap& summary = snapshots[0]->summary;
  ASSERT_TRUE(summary.contains("floe.source-position.files"));
  ASSERT_TRUE(summary.contains("floe.source-position.files.0"));
  FLOE_ASSERT_OK_AND_ASSIGN(Json enumerator, Json::Parse(summary.at("floe.source-position.files")));
  EXPECT_EQ(enumerator.GetInt("discovered").value(), 3);
  EXPECT_EQ(enumerator.GetInt("pending").value(), 0);
  EXPECT_TRUE(enumerator.GetString("last-assigned").value().ends_with("/c.csv"))
      << enumerator.Dump();
  FLOE_ASSERT_OK_AND_ASSIGN(Json reader, Json::Parse(summary.at("floe.source-position.files.0")));
  EXPECT_TRUE(reader.GetString("file").value().ends_with("/c.csv")) << reader.Dump();
  EXPECT_EQ(reader.GetInt("rows").value(), 2);
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
          v.emplace_back(fmt::format("r{}", n));
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
  for (int64_t n = 0; n < 1200; ++n) expected[n % 37] = fmt::format("r{}", n);
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
  for (int64_t n = 0; n < 1000; ++n) expected[{n % 40, n % 7}] = fmt::format("r{}", n);
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

// Range distribution into a table sorted by k, with 40% of the rows on one k (500): the three
// writers get about equal row counts once statistics exist (from checkpoint 3 on: the assignment
// of checkpoint 1 is pinned at barrier 2), each writer's files of a checkpoint cover a k range
// that overlaps no other writer's (a split key may end one range and start the next), and the
// table reads back as the same job writes it with distribution none and as the rows generated.
TEST_F(IcebergSinkJobTest, RangeDistributionBalancesSkewedKeysInContiguousRanges) {
  auto loader_of = [&](const std::string& name) {
    return TableLoader::FromCatalog(
        "lake", {{"catalog-type", "hadoop"}, {"warehouse", (dir_.path() / "wh").string()}},
        catalog::TableIdentifier{{{"db"}}, name});
  };
  auto catalog = loader_of("x").LoadCatalog().value();
  ASSERT_TRUE(catalog->CreateNamespace({{"db"}}, {}).has_value());
  auto skew = [](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
    std::vector<Value> k;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      const int64_t n = batch.column(0).Value<int64_t>(i);
      k.emplace_back(n % 5 < 2 ? int64_t{500} : n * 7919 % 1000);
    }
    return RecordBatch::Make(batch.schema(), {MakeArray(DataType::Int64(), k).value(),
                                              batch.column(1), batch.column(2)});
  };
  // (k, v) of every row, sorted.
  auto read = [&](const TableLoader& loader) {
    auto table = loader.Load().value();
    table::TableScan scan(table->metadata(), table->io());
    table::TaskReader reader(table->io(), scan.schema().value(), scan.ProjectedSchema().value());
    std::vector<std::pair<int64_t, std::string>> rows;
    auto tasks = scan.PlanTasks();
    EXPECT_TRUE(tasks.has_value());
    if (!tasks) return rows;
    for (const auto& group : *tasks) {
      FLOE_EXPECT_OK(reader.Read(group, [&](RecordBatch batch) -> Status {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          rows.emplace_back(batch.column(0).Value<int64_t>(i),
                            GetValue(batch.column(2), i).get<std::string>());
        }
        return {};
      }));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  for (const auto& [name, mode] : {std::pair{"ranged", DistributionMode::kRange},
                                   std::pair{"plain", DistributionMode::kNone}}) {
    catalog::CreateTableRequest request;
    using namespace floe::types;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "k", Long()), Required(2, "g", Int()),
                                 Optional(3, "v", String())},
        0, std::vector<int32_t>{});
    request.sort_order =
        std::make_shared<SortOrder>(1, std::vector<SortField>{SortField{.source_ids = {1}}});
    ASSERT_TRUE(catalog->CreateTable({{{"db"}}, name}, request).has_value());
    StreamEnvironment env({.parallelism = 2,
                           .checkpoint_interval_ms = 10,
                           .checkpoint_dir = (dir_.path() / name).string()});
    // 10 batches per reader and checkpoint, whatever the timing: the statistics of every
    // checkpoint, and so the ranges, are the same in every run.
    DataStream rows =
        env.FromSource(std::make_shared<CheckpointPacedSource>(RowsSource(200, 50), 10), "rows");
    DataStream skewed = rows.Transform("skew", RowSchema(), Lambda(skew));
    FLOE_ASSERT_OK(IcebergSink::ForRows(skewed)
                       .TableLoader(loader_of(name))
                       .DistributionMode(mode)
                       .WriteParallelism(3)
                       .Append());
    FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute(std::string(name) + "-job"));
    // Each reader's 100 batches in 10 checkpoints, the last one the final checkpoint: the rows
    // of checkpoints 3 to 10 are ranged by the assignments of checkpoints 1 to 8.
    EXPECT_GE(result.checkpoints_completed, 10);
  }
  std::vector<std::pair<int64_t, std::string>> expected;
  for (int64_t n = 0; n < 10000; ++n) {
    expected.emplace_back(n % 5 < 2 ? 500 : n * 7919 % 1000, fmt::format("r{}", n));
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(read(loader_of("ranged")), expected);
  EXPECT_EQ(read(loader_of("plain")), expected);

  // Per checkpoint (from the snapshot summaries) and writer (file name prefix): rows and k range.
  auto table = loader_of("ranged").Load().value();
  std::map<int64_t, int64_t> checkpoint_of_sequence;
  for (const auto& snapshot : table->metadata()->snapshots()) {
    checkpoint_of_sequence[snapshot->sequence_number] =
        std::stoll(snapshot->summary.at("floe.checkpoint-id"));
  }
  struct Range {
    int64_t rows = 0;
    int64_t low = std::numeric_limits<int64_t>::max();
    int64_t high = std::numeric_limits<int64_t>::min();
  };
  std::map<int64_t, std::map<std::string, Range>> ranges;  // checkpoint -> writer -> range
  std::map<std::string, int64_t> rows_of_writer;           // from checkpoint 3 on
  table::TableScan scan(table->metadata(), table->io());
  auto files = scan.IncludeColumnStats().PlanFiles();
  ASSERT_TRUE(files.has_value());
  for (const auto& task : *files) {
    const int64_t checkpoint = checkpoint_of_sequence.at(task.data_sequence_number);
    if (checkpoint < 3) continue;
    const std::string& path = task.data_file->file_path;
    const std::string writer = path.substr(path.rfind('/') + 1, 5);
    Range& range = ranges[checkpoint][writer];
    range.rows += task.data_file->record_count;
    auto bound = [](const manifest::BoundMap& bounds) {
      auto it = std::find_if(bounds.begin(), bounds.end(),
                             [](const auto& entry) { return entry.first == 1; });
      EXPECT_NE(it, bounds.end());
      return it == bounds.end()
                 ? 0
                 : Literal::FromBinary(types::Long(), it->second).value().long_value();
    };
    range.low = std::min(range.low, bound(task.data_file->lower_bounds));
    range.high = std::max(range.high, bound(task.data_file->upper_bounds));
    rows_of_writer[writer] += task.data_file->record_count;
  }
  ASSERT_FALSE(ranges.empty());
  for (const auto& [checkpoint, writers] : ranges) {
    for (auto it = writers.begin(); std::next(it) != writers.end(); ++it) {
      EXPECT_LE(it->second.high, std::next(it)->second.low)
          << "checkpoint " << checkpoint << ": writer " << it->first << " [" << it->second.low
          << ", " << it->second.high << "], writer " << std::next(it)->first << " ["
          << std::next(it)->second.low << ", " << std::next(it)->second.high << "]";
    }
  }
  ASSERT_EQ(rows_of_writer.size(), 3U);
  int64_t total = 0;
  for (const auto& [writer, rows] : rows_of_writer) total += rows;
  for (const auto& [writer, rows] : rows_of_writer) {
    EXPECT_NEAR(static_cast<double>(rows), total / 3.0, total * 0.1) << writer;
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
