// WriteRows in jobs run by the runtime and driven by hand: dynamic destinations over 50 tables with
// schema changes mid-stream, a failure and restart across many tables, the triggering frequency,
// autosharding, and what the builder refuses. Tables are read back by ClickHouse (icebergLocal),
// an engine independent of floe; the expected rows are recomputed from the datagen's pure
// function.

#include "floe/stream/iceberg/write_rows/write_rows.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>

#include "floe/batch/make_batch.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/collection_source.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/stream/iceberg/write_rows/destination_tables.h"
#include "floe/stream/iceberg/write_rows/dynamic_committer.h"
#include "floe/stream/iceberg/write_rows/dynamic_selector.h"
#include "floe/stream/iceberg/write_rows/dynamic_writer.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/stream/runtime/test_jobs.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/table.h"
#include "floe/table/update/update_schema.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using floe::testing::PeerInstalled;
using floe::testing::RunPeer;

// id long (sequence), t int (which table, random in [0, tables)), v int (random).
BatchSchemaPtr GenSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"t", DataType::Int32(), false},
      Field{"v", DataType::Int32(), false}});
}

// A batch of these columns' values.
RecordBatch BatchOf(std::vector<Field> fields, const std::vector<std::vector<Value>>& columns) {
  return MakeBatch(std::make_shared<const BatchSchema>(std::move(fields)), columns).value();
}

std::shared_ptr<DatagenSource> Datagen(int64_t rows, int tables, int64_t batch_size,
                                       int64_t first = 0) {
  return DatagenSource::Make(GenSchema(), {{"number-of-rows", std::to_string(rows)},
                                           {"rows-per-second", "0"},
                                           {"batch-size", std::to_string(batch_size)},
                                           {"fields.id.kind", "sequence"},
                                           {"fields.id.start", std::to_string(first)},
                                           {"fields.id.end", std::to_string(first + rows - 1)},
                                           {"fields.t.min", "0"},
                                           {"fields.t.max", std::to_string(tables - 1)},
                                           {"fields.v.min", "0"},
                                           {"fields.v.max", "1000000"}})
      .value();
}

// From row `from` on, rows evolve: v becomes a long (plus 2^32, so that it needs one) and a new
// string column note = "n<id>" appears. A batch holding any such row is sent in the new shape,
// with note null and v unchanged for its earlier rows, so the expected values depend on the row
// only.
struct Expected {
  int64_t v = 0;
  std::string note;  // "\N" for null, as ClickHouse's TSV writes it
  friend bool operator==(const Expected&, const Expected&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Expected& e) {
    return os << "{" << e.v << "," << e.note << "}";
  }
};
Expected ExpectedRow(int64_t id, int64_t v, int64_t from) {
  if (id < from) return {v, "\\N"};
  return {v + (int64_t{1} << 32), fmt::format("n{}", id)};
}

Result<RecordBatch> Evolve(const RecordBatch& batch, int64_t from) {
  const Array& ids = batch.column(0);
  bool evolved = false;
  for (int64_t i = 0; i < batch.num_rows(); ++i) evolved |= ids.Value<int64_t>(i) >= from;
  if (!evolved) return batch;
  std::vector<Value> v, note;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    const int64_t id = ids.Value<int64_t>(i);
    const Expected e = ExpectedRow(id, batch.column(2).Value<int32_t>(i), from);
    v.emplace_back(e.v);
    note.emplace_back(id < from ? Value() : Value(e.note));
  }
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"t", DataType::Int32(), false},
      Field{"v", DataType::Int64(), false}, Field{"note", DataType::String(), true}});
  FLOE_ASSIGN_OR_RETURN(Array v_array, MakeArray(DataType::Int64(), v));
  FLOE_ASSIGN_OR_RETURN(Array note_array, MakeArray(DataType::String(), note));
  return RecordBatch::Make(schema, {batch.column(0), batch.column(1), v_array, note_array});
}

// table name -> id -> expected values, from the datagen's pure function.
std::map<std::string, std::map<int64_t, Expected>> ExpectedTables(const DatagenSource& source,
                                                                  int64_t rows, int64_t from) {
  std::vector<int64_t> indices(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) indices[static_cast<size_t>(i)] = i;
  RecordBatch all = source.GenerateRows(indices).value();
  std::map<std::string, std::map<int64_t, Expected>> tables;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t id = all.column(0).Value<int64_t>(i);
    tables[fmt::format("t_{}", all.column(1).Value<int32_t>(i))][id] =
        ExpectedRow(id, all.column(2).Value<int32_t>(i), from);
  }
  return tables;
}

class WriteRowsTest : public ::testing::Test {
 protected:
  StringMap CatalogProperties() const {
    return {{"catalog-type", "hadoop"}, {"warehouse", (dir_.path() / "wh").string()}};
  }
  std::shared_ptr<catalog::Catalog> Catalog() const {
    return catalog::CreateCatalog("lake", CatalogProperties()).value();
  }
  std::shared_ptr<table::Table> Load(const std::string& name) const {
    return table::Table::Load(Catalog(), catalog::TableIdentifier::Parse("db." + name).value())
        .value();
  }
  std::vector<SnapshotPtr> Snapshots(const std::string& name) const {
    auto metadata = Load(name)->metadata();
    std::vector<SnapshotPtr> out;
    const SnapshotRef* ref = metadata->FindRef("main");
    for (SnapshotPtr s = ref ? metadata->SnapshotById(ref->snapshot_id) : nullptr; s != nullptr;
         s = s->parent_snapshot_id ? metadata->SnapshotById(*s->parent_snapshot_id) : nullptr) {
      out.insert(out.begin(), s);
    }
    return out;
  }

  // Every table's rows as ClickHouse reads them: name -> id -> (v, note); fails on an id seen
  // twice in a table.
  std::map<std::string, std::map<int64_t, Expected>> ReadByClickHouse(
      const std::vector<std::string>& tables, bool with_note) {
    std::string sql;
    for (const std::string& name : tables) {
      if (!sql.empty()) sql += " UNION ALL ";
      sql += fmt::format("SELECT '{}' AS t, id, v, {} FROM icebergLocal('{}')", name,
                         with_note ? "note" : "NULL", Load(name)->metadata()->location());
    }
    auto out = RunPeer("ch", {sql, "TSV"});
    EXPECT_TRUE(out.has_value()) << (out ? "" : out.error().message());
    std::map<std::string, std::map<int64_t, Expected>> read;
    if (!out) return read;
    std::istringstream lines(*out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      std::vector<std::string> cells;
      std::istringstream parts(line);
      std::string cell;
      while (std::getline(parts, cell, '\t')) cells.push_back(cell);
      EXPECT_EQ(cells.size(), 4U) << line;
      if (cells.size() != 4) continue;
      const int64_t id = std::stoll(cells[1]);
      auto [it, inserted] = read[cells[0]].emplace(id, Expected{std::stoll(cells[2]), cells[3]});
      EXPECT_TRUE(inserted) << cells[0] << ": id " << id << " twice";
    }
    return read;
  }

  floe::testing::TempDir dir_;
};

std::vector<std::string> TableNames(int tables) {
  std::vector<std::string> names;
  for (int t = 0; t < tables; ++t) names.push_back(fmt::format("t_{}", t));
  return names;
}

// 50 tables from one datagen stream, two writer subtasks evolving the same tables concurrently
// (a new column and int -> long half way): every table holds exactly its rows, by ClickHouse.
TEST_F(WriteRowsTest, FiftyTablesWithSchemaChangesMidStream) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  constexpr int64_t kRows = 6000;
  constexpr int kTables = 50;
  constexpr int64_t kFrom = kRows / 2;
  auto source = Datagen(kRows, kTables, 150);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 20,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  DataStream rows = env.FromSource(source, "datagen");
  DataStream evolving = rows.Transform(
      "evolve", GenSchema(),
      testing::Lambda([](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        FLOE_ASSIGN_OR_RETURN(RecordBatch out, Evolve(batch, kFrom));
        return out;
      }));
  FLOE_ASSERT_OK_AND_ASSIGN(DataStream snapshots, WriteRows::Of(evolving)
                                                      .Catalog("lake", CatalogProperties())
                                                      .To(std::string("db.t_{t}"))
                                                      .PartitionFields({"bucket(id, 4)"})
                                                      .SinkId("fifty")
                                                      .Apply());
  auto committed = env.Collect(snapshots, "committed");
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("fifty-tables"));
  (void)result;

  const auto expected = ExpectedTables(*source, kRows, kFrom);
  ASSERT_EQ(expected.size(), static_cast<size_t>(kTables));
  EXPECT_EQ(ReadByClickHouse(TableNames(kTables), /*with_note=*/true), expected);
  for (const std::string& name : TableNames(kTables)) {
    const TableMetadataPtr metadata = Load(name)->metadata();
    const Schema& schema = *metadata->current_schema();
    ASSERT_NE(schema.FindField("note"), nullptr) << name;
    EXPECT_EQ(schema.FindField("v")->type->ToString(), "long") << name;
    for (const SnapshotPtr& snapshot : Snapshots(name)) {
      EXPECT_EQ(snapshot->summary.at("floe.sink-id"), "fifty");
    }
  }
  // The result stream names every snapshot the tables hold.
  std::set<std::pair<std::string, int64_t>> reported;
  for (const RecordBatch& batch : committed->batches()) {
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      reported.emplace(std::string(batch.column(0).GetString(i)),
                       batch.column(1).Value<int64_t>(i));
    }
  }
  std::set<std::pair<std::string, int64_t>> held;
  for (const std::string& name : TableNames(kTables)) {
    for (const SnapshotPtr& snapshot : Snapshots(name)) {
      if (snapshot->summary.contains("floe.sink-id"))
        held.emplace("db." + name, snapshot->snapshot_id);
    }
  }
  EXPECT_EQ(reported, held);
}

// A streaming job over 20 tables fails once in the middle and restarts from its latest
// checkpoint: ClickHouse finds every row exactly once in its table.
TEST_F(WriteRowsTest, FailureAndRestartAcrossManyTablesIsExactlyOnce) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  constexpr int64_t kRows = 8000;
  constexpr int kTables = 20;
  auto source = Datagen(kRows, kTables, 100);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 2, .delay_ms = 0}});
  auto failed = std::make_shared<std::atomic<int>>(0);
  auto seen = std::make_shared<std::atomic<int>>(0);
  DataStream rows = env.FromSource(source, "datagen");
  DataStream slow = rows.Transform(
      "slow", GenSchema(),
      testing::Lambda([failed, seen](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (++*seen == 50 && failed->exchange(1) == 0) return IOError("injected failure");
        return batch;
      }));
  FLOE_ASSERT_OK(WriteRows::Of(slow)
                     .Catalog("lake", CatalogProperties())
                     .To(std::string("db.t_{t}"))
                     .WithDistributionMode(DistributionMode::kHash)
                     .SinkId("crash")
                     .Apply());
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("crash-many-tables"));
  EXPECT_EQ(result.restarts, 1);
  EXPECT_EQ(ReadByClickHouse(TableNames(kTables), /*with_note=*/false),
            ExpectedTables(*source, kRows, /*from=*/kRows));
}

// Drives a writer and the committer by hand with a fake clock.
struct HandDriven {
  std::shared_ptr<std::atomic<int64_t>> now = std::make_shared<std::atomic<int64_t>>(0);
  std::unique_ptr<testing::OperatorHarness> writer;
  std::unique_ptr<testing::OperatorHarness> committer;

  HandDriven(const WriteRowsSpec& spec, std::vector<std::string> restored = {}) {
    OperatorContext context{.job_name = "hand", .operator_name = "writer"};
    writer =
        std::make_unique<testing::OperatorHarness>(std::make_unique<DynamicWriter>(spec), context);
    context.operator_name = "committer";
    context.restored_state = std::move(restored);
    committer = std::make_unique<testing::OperatorHarness>(std::make_unique<DynamicCommitter>(spec),
                                                           context);
  }
  // One checkpoint: the writer's files to the committer, both snapshot.
  Result<std::vector<std::string>> Checkpoint(int64_t id) {
    FLOE_RETURN_IF_ERROR(writer->SnapshotState(id));
    for (Message& message : writer->output().TakeMessages()) {
      FLOE_RETURN_IF_ERROR(committer->ProcessMessage(std::move(message)));
    }
    return committer->SnapshotState(id);
  }
};

// Rows (id, t) for tables "a" and "b".
RecordBatch TwoTableRows(int64_t first, int64_t count) {
  std::vector<Value> ids, ts;
  for (int64_t i = first; i < first + count; ++i) {
    ids.emplace_back(i);
    ts.emplace_back(i % 2 == 0 ? "a" : "b");
  }
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false}});
  return RecordBatch::Make(schema, {MakeArray(DataType::Int64(), ids).value(),
                                    MakeArray(DataType::String(), ts).value()})
      .value();
}

WriteRowsSpec HandSpec(const StringMap& catalog, int64_t frequency_ms,
                       std::shared_ptr<std::atomic<int64_t>> now) {
  WriteRowsSpec spec;
  spec.catalog_name = "lake";
  spec.catalog_properties = catalog;
  spec.destinations = DynamicDestinations::Template("db.{t}").value();
  spec.sink_id = "hand";
  spec.triggering_frequency_ms = frequency_ms;
  spec.clock = [now] { return now->load(); };
  spec.tables.clock = spec.clock;
  return spec;
}

// Checkpoints every second, triggering frequency 3 s: one snapshot per table every third
// checkpoint, tagged with the last checkpoint it covers; the rest commits at the end of input.
TEST_F(WriteRowsTest, TriggeringFrequencyCommitsOneSnapshotPerTablePerTrigger) {
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  HandDriven job(HandSpec(CatalogProperties(), 3000, now));
  job.now = now;
  FLOE_ASSERT_OK(job.writer->Open());
  FLOE_ASSERT_OK(job.committer->Open());
  for (int64_t checkpoint = 1; checkpoint <= 10; ++checkpoint) {
    FLOE_ASSERT_OK(job.writer->ProcessBatch(TwoTableRows(checkpoint * 100, 10)));
    FLOE_ASSERT_OK(job.Checkpoint(checkpoint));
    *now += 1000;
    FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(checkpoint));
  }
  for (const std::string name : {"a", "b"}) {
    std::vector<std::string> ids;
    for (const SnapshotPtr& s : Snapshots(name)) ids.push_back(s->summary.at("floe.checkpoint-id"));
    EXPECT_EQ(ids, (std::vector<std::string>{"3", "6", "9"})) << name;
  }
  FLOE_ASSERT_OK(job.writer->Finish());
  for (Message& message : job.writer->output().TakeMessages()) {
    FLOE_ASSERT_OK(job.committer->ProcessMessage(std::move(message)));
  }
  FLOE_ASSERT_OK(job.committer->Finish());
  EXPECT_EQ(Snapshots("a").size(), 4U);
  EXPECT_EQ(Snapshots("b").size(), 4U);
  // The result rows: one per snapshot of each table.
  int64_t reported = 0;
  for (const RecordBatch& batch : job.committer->output().batches) reported += batch.num_rows();
  EXPECT_EQ(reported, 8);
}

// A crash after checkpoint 2 was taken but before it was committed (trigger not due): the restored
// committer commits checkpoints 1 and 2 at once, exactly once; restoring the same state again (a
// lost response) commits nothing more.
TEST_F(WriteRowsTest, RestoreCommitsPendingCheckpointsOnce) {
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  std::vector<std::string> state;
  {
    HandDriven job(HandSpec(CatalogProperties(), 60'000, now));
    FLOE_ASSERT_OK(job.writer->Open());
    FLOE_ASSERT_OK(job.committer->Open());
    FLOE_ASSERT_OK(job.writer->ProcessBatch(TwoTableRows(0, 10)));
    FLOE_ASSERT_OK(job.Checkpoint(1));
    FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(1));
    FLOE_ASSERT_OK(job.writer->ProcessBatch(TwoTableRows(10, 10)));
    FLOE_ASSERT_OK_AND_ASSIGN(state, job.Checkpoint(2));
  }
  EXPECT_TRUE(Snapshots("a").empty());
  for (int attempt = 0; attempt < 2; ++attempt) {
    HandDriven job(HandSpec(CatalogProperties(), 60'000, now), state);
    FLOE_ASSERT_OK(job.committer->Open());
  }
  for (const std::string name : {"a", "b"}) {
    auto snapshots = Snapshots(name);
    ASSERT_EQ(snapshots.size(), 1U) << name;
    EXPECT_EQ(snapshots[0]->summary.at("floe.checkpoint-id"), "2");
    EXPECT_EQ(snapshots[0]->summary.at("added-records"), "10");
  }
}

SourcePositions At(std::string position) { return {{"src", std::move(position)}}; }

// The positions the barriers carry reach every table's snapshot under the IcebergSink's summary
// keys: with a triggering frequency, those of the last checkpoint a snapshot covers; after a
// restore, those kept in the state; at the end of the input, the final ones.
TEST_F(WriteRowsTest, SnapshotsRecordTheSourcePositionsOfTheirCheckpoint) {
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  auto barrier = [](int64_t id, std::string position) {
    return CheckpointBarrier{.checkpoint_id = id,
                             .positions = std::make_shared<const SourcePositions>(At(position))};
  };
  std::vector<std::string> state;
  {
    HandDriven job(HandSpec(CatalogProperties(), 2000, now));
    FLOE_ASSERT_OK(job.writer->Open());
    FLOE_ASSERT_OK(job.committer->Open());
    for (int64_t checkpoint = 1; checkpoint <= 3; ++checkpoint) {
      FLOE_ASSERT_OK(job.writer->ProcessBatch(TwoTableRows(checkpoint * 100, 10)));
      FLOE_ASSERT_OK(job.writer->SnapshotState(checkpoint));
      for (Message& message : job.writer->output().TakeMessages()) {
        FLOE_ASSERT_OK(job.committer->ProcessMessage(std::move(message)));
      }
      FLOE_ASSERT_OK_AND_ASSIGN(state, job.committer->SnapshotCheckpoint(
                                           barrier(checkpoint, fmt::format("p{}", checkpoint))));
      if (checkpoint == 3) break;  // the crash: checkpoint 3 is complete, never notified
      *now += 1000;
      FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(checkpoint));
    }
  }
  HandDriven restored(HandSpec(CatalogProperties(), 2000, now), state);
  FLOE_ASSERT_OK(restored.committer->Open());
  FLOE_ASSERT_OK(restored.writer->Open());
  FLOE_ASSERT_OK(restored.writer->ProcessBatch(TwoTableRows(400, 10)));
  FLOE_ASSERT_OK(restored.writer->Finish());
  for (Message& message : restored.writer->output().TakeMessages()) {
    FLOE_ASSERT_OK(restored.committer->ProcessMessage(std::move(message)));
  }
  FLOE_ASSERT_OK(restored.committer->FinishInput(
      EndOfInput{.positions = std::make_shared<const SourcePositions>(At("end"))}));
  for (const std::string name : {"a", "b"}) {
    std::vector<std::pair<std::string, std::string>> tagged;
    for (const SnapshotPtr& s : Snapshots(name)) {
      auto position = s->summary.find("floe.source-position.src");
      tagged.emplace_back(s->summary.at("floe.checkpoint-id"),
                          position == s->summary.end() ? "(none)" : position->second);
    }
    EXPECT_EQ(tagged, (std::vector<std::pair<std::string, std::string>>{
                          {"2", "p2"},
                          {"3", "p3"},
                          {std::to_string(std::numeric_limits<int64_t>::max()), "end"}}))
        << name;
  }
}

// In a job: every snapshot of every table records where each datagen reader was at the
// checkpoint it commits, and the table then holds exactly its rows generated before those
// positions (recomputed from the datagen's pure function). The source waits for a checkpoint
// after every four batches per reader, so the job commits several times whatever the timing.
TEST_F(WriteRowsTest, SnapshotsRecordTheDatagenPositionsTheyCommit) {
  constexpr int64_t kRows = 1200;
  constexpr int kTables = 3;
  auto datagen = Datagen(kRows, kTables, 50);
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  DataStream rows =
      env.FromSource(std::make_shared<testing::CheckpointPacedSource>(datagen, 4), "gen");
  FLOE_ASSERT_OK(WriteRows::Of(rows)
                     .Catalog("lake", CatalogProperties())
                     .To(std::string("db.t_{t}"))
                     .SinkId("positions")
                     .Apply());
  FLOE_ASSERT_OK(env.Execute("write-rows-positions"));
  std::vector<int64_t> indices(kRows);
  for (int64_t i = 0; i < kRows; ++i) indices[static_cast<size_t>(i)] = i;
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch all, datagen->GenerateRows(indices));
  size_t snapshots = 0;
  for (int t = 0; t < kTables; ++t) {
    const std::string name = fmt::format("t_{}", t);
    for (const SnapshotPtr& snapshot : Snapshots(name)) {
      SCOPED_TRACE(name + " at checkpoint " + snapshot->summary.at("floe.checkpoint-id"));
      ++snapshots;
      // share -> next row of it, from "<share>/<shares>:<next>" of each reader.
      std::map<int64_t, int64_t> next_of_share;
      int64_t shares = 0;
      for (int reader = 0; reader < 2; ++reader) {
        auto it = snapshot->summary.find(fmt::format("floe.source-position.gen.{}", reader));
        ASSERT_NE(it, snapshot->summary.end()) << reader;
        std::istringstream entries(it->second);
        std::string entry;
        while (std::getline(entries, entry, ',')) {
          int64_t share = 0, next = 0;
          ASSERT_EQ(std::sscanf(entry.c_str(), "%ld/%ld:%ld", &share, &shares, &next), 3) << entry;
          next_of_share[share] = next;
        }
      }
      int64_t expected = 0;
      for (int64_t i = 0; i < kRows; ++i) {
        auto next = next_of_share.find(i % shares);
        ASSERT_NE(next, next_of_share.end()) << "share of row " << i;
        if (i < next->second && all.column(1).Value<int32_t>(i) == t) ++expected;
      }
      EXPECT_EQ(snapshot->summary.at("total-records"), std::to_string(expected));
    }
  }
  EXPECT_GT(snapshots, static_cast<size_t>(kTables));
}

// Widening float -> double and decimal(9, 2) -> decimal(18, 2), a required column made optional,
// and a column the rows stop carrying written as null: the table's schema says so, and ClickHouse
// reads every row with its value.
TEST_F(WriteRowsTest, EvolutionWidensAndRelaxesColumns) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  HandDriven job(HandSpec(CatalogProperties(), 0, now));
  FLOE_ASSERT_OK(job.writer->Open());
  FLOE_ASSERT_OK(job.committer->Open());
  const Field t{"t", DataType::String(), false};
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, Field{"id", DataType::Int64(), false}, Field{"f", DataType::Float32(), false},
               Field{"d", DataType::Decimal128(9, 2), false}},
              {{"w"}, {int64_t{1}}, {1.5F}, {DecimalValue{12345, 9, 2}}})));
  FLOE_ASSERT_OK(job.Checkpoint(1));
  FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(1));
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, Field{"id", DataType::Int64(), true}, Field{"f", DataType::Float64(), false},
               Field{"d", DataType::Decimal128(18, 2), false}},
              {{"w"}, {int64_t{2}}, {2.25}, {DecimalValue{123456789012345, 18, 2}}})));
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, Field{"id", DataType::Int64(), true}}, {{"w"}, {int64_t{3}}})));
  FLOE_ASSERT_OK(job.Checkpoint(2));
  FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(2));

  const TableMetadataPtr metadata = Load("w")->metadata();
  const Schema& schema = *metadata->current_schema();
  EXPECT_FALSE(schema.FindField("id")->required);
  EXPECT_FALSE(schema.FindField("f")->required);
  EXPECT_EQ(schema.FindField("f")->type->ToString(), "double");
  EXPECT_EQ(schema.FindField("d")->type->ToString(), "decimal(18, 2)");
  auto out = RunPeer(
      "ch",
      {"SELECT id, f, d FROM icebergLocal('" + metadata->location() + "') ORDER BY id", "TSV"});
  ASSERT_TRUE(out.has_value()) << out.error().message();
  EXPECT_EQ(*out, "1\t1.5\t123.45\n2\t2.25\t1234567890123.45\n3\t\\N\t\\N\n");
}

// Lists, maps and structs: the table is made from the first batch, whose nested fields get the
// table's ids; later batches hold the same columns with field ids of their own (or none), struct
// fields in another order or fewer, narrower leaves. They fit by name, and ClickHouse reads every
// row as written. What cannot fit is refused, naming the nested field.
TEST_F(WriteRowsTest, NestedColumnsFitTheTableByName) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  HandDriven job(HandSpec(CatalogProperties(), 0, now));
  FLOE_ASSERT_OK(job.writer->Open());
  FLOE_ASSERT_OK(job.committer->Open());
  auto text = [](const char* s) { return Value(std::string(s)); };
  const Field t{"t", DataType::String(), false};
  const Field id{"id", DataType::Int64(), false};
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, id, Field{"arr", DataType::List(DataType::Int64())},
               Field{"m", DataType::Map(DataType::String(), DataType::Int64())},
               Field{"p", DataType::Struct({{"x", DataType::Int64()}, {"y", DataType::String()}})}},
              {{text("n")},
               {int64_t{1}},
               {ListValue{{int64_t{1}, int64_t{2}}}},
               {MapValue{{{text("a"), int64_t{1}}}}},
               {StructValue{{{"x", int64_t{10}}, {"y", text("one")}}}}})));
  FLOE_ASSERT_OK(job.Checkpoint(1));
  FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(1));
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, id, Field{"arr", DataType::List(Field{"element", DataType::Int32(), true, 99})},
               Field{"m", DataType::Map(Field{"key", DataType::String(), false, 70},
                                        Field{"value", DataType::Int64(), true, 71})},
               Field{"p", DataType::Struct({{"y", DataType::String(), true, 50},
                                            {"x", DataType::Int32(), true, 51}})}},
              {{text("n")},
               {int64_t{2}},
               {ListValue{{int64_t{3}}}},
               {MapValue{{{text("b"), int64_t{2}}, {text("c"), int64_t{3}}}}},
               {StructValue{{{"y", text("two")}, {"x", int64_t{20}}}}}})));
  FLOE_ASSERT_OK(job.writer->ProcessBatch(
      BatchOf({t, id, Field{"p", DataType::Struct({{"x", DataType::Int64()}})}},
              {{text("n")}, {int64_t{3}}, {StructValue{{{"x", int64_t{30}}}}}})));
  FLOE_ASSERT_OK(job.Checkpoint(2));
  FLOE_ASSERT_OK(job.committer->NotifyCheckpointComplete(2));

  const TableMetadataPtr metadata = Load("n")->metadata();
  EXPECT_EQ(metadata->current_schema_id(), 0);  // nothing evolved
  EXPECT_EQ(metadata->current_schema()->FindField("arr")->type->ToString(), "list<long>");
  auto out = RunPeer("ch", {"SELECT id, arr, m, p.x, p.y FROM icebergLocal('" +
                                metadata->location() + "') ORDER BY id",
                            "TSV"});
  ASSERT_TRUE(out.has_value()) << out.error().message();
  // ClickHouse reads a null array or map as an empty one.
  EXPECT_EQ(*out,
            "1\t[1,2]\t{'a':1}\t10\tone\n"
            "2\t[3]\t{'b':2,'c':3}\t20\ttwo\n"
            "3\t[]\t{}\t30\t\\N\n");

  Status extra_field = job.writer->ProcessBatch(
      BatchOf({t, id, Field{"p", DataType::Struct({{"z", DataType::String()}})}},
              {{text("n")}, {int64_t{4}}, {StructValue{{{"z", text("zed")}}}}}));
  ASSERT_FALSE(extra_field.has_value());
  EXPECT_EQ(extra_field.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(extra_field.error().message().find("the table has no field 'z'"), std::string::npos)
      << extra_field.error().message();
  Status other_leaf =
      job.writer->ProcessBatch(BatchOf({t, id, Field{"arr", DataType::List(DataType::String())}},
                                       {{text("n")}, {int64_t{4}}, {ListValue{{text("x")}}}}));
  ASSERT_FALSE(other_leaf.has_value());
  EXPECT_NE(other_leaf.error().message().find("'arr.element' is long in the table, the rows "
                                              "hold string"),
            std::string::npos)
      << other_leaf.error().message();
}

// One destination with 90% of the rows: the selector spreads it over several writers by volume;
// the other destinations stay on one writer each.
TEST_F(WriteRowsTest, AutoshardingSpreadsAHotKeyByVolume) {
  WriteRowsSpec spec = HandSpec(CatalogProperties(), 0, std::make_shared<std::atomic<int64_t>>(0));
  DynamicChannelSelector selector(spec, {.autosharding = true}, 0);
  std::map<std::string, std::set<int32_t>> writers_of;
  std::vector<int32_t> channels;
  for (int b = 0; b < 20; ++b) {
    std::vector<Value> ids, ts;
    for (int i = 0; i < 1000; ++i) {
      ids.emplace_back(int64_t{b} * 1000 + i);
      ts.emplace_back(i % 10 == 0 ? fmt::format("cold{}", (i / 10) % 9) : std::string("hot"));
    }
    auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
        Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false}});
    RecordBatch batch = RecordBatch::Make(schema, {MakeArray(DataType::Int64(), ids).value(),
                                                   MakeArray(DataType::String(), ts).value()})
                            .value();
    FLOE_ASSERT_OK(selector.SelectChannels(batch, 4, channels));
    for (int i = 0; i < 1000; ++i) {
      writers_of[ts[i].get<std::string>()].insert(channels[i]);
    }
  }
  EXPECT_GE(writers_of["hot"].size(), 3U);
  for (const auto& [key, writers] : writers_of) {
    if (key != "hot") {
      EXPECT_EQ(writers.size(), 1U) << key;
    }
  }
}

// In a job: the hot table gets one file per writer it was spread over, never more; each cold table
// one file; every row once.
TEST_F(WriteRowsTest, AutoshardingInAJobKeepsFilesFew) {
  std::vector<RecordBatch> batches;
  for (int b = 0; b < 10; ++b) {
    std::vector<Value> ids, ts;
    for (int i = 0; i < 500; ++i) {
      ids.emplace_back(int64_t{b} * 500 + i);
      ts.emplace_back(i % 10 == 0 ? fmt::format("cold{}", i % 3) : std::string("hot"));
    }
    auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
        Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false}});
    batches.push_back(RecordBatch::Make(schema, {MakeArray(DataType::Int64(), ids).value(),
                                                 MakeArray(DataType::String(), ts).value()})
                          .value());
  }
  auto schema = batches[0].schema();
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 1});
  DataStream rows = env.FromSource(std::make_shared<CollectionSource>(schema, batches), "rows");
  FLOE_ASSERT_OK(WriteRows::Of(rows)
                     .Catalog("lake", CatalogProperties())
                     .To(std::string("db.{t}"))
                     .WithDistributionMode(DistributionMode::kHash)
                     .WithAutosharding()
                     .WriteParallelism(4)
                     .Apply());
  FLOE_ASSERT_OK(env.Execute("autoshard"));
  auto files_of = [&](const std::string& name) {
    auto table = Load(name);
    table::TableScan scan(table->metadata(), table->io());
    auto files = scan.PlanFiles().value();
    int64_t records = 0;
    for (const auto& task : files) records += task.data_file->record_count;
    return std::make_pair(files.size(), records);
  };
  auto [hot_files, hot_rows] = files_of("hot");
  EXPECT_GE(hot_files, 2U);
  EXPECT_LE(hot_files, 4U);
  EXPECT_EQ(hot_rows, 4500);
  for (int c = 0; c < 3; ++c) {
    auto [files, records] = files_of(fmt::format("cold{}", c));
    EXPECT_EQ(files, 1U);
    EXPECT_GT(records, 0);
  }
}

// A catalog that counts the calls made to it, forwarding each to a real one: how often
// DestinationTables asks, seen from the catalog's side.
class CountingCatalog : public catalog::Catalog {
 public:
  explicit CountingCatalog(std::shared_ptr<catalog::Catalog> inner) : inner_(std::move(inner)) {}
  const std::string& name() const override { return inner_->name(); }
  std::shared_ptr<io::FileIO> file_io() const override { return inner_->file_io(); }
  Status CreateNamespace(const catalog::Namespace& ns, const StringMap& properties) override {
    ++calls;
    return inner_->CreateNamespace(ns, properties);
  }
  Result<std::vector<catalog::Namespace>> ListNamespaces(const catalog::Namespace& ns) override {
    ++calls;
    return inner_->ListNamespaces(ns);
  }
  Result<bool> NamespaceExists(const catalog::Namespace& ns) override {
    ++calls;
    return inner_->NamespaceExists(ns);
  }
  Result<StringMap> LoadNamespaceProperties(const catalog::Namespace& ns) override {
    ++calls;
    return inner_->LoadNamespaceProperties(ns);
  }
  Status UpdateNamespaceProperties(const catalog::Namespace& ns, const StringMap& updates,
                                   const std::vector<std::string>& removals) override {
    ++calls;
    return inner_->UpdateNamespaceProperties(ns, updates, removals);
  }
  Status DropNamespace(const catalog::Namespace& ns) override {
    ++calls;
    return inner_->DropNamespace(ns);
  }
  Result<std::vector<catalog::TableIdentifier>> ListTables(const catalog::Namespace& ns) override {
    ++calls;
    return inner_->ListTables(ns);
  }
  Result<bool> TableExists(const catalog::TableIdentifier& ident) override {
    ++calls;
    return inner_->TableExists(ident);
  }
  Result<catalog::LoadedTable> LoadTable(const catalog::TableIdentifier& ident) override {
    ++calls;
    return inner_->LoadTable(ident);
  }
  Result<catalog::LoadedTable> CreateTable(const catalog::TableIdentifier& ident,
                                           const catalog::CreateTableRequest& request) override {
    ++calls;
    return inner_->CreateTable(ident, request);
  }
  Result<catalog::LoadedTable> CommitTable(const catalog::TableIdentifier& ident,
                                           const catalog::TableCommit& commit) override {
    ++calls;
    return inner_->CommitTable(ident, commit);
  }
  Status RenameTable(const catalog::TableIdentifier& from,
                     const catalog::TableIdentifier& to) override {
    ++calls;
    return inner_->RenameTable(from, to);
  }
  Status DropTable(const catalog::TableIdentifier& ident, bool purge) override {
    ++calls;
    return inner_->DropTable(ident, purge);
  }
  Result<catalog::LoadedTable> RegisterTable(const catalog::TableIdentifier& ident,
                                             const std::string& location) override {
    ++calls;
    return inner_->RegisterTable(ident, location);
  }
  void Invalidate(const catalog::TableIdentifier& ident) override { inner_->Invalidate(ident); }

  int64_t calls = 0;

 private:
  std::shared_ptr<catalog::Catalog> inner_;
};

// Two destinations asked for a thousand times each: the catalog hears about them when they are
// created and then once per refresh interval, not per batch; a column another job added is seen
// at the first refresh, which bumps the entry's version (writers reopen with the new schema).
TEST_F(WriteRowsTest, CachedMetadataAsksTheCatalogOncePerRefreshInterval) {
  auto now = std::make_shared<std::atomic<int64_t>>(0);
  auto counting = std::make_shared<CountingCatalog>(Catalog());
  DestinationTables tables(counting, DynamicDestinations::Template("db.{t}").value(),
                           {.refresh_interval_ms = 1000, .clock = [now] { return now->load(); }});
  const RecordBatch rows = TwoTableRows(0, 10);
  FLOE_ASSERT_OK(tables.Get("db.a", rows.schema()));
  FLOE_ASSERT_OK(tables.Get("db.b", rows.schema()));
  const int64_t created = counting->calls;
  EXPECT_GT(created, 0);
  for (int i = 0; i < 1000; ++i) {
    FLOE_ASSERT_OK(tables.Get("db.a", rows.schema()));
    FLOE_ASSERT_OK(tables.Get("db.b", rows.schema()));
    // A batch of the same columns in another schema object: still no catalog call.
    FLOE_ASSERT_OK(tables.Get("db.a", TwoTableRows(i, 3).schema()));
  }
  EXPECT_EQ(counting->calls, created);
  EXPECT_EQ(tables.catalog_requests(), counting->calls);

  auto other = Load("a");
  FLOE_ASSERT_OK(other->NewUpdateSchema()->AddColumn("extra", types::String()).Commit());
  FLOE_ASSERT_OK_AND_ASSIGN(DestinationTables::Entry * a, tables.Get("db.a", rows.schema()));
  const int64_t version = a->version;
  EXPECT_EQ(a->table->metadata()->current_schema()->FindField("extra"), nullptr);
  *now += 1000;
  FLOE_ASSERT_OK_AND_ASSIGN(a, tables.Get("db.a", rows.schema()));
  EXPECT_NE(a->table->metadata()->current_schema()->FindField("extra"), nullptr);
  EXPECT_GT(a->version, version);
  FLOE_ASSERT_OK(tables.Get("db.b", rows.schema()));
  for (int i = 0; i < 100; ++i) FLOE_ASSERT_OK(tables.Get("db.a", rows.schema()));
  // One refresh (a table load) per destination for the interval.
  EXPECT_EQ(counting->calls, created + 2);
  EXPECT_EQ(tables.catalog_requests(), counting->calls);
}

// Direct write: a batch of at most the limit goes whole to the writer of its upstream subtask;
// a larger one is shuffled by destination (each table's rows to one writer, several writers used).
TEST_F(WriteRowsTest, DirectWriteByteLimitKeepsSmallBatchesWithTheirTask) {
  WriteRowsSpec spec;
  spec.destinations = DynamicDestinations::Template("db.t_{t}").value();
  auto source = Datagen(4000, 20, 4000);
  std::vector<int64_t> first(10), all(4000);
  for (int64_t i = 0; i < 4000; ++i) all[static_cast<size_t>(i)] = i;
  for (int64_t i = 0; i < 10; ++i) first[static_cast<size_t>(i)] = i;
  const RecordBatch small = source->GenerateRows(first).value();
  const RecordBatch large = source->GenerateRows(all).value();
  const int64_t limit = DynamicChannelSelector::BatchBytes(small);
  ASSERT_GT(DynamicChannelSelector::BatchBytes(large), limit);
  DynamicChannelSelector selector(spec, {.direct_write_byte_limit = limit}, /*upstream=*/3);
  std::vector<int32_t> channels;
  FLOE_ASSERT_OK(selector.SelectChannels(small, 4, channels));
  EXPECT_EQ(std::set<int32_t>(channels.begin(), channels.end()), std::set<int32_t>{3});
  FLOE_ASSERT_OK(selector.SelectChannels(large, 4, channels));
  std::map<int32_t, std::set<int32_t>> writers_of_table;
  for (int64_t i = 0; i < large.num_rows(); ++i) {
    writers_of_table[large.column(1).Value<int32_t>(i)].insert(channels[static_cast<size_t>(i)]);
  }
  std::set<int32_t> used;
  for (const auto& [table, writers] : writers_of_table) {
    EXPECT_EQ(writers.size(), 1U) << table;
    used.insert(*writers.begin());
  }
  EXPECT_GT(used.size(), 1U);
}

// A second job writes the same tables with other partition fields: each table gets the new spec
// online, the second job's files are written in it, and ClickHouse reads every row of both jobs.
TEST_F(WriteRowsTest, PartitionFieldsChangeOnline) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  constexpr int kTables = 3;
  auto run = [&](std::shared_ptr<DatagenSource> source, std::vector<std::string> fields) -> Status {
    StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 2});
    FLOE_RETURN_IF_ERROR(WriteRows::Of(env.FromSource(source, "datagen"))
                             .Catalog("lake", CatalogProperties())
                             .To(std::string("db.t_{t}"))
                             .PartitionFields(std::move(fields))
                             .Apply());
    auto result = env.Execute("spec");
    if (!result) return std::unexpected(result.error());
    return Ok();
  };
  auto before = Datagen(600, kTables, 100);
  auto after = Datagen(600, kTables, 100, /*first=*/600);
  FLOE_ASSERT_OK(run(before, {"bucket(id, 4)"}));
  FLOE_ASSERT_OK(run(after, {"truncate(v, 100000)"}));
  // No evolved rows (ExpectedRow's `from` past every id).
  auto expected = ExpectedTables(*before, 600, 1200);
  for (auto& [name, rows] : ExpectedTables(*after, 600, 1200)) expected[name].merge(rows);
  EXPECT_EQ(ReadByClickHouse(TableNames(kTables), /*with_note=*/false), expected);
  for (const std::string& name : TableNames(kTables)) {
    auto table = Load(name);
    const PartitionSpec& spec = *table->metadata()->default_spec();
    ASSERT_EQ(spec.fields().size(), 1U) << name;
    EXPECT_EQ(spec.fields()[0].name, "v_trunc") << name;
    table::TableScan scan(table->metadata(), table->io());
    std::set<int32_t> specs;
    auto files = scan.PlanFiles().value();
    for (const auto& task : files) specs.insert(task.data_file->spec_id);
    EXPECT_EQ(specs, (std::set<int32_t>{0, spec.spec_id()})) << name;
  }
}

// Two jobs write the same ten tables at once, each creating them on first sight and committing
// every few milliseconds, so that their commits race: every row of both is there exactly once.
TEST_F(WriteRowsTest, TwoJobsWritingTheSameTablesCommitEveryRowOnce) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  constexpr int kTables = 10;
  constexpr int64_t kRows = 3000;
  auto job = [&](std::shared_ptr<DatagenSource> source, std::string name) -> Status {
    StreamEnvironment env({.parallelism = 2,
                           .checkpoint_interval_ms = 5,
                           .checkpoint_dir = (dir_.path() / name).string()});
    DataStream slow =
        env.FromSource(source, "datagen")
            .Transform(
                "slow", GenSchema(),
                testing::Lambda([](int, RecordBatch batch) -> Result<std::optional<RecordBatch>> {
                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
                  return batch;
                }));
    FLOE_RETURN_IF_ERROR(WriteRows::Of(slow)
                             .Catalog("lake", CatalogProperties())
                             .To(std::string("db.t_{t}"))
                             .SinkId(name)
                             .Apply());
    auto result = env.Execute(name);
    if (!result) return std::unexpected(result.error());
    return Ok();
  };
  auto first = Datagen(kRows, kTables, 50);
  auto second = Datagen(kRows, kTables, 50, /*first=*/kRows);
  Status other;
  std::thread thread([&] { other = job(second, "second"); });
  Status mine = job(first, "first");
  thread.join();
  FLOE_ASSERT_OK(mine);
  FLOE_ASSERT_OK(other);
  auto expected = ExpectedTables(*first, kRows, 2 * kRows);
  for (auto& [name, rows] : ExpectedTables(*second, kRows, 2 * kRows)) expected[name].merge(rows);
  EXPECT_EQ(ReadByClickHouse(TableNames(kTables), /*with_note=*/false), expected);
  // Both jobs committed to every table (several times each).
  for (const std::string& name : TableNames(kTables)) {
    std::map<std::string, int> commits;
    for (const SnapshotPtr& snapshot : Snapshots(name))
      ++commits[snapshot->summary.at("floe.sink-id")];
    EXPECT_GE(commits["first"], 1) << name;
    EXPECT_GE(commits["second"], 1) << name;
  }
}

// Upsert destinations at write parallelism 2 from one source subtask, in batches that a rebalance
// would deal to alternating writers: rows are keyed by the equality fields, so the three versions
// of each id reach one writer in order and ClickHouse
// (applying the equality and position deletes) finds each id once, with its last value.
TEST_F(WriteRowsTest, UpsertDestinationsRouteRowsByKey) {
  if (!PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false}, Field{"t", DataType::Int32(), false},
      Field{"v", DataType::Int64(), false}});
  std::vector<RecordBatch> batches;
  for (int64_t round = 0; round < 3; ++round) {
    for (int64_t part = 0; part < 5; ++part) {
      std::vector<Value> ids, ts, vs;
      for (int64_t id = part * 40; id < part * 40 + 40; ++id) {
        ids.emplace_back(id);
        ts.emplace_back(static_cast<int32_t>(id % 2));
        vs.emplace_back(id * 10 + round);
      }
      batches.push_back(RecordBatch::Make(schema, {MakeArray(DataType::Int64(), ids).value(),
                                                   MakeArray(DataType::Int32(), ts).value(),
                                                   MakeArray(DataType::Int64(), vs).value()})
                            .value());
    }
  }
  // One commit for everything: versions of an id written by two writers would both stay, as an
  // equality delete does not apply to data files of its own snapshot.
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 1});
  DataStream rows = env.FromSource(std::make_shared<CollectionSource>(schema, batches), "rows");
  FLOE_ASSERT_OK(WriteRows::Of(rows)
                     .Catalog("lake", CatalogProperties())
                     .To(std::string("db.t_{t}"))
                     .Upsert({"id"})
                     .WriteParallelism(2)
                     .Apply());
  FLOE_ASSERT_OK(env.Execute("upsert"));
  std::map<std::string, std::map<int64_t, Expected>> expected;
  for (int64_t id = 0; id < 200; ++id) {
    expected[fmt::format("t_{}", id % 2)][id] = Expected{id * 10 + 2, "\\N"};
  }
  EXPECT_EQ(ReadByClickHouse(TableNames(2), /*with_note=*/false), expected);
}

TEST_F(WriteRowsTest, RefusesWhatBeamRefuses) {
  StreamEnvironment env({.parallelism = 1,
                         .checkpoint_interval_ms = 100,
                         .checkpoint_dir = (dir_.path() / "checkpoints").string()});
  DataStream bounded = env.FromSource(testing::RowsSource(1, 10), "bounded");
  DataStream endless = env.FromSource(std::make_shared<testing::EndlessSource>(10), "endless");
  auto base = [&](DataStream input) {
    WriteRows write = WriteRows::Of(std::move(input));
    write.Catalog("lake", CatalogProperties()).To(std::string("db.t_{g}"));
    return write;
  };
  auto message = [](Result<DataStream> result) {
    return result ? std::string() : result.error().message();
  };
  EXPECT_NE(
      message(base(bounded).WithDistributionMode(DistributionMode::kRange).Apply()).find("RANGE"),
      std::string::npos);
  EXPECT_NE(message(base(bounded).WithAutosharding().Apply()).find("HASH"), std::string::npos);
  EXPECT_NE(message(base(bounded).WithTriggeringFrequency(std::chrono::seconds(1)).Apply())
                .find("bounded"),
            std::string::npos);
  EXPECT_NE(message(base(endless).Apply()).find("WithTriggeringFrequency"), std::string::npos);
  EXPECT_NE(message(base(bounded).Keep({"k"}).Drop({"v"}).Apply()).find("at most one"),
            std::string::npos);
  WriteRows missing = WriteRows::Of(bounded);
  missing.Catalog("lake", CatalogProperties()).To(std::string("db.t_{nope}"));
  EXPECT_NE(message(missing.Apply()).find("nope"), std::string::npos);
  EXPECT_TRUE(base(endless).WithTriggeringFrequency(std::chrono::seconds(1)).Apply().has_value());
}

}  // namespace
}  // namespace floe::stream
