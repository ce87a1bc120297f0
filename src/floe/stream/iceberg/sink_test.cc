// The IcebergSink's writer and committer operators, driven through OperatorHarness as the runtime
// would drive them, checked against the table read back through the table layer's scan (and, for
// upserts, ClickHouse reading the table folder).

#include <random>
#include <set>

#include "floe/stream/iceberg/sink_test_support.h"
#include "floe/testing/peers.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

using test::Batch;
using test::Row;
using test::Sorted;

class SinkTest : public test::SinkFixture {};

std::string Summary(const SnapshotPtr& snapshot, std::string_view key) {
  auto it = snapshot->summary.find(key);
  return it == snapshot->summary.end() ? "" : it->second;
}

TEST_F(SinkTest, AppendCommitsOneSnapshotPerCheckpoint) {
  CreateTable("category");
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  std::vector<Row> expected;
  int64_t next_id = 0;
  for (int64_t checkpoint = 1; checkpoint <= 3; ++checkpoint) {
    for (int w = 0; w < 2; ++w) {
      std::vector<Row> rows;
      for (int i = 0; i < 50; ++i, ++next_id) {
        rows.push_back({next_id, fmt::format("v{}", next_id), next_id % 3 == 0 ? "a" : "b"});
      }
      FLOE_ASSERT_OK(writers[w]->ProcessBatch(Batch(rows)));
      expected.insert(expected.end(), rows.begin(), rows.end());
    }
    Checkpoint(writers, *committer, checkpoint);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(checkpoint));
    ASSERT_EQ(Snapshots().size(), static_cast<size_t>(checkpoint));
  }
  auto snapshots = Snapshots();
  for (size_t i = 0; i < snapshots.size(); ++i) {
    EXPECT_EQ(snapshots[i]->operation(), "append");
    EXPECT_EQ(Summary(snapshots[i], "floe.checkpoint-id"), std::to_string(i + 1));
    EXPECT_EQ(Summary(snapshots[i], "floe.sink-id"), "test-sink");
    EXPECT_EQ(Summary(snapshots[i], "floe.job-name"), "job");
    EXPECT_EQ(Summary(snapshots[i], "added-records"), "100");
  }
  EXPECT_EQ(ReadTable(), Sorted(expected));
  EXPECT_EQ(committer->metrics().Get("committer.committedDataFilesRecordCount"), 300);
  EXPECT_EQ(committer->metrics().Get("committer.lastCommittedCheckpointId"), 3);
  EXPECT_GT(committer->metrics().Get("committer.lastSuccessfulCommitTimestampMs"), 0);
  // Two partitions per writer per checkpoint.
  EXPECT_EQ(committer->metrics().Get("committer.committedDataFilesCount"), 12);
}

// The job fails after checkpoint 2 completed but before its notification reached the committer:
// the restored committer commits checkpoint 2 once, and again restoring from the same checkpoint
// (the next attempt failed too) commits nothing more.
TEST_F(SinkTest, RestoreAfterCrashBeforeNotifyCommitsOnce) {
  CreateTable();
  SinkSpec spec = Spec();
  std::vector<std::string> state;
  {
    auto writers = Writers(spec, 2);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}, {2, "two", "a"}})));
    Checkpoint(writers, *committer, 1);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
    FLOE_ASSERT_OK(writers[1]->ProcessBatch(Batch({{3, "three", "b"}})));
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{4, "four", "b"}})));
    state = Checkpoint(writers, *committer, 2);
    ASSERT_EQ(state.size(), 1U);
    // The crash: checkpoint 2 is complete, its notification never came.
  }
  ASSERT_EQ(Snapshots().size(), 1U);
  const std::vector<Row> all = {
      {1, "one", "a"}, {2, "two", "a"}, {3, "three", "b"}, {4, "four", "b"}};
  auto restored = Committer(spec, state, 2);
  EXPECT_EQ(Snapshots().size(), 2U);
  EXPECT_EQ(Summary(Snapshots().back(), "floe.checkpoint-id"), "2");
  EXPECT_EQ(ReadTable(), all);
  restored.reset();
  auto again = Committer(spec, state, 2);
  EXPECT_EQ(Snapshots().size(), 2U);
  EXPECT_EQ(ReadTable(), all);

  // The restored job goes on: new checkpoints commit, under a new run.
  auto writers = Writers(spec, 1);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{5, "five", "c"}})));
  Checkpoint(writers, *again, 3);
  FLOE_ASSERT_OK(again->NotifyCheckpointComplete(3));
  EXPECT_EQ(Snapshots().size(), 3U);
  EXPECT_NE(Summary(Snapshots()[2], "floe.run-id"), Summary(Snapshots()[1], "floe.run-id"));
  EXPECT_EQ(ReadTable().size(), 5U);
}

// Each snapshot records the source positions of the barrier of the checkpoint it commits, also
// when it commits after a restore (the positions are in the committer's state).
TEST_F(SinkTest, SnapshotsRecordTheSourcePositionsOfTheirCheckpoint) {
  CreateTable();
  SinkSpec spec = Spec();
  auto at = [](int64_t id, SourcePositions positions) {
    return CheckpointBarrier{.checkpoint_id = id,
                             .positions = std::make_shared<const SourcePositions>(positions)};
  };
  std::vector<std::string> state;
  {
    auto writers = Writers(spec, 1);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
    FLOE_ASSERT_OK(writers[0]->SnapshotState(1));
    for (Message& m : writers[0]->output().TakeMessages()) {
      FLOE_ASSERT_OK(committer->ProcessMessage(std::move(m)));
    }
    FLOE_ASSERT_OK(committer->SnapshotCheckpoint(at(1, {{"src", "100"}, {"src.0", "f:1"}})));
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{2, "two", "a"}})));
    FLOE_ASSERT_OK(writers[0]->SnapshotState(2));
    for (Message& m : writers[0]->output().TakeMessages()) {
      FLOE_ASSERT_OK(committer->ProcessMessage(std::move(m)));
    }
    FLOE_ASSERT_OK_AND_ASSIGN(
        state, committer->SnapshotCheckpoint(at(2, {{"src", "200"}, {"src.0", "f:2"}})));
    // The crash: checkpoint 2 is complete, its notification never came.
  }
  auto restored = Committer(spec, state, 2);
  auto snapshots = Snapshots();
  ASSERT_EQ(snapshots.size(), 2U);
  EXPECT_EQ(Summary(snapshots[0], "floe.source-position.src"), "100");
  EXPECT_EQ(Summary(snapshots[0], "floe.source-position.src.0"), "f:1");
  EXPECT_EQ(Summary(snapshots[1], "floe.checkpoint-id"), "2");
  EXPECT_EQ(Summary(snapshots[1], "floe.source-position.src"), "200");
  EXPECT_EQ(Summary(snapshots[1], "floe.source-position.src.0"), "f:2");
}

// Two processes commit offset ranges of one source (docs/scale-out.md): each snapshot carries
// the merged map of every partition's offset; a range that does not start where the table stands
// fences its commit, which then lands nothing, and is dropped when restored.
TEST_F(SinkTest, OffsetRangesMergeIntoOneMapAndAreFenced) {
  CreateTable();
  SinkSpec spec = Spec();
  auto checkpoint = [&](testing::OperatorHarness& writer, testing::OperatorHarness& committer,
                        int64_t id, std::vector<Row> rows, std::string ranges) {
    if (!rows.empty()) {
      EXPECT_TRUE(writer.ProcessBatch(Batch(rows)).has_value());
    }
    EXPECT_TRUE(writer.SnapshotState(id).has_value());
    for (Message& m : writer.output().TakeMessages()) {
      EXPECT_TRUE(committer.ProcessMessage(std::move(m)).has_value());
    }
    auto positions = std::make_shared<const SourcePositions>(SourcePositions{{"k.0", ranges}});
    auto state = committer.SnapshotCheckpoint(
        CheckpointBarrier{.checkpoint_id = id, .positions = positions});
    EXPECT_TRUE(state.has_value());
    return state ? *state : std::vector<std::string>{};
  };
  auto writers_a = Writers(spec, 1);
  auto a = Committer(spec);
  auto writers_b = Writers(spec, 1);
  auto b = Committer(spec);
  checkpoint(*writers_a[0], *a, 1, {{1, "one", "a"}}, "ranges:t:0=..10,t:1=..5");
  FLOE_ASSERT_OK(a->NotifyCheckpointComplete(1));
  EXPECT_EQ(Summary(Snapshots().back(), "floe.source-offsets.k"), "t:0:10,t:1:5");
  EXPECT_EQ(Summary(Snapshots().back(), "floe.source-position.k.0"), "");
  // B's committer opened before A's commit: its table is stale, the map still merges.
  checkpoint(*writers_b[0], *b, 1, {{2, "two", "a"}}, "ranges:t:2=..7");
  FLOE_ASSERT_OK(b->NotifyCheckpointComplete(1));
  EXPECT_EQ(Summary(Snapshots().back(), "floe.source-offsets.k"), "t:0:10,t:1:5,t:2:7");
  checkpoint(*writers_a[0], *a, 2, {{3, "three", "a"}}, "ranges:t:0=10..12");
  FLOE_ASSERT_OK(a->NotifyCheckpointComplete(2));
  EXPECT_EQ(Summary(Snapshots().back(), "floe.source-offsets.k"), "t:0:12,t:1:5,t:2:7");

  // B read t:0 from 10 too (it was given the partition before A committed): fenced.
  std::vector<std::string> state =
      checkpoint(*writers_b[0], *b, 2, {{4, "four", "a"}}, "ranges:t:0=10..13,t:2=7..8");
  Status fenced = b->NotifyCheckpointComplete(2);
  ASSERT_FALSE(fenced);
  EXPECT_EQ(fenced.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_NE(fenced.error().message().find("partition t:0 is committed up to offset 12"),
            std::string::npos)
      << fenced.error().message();
  EXPECT_EQ(Snapshots().size(), 3U);
  // B restarts from that checkpoint: the fenced commit is dropped, not retried into an error.
  auto restored = Committer(spec, state, 2);
  EXPECT_EQ(Snapshots().size(), 3U);
  EXPECT_EQ(ReadTable(), (std::vector<Row>{{1, "one", "a"}, {2, "two", "a"}, {3, "three", "a"}}));

  // Offsets move on without rows too (records skipped as malformed): an empty commit.
  checkpoint(*writers_a[0], *a, 3, {}, "ranges:t:1=5..9");
  FLOE_ASSERT_OK(a->NotifyCheckpointComplete(3));
  ASSERT_EQ(Snapshots().size(), 4U);
  EXPECT_EQ(Summary(Snapshots().back(), "floe.source-offsets.k"), "t:0:12,t:1:9,t:2:7");
}

// The commit of checkpoint 2 succeeded but the job failed before it learnt so (or before the
// next checkpoint): restoring from checkpoint 2's state must not commit its files again.
TEST_F(SinkTest, RestoreAfterLostCommitAckDoesNotCommitAgain) {
  CreateTable("category");
  SinkSpec spec = Spec();
  std::vector<std::string> state;
  {
    auto writers = Writers(spec, 1);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
    Checkpoint(writers, *committer, 1);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{2, "two", "b"}})));
    // Checkpoint 1 was not notified before checkpoint 2 was taken: both are in 2's state.
    state = Checkpoint(writers, *committer, 2);
    ASSERT_EQ(state.size(), 2U);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(2));
  }
  ASSERT_EQ(Snapshots().size(), 2U);
  auto restored = Committer(spec, state, 2);
  EXPECT_EQ(Snapshots().size(), 2U);
  EXPECT_EQ(ReadTable(), (std::vector<Row>{{1, "one", "a"}, {2, "two", "b"}}));
}

// Only checkpoint 1 committed before the failure; 2's state holds 1 and 2: 2 commits alone.
TEST_F(SinkTest, RestoreCommitsOnlyCheckpointsAboveTheCommittedOne) {
  CreateTable();
  SinkSpec spec = Spec();
  std::vector<std::string> state;
  {
    auto writers = Writers(spec, 1);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
    Checkpoint(writers, *committer, 1);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{2, "two", "b"}})));
    state = Checkpoint(writers, *committer, 2);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  }
  ASSERT_EQ(Snapshots().size(), 1U);
  auto restored = Committer(spec, state, 2);
  ASSERT_EQ(Snapshots().size(), 2U);
  EXPECT_EQ(Summary(Snapshots()[1], "floe.checkpoint-id"), "2");
  EXPECT_EQ(ReadTable(), (std::vector<Row>{{1, "one", "a"}, {2, "two", "b"}}));
}

TEST_F(SinkTest, StateOfAnotherSinkIsRefused) {
  CreateTable();
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
  auto state = Checkpoint(writers, *committer, 1);
  SinkSpec other = Spec();
  other.sink_id = "other";
  IcebergSinkCommitter op(other);
  OperatorContext context = Context("committer", 0, 1, state, 1);
  MetricGroup metrics;
  context.metrics = &metrics;
  auto opened = op.Open(context);
  ASSERT_FALSE(opened.has_value());
  EXPECT_NE(opened.error().message().find("test-sink"), std::string::npos);
}

// Random updates of few keys, many per checkpoint and across checkpoints, by two writers that
// each own the keys routed to them (as the sink's key-by on the equality fields does).
void RunUpserts(test::SinkFixture& fixture, testing::OperatorHarness& committer,
                std::vector<std::unique_ptr<testing::OperatorHarness>>& writers,
                std::map<int64_t, Row>& latest, uint64_t seed, int64_t first_checkpoint) {
  std::mt19937_64 rng(seed);
  const char* categories[] = {"a", "b", "c"};
  for (int64_t checkpoint = first_checkpoint; checkpoint < first_checkpoint + 4; ++checkpoint) {
    for (int b = 0; b < 5; ++b) {
      std::vector<std::vector<Row>> per_writer(writers.size());
      for (int i = 0; i < 40; ++i) {
        const int64_t id = static_cast<int64_t>(rng() % 25);
        Row row{id, fmt::format("v{}-{}-{}", checkpoint, b, i), "", RowKind::kInsert};
        // The category is a function of the key: partitioned by category, a key stays in one.
        row.category = categories[id % 3];
        if (rng() % 2 == 0) row.kind = RowKind::kUpdateAfter;
        per_writer[id % writers.size()].push_back(row);
        latest[id] = row;
      }
      for (size_t w = 0; w < writers.size(); ++w) {
        FLOE_ASSERT_OK(writers[w]->ProcessBatch(Batch(per_writer[w])));
      }
    }
    test::SinkFixture::Checkpoint(writers, committer, checkpoint);
    FLOE_ASSERT_OK(committer.NotifyCheckpointComplete(checkpoint));
  }
  (void)fixture;
}

std::vector<Row> Values(const std::map<int64_t, Row>& latest) {
  std::vector<Row> out;
  for (const auto& [id, row] : latest) out.push_back(row);
  return Sorted(out);
}

TEST_F(SinkTest, UpsertReadsBackTheLatestValuePerKey) {
  CreateTable();
  SinkSpec spec = Spec({{"upsert-enabled", "true"}});
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  std::map<int64_t, Row> latest;
  RunUpserts(*this, *committer, writers, latest, 11, 1);
  EXPECT_EQ(ReadTable(), Values(latest));
  auto snapshots = Snapshots();
  ASSERT_EQ(snapshots.size(), 4U);
  // The first checkpoint only inserts and deletes its own rows by position; later ones delete
  // keys of earlier commits by equality.
  EXPECT_EQ(snapshots[1]->operation(), "overwrite");
  EXPECT_NE(Summary(snapshots[3], "added-equality-deletes"), "");
  EXPECT_GT(committer->metrics().Get("committer.committedDeleteFilesCount"), 0);
}

// WriteRows' triggering frequency commits several checkpoints in one go. A key written at
// checkpoint 1 and upserted at checkpoints 2 and 3 must not stay live in its old versions: an
// equality delete does not apply to data files of its own snapshot, so checkpoints with deletes
// start a snapshot of their own; the delete-free checkpoint 4 joins checkpoint 3's.
TEST_F(SinkTest, UpsertsCommittedTogetherKeepTheLatestValuePerKey) {
  CreateTable();
  SinkSpec spec = Spec({{"upsert-enabled", "true"}});
  spec.commit_pending_together = true;
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}, {2, "two", "a"}})));
  Checkpoint(writers, *committer, 1);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "uno", "a"}})));
  Checkpoint(writers, *committer, 2);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "eins", "a"}, {3, "three", "b"}})));
  Checkpoint(writers, *committer, 3);
  Checkpoint(writers, *committer, 4);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(4));
  EXPECT_EQ(ReadTable(), Sorted({{1, "eins", "a"}, {2, "two", "a"}, {3, "three", "b"}}));
  std::vector<std::string> checkpoints;
  for (const SnapshotPtr& s : Snapshots()) checkpoints.push_back(Summary(s, "floe.checkpoint-id"));
  EXPECT_EQ(checkpoints, (std::vector<std::string>{"1", "2", "4"}));
}

// Partitioned by category with (id, category) as the equality fields: the partition source is
// a key column, as upsert requires.
TEST_F(SinkTest, UpsertIntoAPartitionedTable) {
  CreateTable("category");
  SinkSpec spec = Spec({{"upsert-enabled", "true"}}, {"id", "category"});
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  std::map<int64_t, Row> latest;
  RunUpserts(*this, *committer, writers, latest, 12, 1);
  EXPECT_EQ(ReadTable(), Values(latest));
  // Both kinds of deletes, in three partitions over four sequence numbers; ClickHouse applies
  // them the same way (two keys, both a value of the row, so the two-column equality deletes are
  // read by the general path and the one-column sets of other tests by the integer one).
  int with_equality = 0, with_position = 0;
  for (const SnapshotPtr& snapshot : Snapshots()) {
    with_equality += !Summary(snapshot, "added-equality-deletes").empty();
    with_position += !Summary(snapshot, "added-position-deletes").empty();
  }
  EXPECT_GT(with_equality, 1);
  EXPECT_GT(with_position, 1);
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Row> rows, test::ReadByClickHouse(location()));
  EXPECT_EQ(rows, Values(latest));
}

// A format v3 table takes deletion vectors, never position delete files (spec: v3 forbids adding
// them): the upserts' deletes of rows of their own commit are Puffin deletion-vector-v1 blobs, one
// per data file, and the table reads back the latest value per key.
TEST_F(SinkTest, UpsertIntoAV3TableWritesDeletionVectorsOnly) {
  CreateTable("", 3);
  SinkSpec spec = Spec({{"upsert-enabled", "true"}});
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  std::map<int64_t, Row> latest;
  RunUpserts(*this, *committer, writers, latest, 14, 1);
  EXPECT_EQ(ReadTable(), Values(latest));
  int64_t dvs = 0;
  for (const SnapshotPtr& snapshot : Snapshots()) {
    EXPECT_EQ(Summary(snapshot, "added-position-delete-files"), "");
    if (!Summary(snapshot, "added-dvs").empty()) dvs += std::stoll(Summary(snapshot, "added-dvs"));
  }
  EXPECT_GT(dvs, 0);
  auto table = Table();
  table::TableScan scan(table->metadata(), table->io());
  FLOE_ASSERT_OK_AND_ASSIGN(auto tasks, scan.PlanTasks());
  std::set<std::string> vectors_of;
  for (const auto& group : tasks) {
    for (const auto& task : group.tasks) {
      for (const auto& d : task.deletes) {
        if (d->content != manifest::FileContent::kPositionDeletes) continue;
        EXPECT_EQ(d->file_format, "puffin") << d->file_path;
        ASSERT_TRUE(d->referenced_data_file.has_value());
        EXPECT_EQ(*d->referenced_data_file, task.data_file->file_path);
        // One vector per data file.
        EXPECT_TRUE(vectors_of.insert(*d->referenced_data_file).second) << *d->referenced_data_file;
      }
    }
  }
  EXPECT_FALSE(vectors_of.empty());
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  auto rows = test::ReadByClickHouse(location());
  if (!rows) GTEST_SKIP() << "ClickHouse cannot read this v3 table: " << rows.error().ToString();
  EXPECT_EQ(*rows, Values(latest));
}

TEST_F(SinkTest, ChangeStreamDeletesAndUpdates) {
  CreateTable("category");
  SinkSpec spec = Spec();  // the identifier field id makes -U / -D rows deletes
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(
      Batch({{1, "one", "a"}, {2, "two", "a"}, {3, "three", "b"}, {4, "four", "b"}})));
  Checkpoint(writers, *committer, 1);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{2, "two", "a", RowKind::kDelete},
                                                 {3, "three", "b", RowKind::kUpdateBefore},
                                                 {3, "THREE", "b", RowKind::kUpdateAfter},
                                                 {5, "five", "c"},
                                                 {5, "five", "c", RowKind::kDelete}})));
  Checkpoint(writers, *committer, 2);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(2));
  EXPECT_EQ(ReadTable(), (std::vector<Row>{{1, "one", "a"}, {3, "THREE", "b"}, {4, "four", "b"}}));
  EXPECT_EQ(Snapshots().back()->operation(), "overwrite");
}

TEST_F(SinkTest, DeletesWithoutEqualityFieldsAreRefused) {
  CreateTable("", 1);  // v1: no deletes, so no equality fields
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 1);
  auto status = writers[0]->ProcessBatch(Batch({{1, "one", "a", RowKind::kDelete}}));
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("-D"), std::string::npos) << status.error().message();
}

TEST_F(SinkTest, OverwriteReplacesThePartitionsWritten) {
  CreateTable("category");
  {
    SinkSpec spec = Spec();
    auto writers = Writers(spec, 1);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(
        writers[0]->ProcessBatch(Batch({{1, "one", "a"}, {2, "two", "a"}, {3, "three", "b"}})));
    FLOE_ASSERT_OK(writers[0]->Finish());
    for (Message& m : writers[0]->output().TakeMessages()) {
      FLOE_ASSERT_OK(committer->ProcessMessage(std::move(m)));
    }
    FLOE_ASSERT_OK(committer->Finish());
  }
  SinkSpec spec = Spec({{"overwrite-enabled", "true"}});
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{10, "ten", "a"}})));
  FLOE_ASSERT_OK(writers[1]->ProcessBatch(Batch({{11, "eleven", "c"}})));
  for (auto& writer : writers) {
    FLOE_ASSERT_OK(writer->Finish());
    for (Message& m : writer->output().TakeMessages()) {
      FLOE_ASSERT_OK(committer->ProcessMessage(std::move(m)));
    }
  }
  FLOE_ASSERT_OK(committer->Finish());
  EXPECT_EQ(ReadTable(),
            (std::vector<Row>{{3, "three", "b"}, {10, "ten", "a"}, {11, "eleven", "c"}}));
  auto last = Snapshots().back();
  EXPECT_EQ(last->operation(), "overwrite");
  EXPECT_EQ(Summary(last, "replace-partitions"), "true");
  EXPECT_EQ(Summary(last, "floe.checkpoint-id"), std::to_string(kEndOfInputCheckpointId));
}

TEST_F(SinkTest, OverwriteOfAnUnpartitionedTableReplacesEverything) {
  CreateTable();
  for (const auto& [rows, overwrite] :
       {std::pair{std::vector<Row>{{1, "one", "a"}, {2, "two", "b"}}, "false"},
        std::pair{std::vector<Row>{{3, "three", "c"}}, "true"}}) {
    SinkSpec spec = Spec({{"overwrite-enabled", overwrite}});
    auto writers = Writers(spec, 1);
    auto committer = Committer(spec);
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(rows)));
    Checkpoint(writers, *committer, 1);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  }
  EXPECT_EQ(ReadTable(), (std::vector<Row>{{3, "three", "c"}}));
}

TEST_F(SinkTest, EmptyCheckpointsCommitOnlyEveryMaxContinuousEmptyOne) {
  CreateTable("", 2, {{"flink.max-continuous-empty-commits", "3"}});
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  for (int64_t checkpoint = 1; checkpoint <= 7; ++checkpoint) {
    Checkpoint(writers, *committer, checkpoint);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(checkpoint));
  }
  auto snapshots = Snapshots();
  ASSERT_EQ(snapshots.size(), 2U);
  EXPECT_EQ(Summary(snapshots[0], "floe.checkpoint-id"), "3");
  EXPECT_EQ(Summary(snapshots[1], "floe.checkpoint-id"), "6");
  EXPECT_TRUE(ReadTable().empty());
  // A checkpoint with rows resets the count: two empty ones after it commit nothing.
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
  for (int64_t checkpoint = 8; checkpoint <= 10; ++checkpoint) {
    Checkpoint(writers, *committer, checkpoint);
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(checkpoint));
  }
  EXPECT_EQ(Snapshots().size(), 3U);
}

TEST_F(SinkTest, EmptyCheckpointsByDefaultCommitEveryTenth) {
  CreateTable();
  SinkSpec spec = Spec();
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  for (int64_t checkpoint = 1; checkpoint <= 9; ++checkpoint) {
    Checkpoint(writers, *committer, checkpoint);
  }
  // Notifications may skip checkpoints: one for 9 covers 1..9.
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(9));
  EXPECT_TRUE(Snapshots().empty());
  Checkpoint(writers, *committer, 10);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(10));
  EXPECT_EQ(Snapshots().size(), 1U);
}

TEST_F(SinkTest, AvroWriteFormat) {
  CreateTable("category");
  SinkSpec spec = Spec({{"write-format", "avro"}, {"compression-codec", "zstd"}});
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  std::vector<Row> rows = {{1, "one", "a"}, {2, "two", "b"}, {3, "", "b"}};
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(rows)));
  Checkpoint(writers, *committer, 1);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  EXPECT_EQ(ReadTable(), Sorted(rows));
  auto table = Table();
  table::TableScan scan(table->metadata(), table->io());
  auto files = scan.PlanFiles().value();
  ASSERT_EQ(files.size(), 2U);
  for (const auto& task : files) {
    EXPECT_EQ(task.data_file->file_format, "avro");
    EXPECT_TRUE(task.data_file->file_path.ends_with(".avro")) << task.data_file->file_path;
  }
}

// With max-open-files 2 and six partitions written in turns, the writer closes files to stay
// within the limit: more files, the same rows. (No identifier field: with one, the delta writer
// takes the rows, and it has no such limit.)
TEST_F(SinkTest, FewOpenFilesKeepEveryRow) {
  CreateTable("category", 2, {}, /*identifier=*/false);
  SinkSpec spec = Spec({{"max-open-files", "2"}});
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  std::vector<Row> all;
  for (int round = 0; round < 3; ++round) {
    std::vector<Row> rows;
    for (int c = 0; c < 6; ++c) {
      const int64_t id = round * 6 + c;
      rows.push_back({id, fmt::format("v{}", id), std::string(1, static_cast<char>('a' + c))});
    }
    FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(rows)));
    all.insert(all.end(), rows.begin(), rows.end());
  }
  Checkpoint(writers, *committer, 1);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  EXPECT_EQ(ReadTable(), Sorted(all));
  // Each batch visits the six partitions in turn, so every visit opens a new file.
  EXPECT_EQ(committer->metrics().Get("committer.committedDataFilesCount"), 18);
}

TEST_F(SinkTest, OptionsAreValidated) {
  CreateTable("category");
  auto table = Table();
  auto error = [&](std::map<std::string, std::string> options,
                   std::vector<std::string> equality = {}) {
    auto resolved = SinkOptions::Resolve(*table->metadata(), options, equality);
    return resolved ? std::string("ok") : resolved.error().message();
  };
  EXPECT_NE(error({{"upsert-enabled", "true"}, {"overwrite-enabled", "true"}}).find("together"),
            std::string::npos);
  // Partitioned by category, keyed by id alone.
  EXPECT_NE(error({{"upsert-enabled", "true"}}).find("partition field 'category'"),
            std::string::npos);
  EXPECT_EQ(error({{"upsert-enabled", "true"}}, {"id", "category"}), "ok");
  EXPECT_EQ(error({{"upsert-enabled", "true"}, {"equality-field-columns", "id, category"}}), "ok");
  EXPECT_NE(error({{"write-format", "csv"}}).find("csv"), std::string::npos);
  EXPECT_NE(error({{"write-format", "orc"}}).find("ORC"), std::string::npos);
  EXPECT_EQ(error({{"distribution-mode", "range"}}), "ok");
  EXPECT_NE(error({{"distribution-mode", "random"}}).find("random"), std::string::npos);
  EXPECT_NE(error({{"write-parallelism", "0"}}).find("write-parallelism"), std::string::npos);
  EXPECT_NE(error({{"target-file-size", "10"}}).find("unknown write option"), std::string::npos);
  EXPECT_NE(error({}, {"nope"}).find("nope"), std::string::npos);
  auto resolved = SinkOptions::Resolve(*table->metadata(), {{"distribution-mode", "HASH"},
                                                            {"branch", "audit"},
                                                            {"target-file-size-bytes", "1000"},
                                                            {"write-parallelism", "3"}});
  FLOE_ASSERT_OK(resolved);
  EXPECT_EQ(resolved->distribution, DistributionMode::kHash);
  EXPECT_EQ(resolved->branch, "audit");
  EXPECT_EQ(resolved->write.target_file_size, 1000);
  EXPECT_EQ(resolved->write_parallelism, 3);
  EXPECT_EQ(resolved->equality_field_ids, std::vector<int32_t>{1});
  EXPECT_EQ(resolved->max_continuous_empty_commits, 10);
}

TEST_F(SinkTest, UpsertOnAV1TableIsRefused) {
  CreateTable("", 1);
  auto table = Table();
  auto resolved = SinkOptions::Resolve(*table->metadata(), {{"upsert-enabled", "true"}});
  ASSERT_FALSE(resolved.has_value());
  EXPECT_NE(resolved.error().message().find("format version 2"), std::string::npos);
  // The writer's Open says the same.
  IcebergSinkWriter writer(Spec({{"upsert-enabled", "true"}}));
  MetricGroup metrics;
  OperatorContext context = Context("writer", 0, 1);
  context.metrics = &metrics;
  auto opened = writer.Open(context);
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind(), ErrorKind::kInvalidArgument);
}

TEST_F(SinkTest, UpsertWithoutEqualityFieldsIsRefused) {
  CreateTable("", 2, {}, /*identifier=*/false);
  auto table = Table();
  auto resolved = SinkOptions::Resolve(*table->metadata(), {{"upsert-enabled", "true"}});
  ASSERT_FALSE(resolved.has_value());
  EXPECT_NE(resolved.error().message().find("equality fields"), std::string::npos);
  auto keyed = SinkOptions::Resolve(*table->metadata(),
                                    {{"upsert-enabled", "true"}, {"equality-field-columns", "id"}});
  FLOE_ASSERT_OK(keyed);
  EXPECT_EQ(keyed->equality_field_ids, std::vector<int32_t>{1});
  // Without identifier fields an append writes plain data files.
  auto plain = SinkOptions::Resolve(*table->metadata(), {});
  FLOE_ASSERT_OK(plain);
  EXPECT_TRUE(plain->equality_field_ids.empty());
}

TEST_F(SinkTest, CommitsToTheConfiguredBranch) {
  CreateTable();
  SinkSpec spec = Spec({{"branch", "audit"}});
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch({{1, "one", "a"}})));
  Checkpoint(writers, *committer, 1);
  FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(1));
  EXPECT_TRUE(Snapshots("main").empty());
  ASSERT_EQ(Snapshots("audit").size(), 1U);
  EXPECT_EQ(ReadTable("audit"), (std::vector<Row>{{1, "one", "a"}}));
}

// ClickHouse reads the upserted table (the hadoop layout) and sees the latest value per key.
TEST_F(SinkTest, ClickHouseReadsTheUpsertedTable) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  CreateTable();
  SinkSpec spec = Spec({{"upsert-enabled", "true"}});
  auto writers = Writers(spec, 2);
  auto committer = Committer(spec);
  std::map<int64_t, Row> latest;
  RunUpserts(*this, *committer, writers, latest, 13, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Row> rows, test::ReadByClickHouse(location()));
  EXPECT_EQ(rows, Values(latest));
  EXPECT_EQ(ReadTable(), Values(latest));
}

// A writer's key maps hold one checkpoint's keys: each flush reports the keys of its own
// checkpoint whose last change is an insert (updated many times or not), never a running total of
// the job's keys, and the table ClickHouse reads is the latest value per key.
TEST_F(SinkTest, UpsertKeyMapsHoldOneCheckpointsKeys) {
  CreateTable();
  SinkSpec spec = Spec({{"upsert-enabled", "true"}});
  auto writers = Writers(spec, 1);
  auto committer = Committer(spec);
  std::map<int64_t, Row> latest;
  struct Step {
    int64_t first, last;  // keys upserted, each three times
    std::vector<int64_t> deleted;
    int64_t expected_keys;
  };
  const std::vector<Step> steps = {
      {1, 50, {}, 50}, {26, 60, {30, 70}, 34}, {1, 5, {}, 5}, {0, -1, {40}, 0}, {100, 119, {}, 20}};
  int64_t checkpoint = 0;
  for (const Step& step : steps) {
    ++checkpoint;
    for (int round = 0; round < 3; ++round) {
      std::vector<Row> rows;
      for (int64_t id = step.first; id <= step.last; ++id) {
        Row row{id, fmt::format("v{}-{}", checkpoint, round), "c", RowKind::kUpdateAfter};
        rows.push_back(row);
        latest[id] = row;
      }
      if (!rows.empty()) FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(rows)));
    }
    std::vector<Row> deletes;
    for (int64_t id : step.deleted) {
      deletes.push_back(Row{id, "", "", RowKind::kDelete});
      latest.erase(id);
    }
    if (!deletes.empty()) FLOE_ASSERT_OK(writers[0]->ProcessBatch(Batch(deletes)));
    Checkpoint(writers, *committer, checkpoint);
    EXPECT_EQ(writers[0]->metrics().Get("writer.0.lastFlushInsertedKeys"), step.expected_keys)
        << "checkpoint " << checkpoint;
    FLOE_ASSERT_OK(committer->NotifyCheckpointComplete(checkpoint));
  }
  EXPECT_EQ(ReadTable(), Values(latest));
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Row> rows, test::ReadByClickHouse(location()));
  EXPECT_EQ(rows, Values(latest));
}

}  // namespace
}  // namespace floe::stream
