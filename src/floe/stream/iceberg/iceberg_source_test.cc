#include "floe/stream/iceberg/iceberg_source.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "floe/stream/collect_sink.h"
#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/source_enumerator.h"
#include "floe/stream/iceberg/source_test_support.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/update/delete_files.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/manage_snapshots.h"
#include "floe/table/update/overwrite_files.h"
#include "floe/table/update/row_delta.h"

namespace floe::stream {
namespace {

using Rows = std::multiset<std::string>;
using test::EventsTable;
using test::KindsAndIds;
using test::SourceHarness;

Rows Inserts(int64_t from, int64_t to, std::string_view kind = "+I") {
  Rows out;
  for (int64_t id = from; id <= to; ++id) out.insert(std::string(kind) + " " + std::to_string(id));
  return out;
}
Rows Union(std::initializer_list<Rows> parts) {
  Rows out;
  for (const Rows& p : parts) out.insert(p.begin(), p.end());
  return out;
}
// Each row of a model as +I.
Rows AsInserts(const std::set<int64_t>& ids) {
  Rows out;
  for (int64_t id : ids) out.insert("+I " + std::to_string(id));
  return out;
}
Rows Only(const Rows& rows, const std::function<bool(int64_t)>& keep) {
  Rows out;
  for (const std::string& r : rows) {
    if (keep(std::stoll(r.substr(3)))) out.insert(r);
  }
  return out;
}

// Seven snapshots, each with what it changed and what was live after it, as the test committed
// them (the model the source's output is checked against):
//   1 append a: 1..5          2 append b: 6..10          3 append a: 11..15
//   4 overwrite: removes 1..5's file, adds 101..103 (a)
//   5 row delta: position deletes remove 6 and 8 (rows 0 and 2 of the b file)
//   6 delete: removes 11..15's file                      7 append b: 16..20
// and, when asked, tag "t2" at snapshot 2 and branch "b3" from snapshot 3 with 200..201 (c).
class IcebergSourceTest : public ::testing::Test {
 protected:
  void SetUp() override { FLOE_ASSERT_OK(t_.Create()); }

  void Committed(Rows changes) {
    // Distinct commit times, so that as-of-timestamp and start-snapshot-timestamp select one.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    SnapshotPtr s = t_.table->metadata()->current_snapshot();
    ids_.push_back(s->snapshot_id);
    times_.push_back(s->timestamp_ms);
    changes_.push_back(std::move(changes));
    std::set<int64_t> live = live_.empty() ? std::set<int64_t>{} : live_.back();
    for (const std::string& c : changes_.back()) {
      int64_t id = std::stoll(c.substr(3));
      if (c[0] == '+') {
        live.insert(id);
      } else {
        live.erase(id);
      }
    }
    live_.push_back(std::move(live));
  }

  void Commit(int n) {
    while (static_cast<int>(ids_.size()) < n) {
      switch (ids_.size()) {
        case 0: {
          FLOE_ASSERT_OK_AND_ASSIGN(f1_, t_.DataFile(1, 5, "a"));
          FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(f1_).Commit());
          Committed(Inserts(1, 5));
          break;
        }
        case 1: {
          FLOE_ASSERT_OK_AND_ASSIGN(f2_, t_.DataFile(6, 10, "b"));
          FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(f2_).Commit());
          Committed(Inserts(6, 10));
          break;
        }
        case 2: {
          FLOE_ASSERT_OK_AND_ASSIGN(f3_, t_.DataFile(11, 15, "a"));
          FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(f3_).Commit());
          Committed(Inserts(11, 15));
          break;
        }
        case 3: {
          FLOE_ASSERT_OK_AND_ASSIGN(auto f4, t_.DataFile(101, 103, "a"));
          FLOE_ASSERT_OK(t_.table->NewOverwrite()->DeleteFile(f1_).AddFile(f4).Commit());
          ASSERT_EQ(t_.table->metadata()->current_snapshot()->operation(), kOperationOverwrite);
          Committed(Union({Inserts(1, 5, "-D"), Inserts(101, 103)}));
          break;
        }
        case 4: {
          FLOE_ASSERT_OK_AND_ASSIGN(auto deletes, t_.PositionDeletes(f2_, {0, 2}));
          FLOE_ASSERT_OK(t_.table->NewRowDelta()->AddDeletes(deletes).Commit());
          Committed({"-D 6", "-D 8"});
          break;
        }
        case 5: {
          FLOE_ASSERT_OK(t_.table->NewDeleteFiles()->DeleteFile(f3_.file_path).Commit());
          ASSERT_EQ(t_.table->metadata()->current_snapshot()->operation(), kOperationDelete);
          Committed(Inserts(11, 15, "-D"));
          break;
        }
        case 6: {
          FLOE_ASSERT_OK_AND_ASSIGN(auto f5, t_.DataFile(16, 20, "b"));
          FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(f5).Commit());
          Committed(Inserts(16, 20));
          break;
        }
      }
    }
  }

  void TagAndBranch() {
    FLOE_ASSERT_OK(t_.table->NewManageSnapshots()
                       ->CreateTag("t2", ids_[1])
                       .CreateBranch("b3", ids_[2])
                       .Commit());
    FLOE_ASSERT_OK_AND_ASSIGN(auto f6, t_.DataFile(200, 201, "c"));
    FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(f6).ToBranch("b3").Commit());
  }

  // The changes of snapshots first..last (1-based, inclusive).
  Rows Changes(int first, int last) const {
    Rows out;
    for (int i = first; i <= last; ++i) out.insert(changes_[i - 1].begin(), changes_[i - 1].end());
    return out;
  }

  Result<std::shared_ptr<Source>> Build(StringMap options) const {
    return IcebergSource::ForRows(t_.loader).SetAll(options).BatchRows(2).Build();
  }

  // Runs a bounded source to its end.
  Result<Rows> ReadAll(Source& source, int parallelism = 2) {
    SourceHarness h(source, parallelism);
    FLOE_RETURN_IF_ERROR(h.Start());
    FLOE_RETURN_IF_ERROR(h.RunUntilIdle());
    if (!h.all_ended()) return InternalError("a bounded read did not end");
    return KindsAndIds(h.output.batches);
  }

  // The rows TableScan + TaskReader read for options (the scan layer's own read).
  Rows ScanRows(const StringMap& options) {
    table::TableScan scan(t_.table->metadata(), t_.table->io());
    scan.Options(options);
    return test::ScannedKindsAndIds(scan, t_.table->io());
  }

  EventsTable t_;
  manifest::DataFile f1_, f2_, f3_;
  std::vector<int64_t> ids_;
  std::vector<int64_t> times_;
  std::vector<Rows> changes_;
  std::vector<std::set<int64_t>> live_;
};

TEST_F(IcebergSourceTest, BatchReadsTheSelectedSnapshot) {
  Commit(7);
  TagAndBranch();
  struct Case {
    StringMap options;
    Rows expected;
    int64_t snapshot_id;
  };
  const int64_t b3_head = t_.table->metadata()->FindRef("b3")->snapshot_id;
  std::vector<Case> cases = {
      {{}, AsInserts(live_[6]), ids_[6]},
      {{{"snapshot-id", std::to_string(ids_[1])}}, AsInserts(live_[1]), ids_[1]},
      {{{"snapshot-id", std::to_string(ids_[4])}}, AsInserts(live_[4]), ids_[4]},
      {{{"as-of-timestamp", std::to_string(times_[2])}}, AsInserts(live_[2]), ids_[2]},
      {{{"as-of-timestamp", std::to_string(times_[3] + 1)}}, AsInserts(live_[3]), ids_[3]},
      {{{"tag", "t2"}}, AsInserts(live_[1]), ids_[1]},
      {{{"branch", "b3"}}, Union({AsInserts(live_[2]), Inserts(200, 201)}), b3_head},
  };
  for (const Case& c : cases) {
    const std::string name = Json(c.options.empty() ? "current" : c.options.begin()->first).Dump();
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, Build(c.options));
    EXPECT_TRUE(source->bounded());
    SourceHarness h(*source, 2);
    FLOE_ASSERT_OK(h.Start());
    FLOE_ASSERT_OK(h.RunUntilIdle());
    ASSERT_TRUE(h.all_ended()) << name;
    Rows rows = KindsAndIds(h.output.batches);
    EXPECT_EQ(rows, c.expected) << name;
    EXPECT_EQ(rows, ScanRows(c.options));
    // The position a sink records with the commit at the end of the input: the snapshot read.
    EXPECT_EQ(h.enumerator().Position(), std::to_string(c.snapshot_id)) << name;
  }
}

TEST_F(IcebergSourceTest, BatchIncrementalReadIncludesChanges) {
  Commit(7);
  FLOE_ASSERT_OK_AND_ASSIGN(auto appends, Build({{"start-snapshot-id", std::to_string(ids_[0])},
                                                 {"end-snapshot-id", std::to_string(ids_[2])}}));
  SourceHarness h(*appends, 2);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.RunUntilIdle());
  ASSERT_TRUE(h.all_ended());
  Rows rows = KindsAndIds(h.output.batches);
  EXPECT_EQ(rows, Changes(2, 3));
  EXPECT_EQ(h.enumerator().Position(), std::to_string(ids_[2]));
  EXPECT_EQ(rows, ScanRows({{"start-snapshot-id", std::to_string(ids_[0])},
                            {"end-snapshot-id", std::to_string(ids_[2])}}));
  // The scan layer refuses overwrites in an append scan; the source reads them as changes.
  FLOE_ASSERT_OK_AND_ASSIGN(auto changes, Build({{"start-snapshot-id", std::to_string(ids_[2])}}));
  FLOE_ASSERT_OK_AND_ASSIGN(rows, ReadAll(*changes, 3));
  EXPECT_EQ(rows, Changes(4, 7));
}

TEST_F(IcebergSourceTest, EveryStartingStrategyReadsWhatItShouldAcrossARestart) {
  Commit(3);
  struct Case {
    StringMap options;
    int first_change;  // the snapshot whose changes come first, after the table scan (if any)
    bool table_scan;
  };
  std::vector<Case> cases = {
      {{}, 4, true},
      {{{"starting-strategy", "TABLE_SCAN_THEN_INCREMENTAL"}}, 4, true},
      {{{"starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT"}}, 3, false},
      {{{"starting-strategy", "incremental_from_latest_snapshot_exclusive"}}, 4, false},
      {{{"starting-strategy", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"}}, 1, false},
      {{{"starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_ID"},
        {"start-snapshot-id", std::to_string(ids_[1])}},
       2,
       false},
      {{{"start-snapshot-id", std::to_string(ids_[1])}}, 2, false},
      {{{"start-snapshot-id", std::to_string(ids_[1])}, {"start-snapshot-exclusive", "true"}},
       3,
       false},
      // Exclusive also while the start snapshot is still the current one.
      {{{"start-snapshot-id", std::to_string(ids_[2])}, {"start-snapshot-exclusive", "true"}},
       4,
       false},
      {{{"starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP"},
        {"start-snapshot-timestamp", std::to_string(times_[1])}},
       2,
       false},
      {{{"start-snapshot-timestamp", std::to_string(times_[0] + 1)}}, 2, false},
  };
  // Started with snapshots 1-3 committed; 4-7 arrive while the readers run.
  std::vector<std::shared_ptr<Source>> sources;
  std::vector<std::unique_ptr<SourceHarness>> harnesses;
  for (Case& c : cases) {
    c.options["streaming"] = "true";
    c.options["monitor-interval"] = "1 s";
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, Build(c.options));
    EXPECT_FALSE(source->bounded());
    auto h = std::make_unique<SourceHarness>(*source, 2);
    FLOE_ASSERT_OK(h->Start());
    FLOE_ASSERT_OK(h->RunUntilIdle());
    sources.push_back(source);
    harnesses.push_back(std::move(h));
  }
  int64_t now = 0;
  auto discover = [&] {
    now += 1000;
    for (auto& h : harnesses) {
      FLOE_ASSERT_OK(h->Tick(now));
      FLOE_ASSERT_OK(h->RunUntilIdle());
    }
  };
  discover();
  Commit(5);
  discover();
  // A restart (from a checkpoint, with another parallelism) in the middle: the restored position,
  // not the starting strategy again, decides where reading goes on.
  std::vector<std::vector<RecordBatch>> before(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto checkpoint, harnesses[i]->TakeCheckpoint(1));
    before[i] = harnesses[i]->output.batches;
    harnesses[i] = std::make_unique<SourceHarness>(*sources[i], 3);
    FLOE_ASSERT_OK(harnesses[i]->Start(checkpoint.enumerator, checkpoint.readers));
    FLOE_ASSERT_OK(harnesses[i]->RunUntilIdle());
  }
  Commit(7);  // two snapshots in one discovery
  discover();
  for (size_t i = 0; i < cases.size(); ++i) {
    Rows expected = Changes(cases[i].first_change, 7);
    if (cases[i].table_scan) expected = Union({AsInserts(live_[2]), expected});
    EXPECT_EQ(Union({KindsAndIds(before[i]), KindsAndIds(harnesses[i]->output.batches)}), expected)
        << "case " << i;
    EXPECT_FALSE(harnesses[i]->all_ended());
  }
}

TEST_F(IcebergSourceTest, StrategiesOnAnEmptyTableReadEverythingCommittedLater) {
  for (std::string strategy :
       {"TABLE_SCAN_THEN_INCREMENTAL", "INCREMENTAL_FROM_LATEST_SNAPSHOT",
        "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"}) {
    EventsTable empty;
    FLOE_ASSERT_OK(empty.Create());
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, IcebergSource::ForRows(empty.loader)
                                               .Streaming(true)
                                               .StartingStrategy(*ParseStartingStrategy(strategy))
                                               .Build());
    SourceHarness h(*source, 1);
    FLOE_ASSERT_OK(h.Start());
    FLOE_ASSERT_OK(h.RunUntilIdle());
    FLOE_ASSERT_OK_AND_ASSIGN(auto f, empty.DataFile(1, 3, "a"));
    FLOE_ASSERT_OK(empty.table->NewFastAppend()->AppendFile(f).Commit());
    FLOE_ASSERT_OK(h.Tick(1));
    FLOE_ASSERT_OK(h.RunUntilIdle());
    EXPECT_EQ(KindsAndIds(h.output.batches), Inserts(1, 3)) << strategy;
  }
}

TEST_F(IcebergSourceTest, RestoredReadersSeeEachRowOnce) {
  Commit(7);
  const Rows expected = Changes(1, 7);
  // Small splits and batches of 2 rows, so that checkpoints fall inside splits.
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            Build({{"streaming", "true"},
                                   {"starting-strategy", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"},
                                   {"split-size", "1"},
                                   {"split-file-open-cost", "1"}}));
  int mid_split = 0;
  for (int steps = 0; steps < 14; ++steps) {
    for (int new_parallelism : {1, 2, 3}) {
      SourceHarness first(*source, 2);
      FLOE_ASSERT_OK(first.Start());
      FLOE_ASSERT_OK(first.Tick(0));
      for (int i = 0; i < steps; ++i) FLOE_ASSERT_OK(first.Step());
      FLOE_ASSERT_OK_AND_ASSIGN(auto checkpoint, first.TakeCheckpoint(1));
      for (const std::string& entry : checkpoint.readers) {
        mid_split += entry.find("\"emitted\":0") == std::string::npos;
      }
      std::vector<RecordBatch> before(first.output.batches);
      // What the first run emits after the checkpoint is lost with it.
      for (int i = 0; i < 3; ++i) FLOE_ASSERT_OK(first.Step());

      SourceHarness second(*source, new_parallelism);
      FLOE_ASSERT_OK(second.Start(checkpoint.enumerator, checkpoint.readers));
      FLOE_ASSERT_OK(second.RunUntilIdle());
      FLOE_ASSERT_OK(second.Tick(1'000'000));
      FLOE_ASSERT_OK(second.RunUntilIdle());
      Rows rows = Union({KindsAndIds(before), KindsAndIds(second.output.batches)});
      EXPECT_EQ(rows, expected) << steps << " steps, then parallelism " << new_parallelism;
    }
  }
  EXPECT_GT(mid_split, 0) << "no checkpoint fell inside a split";
}

TEST_F(IcebergSourceTest, RestoredEnumeratorContinuesAfterItsPosition) {
  Commit(5);
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Build({{"streaming", "true"}, {"split-size", "1"}}));
  SourceHarness first(*source, 2);
  FLOE_ASSERT_OK(first.Start());
  for (int i = 0; i < 3; ++i) FLOE_ASSERT_OK(first.Step());
  FLOE_ASSERT_OK_AND_ASSIGN(auto checkpoint, first.TakeCheckpoint(7));
  std::vector<RecordBatch> before(first.output.batches);
  Commit(7);
  SourceHarness second(*source, 3);
  FLOE_ASSERT_OK(second.Start(checkpoint.enumerator, checkpoint.readers));
  FLOE_ASSERT_OK(second.Tick(0));
  FLOE_ASSERT_OK(second.RunUntilIdle());
  EXPECT_EQ(Union({KindsAndIds(before), KindsAndIds(second.output.batches)}),
            Union({AsInserts(live_[4]), Changes(6, 7)}));
  auto* enumerator = dynamic_cast<IcebergSplitEnumerator*>(&second.enumerator());
  ASSERT_NE(enumerator, nullptr);
  EXPECT_EQ(enumerator->position(), ids_[6]);
}

TEST_F(IcebergSourceTest, EndSnapshotIdBoundsAStreamingRead) {
  Commit(7);
  FLOE_ASSERT_OK_AND_ASSIGN(auto bounded,
                            Build({{"streaming", "true"},
                                   {"starting-strategy", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"},
                                   {"end-snapshot-id", std::to_string(ids_[4])}}));
  EXPECT_TRUE(bounded->bounded());
  SourceHarness h(*bounded, 2);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.Tick(0));
  FLOE_ASSERT_OK(h.RunUntilIdle());
  EXPECT_TRUE(h.all_ended());
  EXPECT_EQ(KindsAndIds(h.output.batches), Changes(1, 5));
}

TEST_F(IcebergSourceTest, LimitHoldsForTheJob) {
  Commit(7);
  for (int parallelism : {1, 3}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, Build({{"limit", "3"}}));
    FLOE_ASSERT_OK_AND_ASSIGN(Rows rows, ReadAll(*source, parallelism));
    ASSERT_EQ(rows.size(), 3u);
    for (const std::string& r : rows) EXPECT_TRUE(AsInserts(live_[6]).contains(r)) << r;
  }
}

TEST_F(IcebergSourceTest, FiltersAndProjects) {
  Commit(7);
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            IcebergSource::ForRows(t_.loader)
                                .Filter(expr::GreaterThanOrEqual("id", Literal::Long(8)))
                                .Project({"id", "category"})
                                .Build());
  ASSERT_EQ(source->schema()->num_fields(), 2);
  EXPECT_EQ(source->schema()->field(0).name, "id");
  EXPECT_EQ(source->schema()->field(1).name, "category");
  FLOE_ASSERT_OK_AND_ASSIGN(Rows rows, ReadAll(*source));
  EXPECT_EQ(rows, Only(AsInserts(live_[6]), [](int64_t id) { return id >= 8; }));

  // A change stream of one partition: the filter applies to -D rows too.
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto changes, IcebergSource::ForRows(t_.loader)
                        .Streaming(true)
                        .StartingStrategy(StartingStrategy::kIncrementalFromEarliestSnapshot)
                        .Filter(expr::Equal("category", Literal::String("a")))
                        .Project({"ID"})
                        .CaseSensitive(false)
                        .Build());
  SourceHarness h(*changes, 2);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.Tick(0));
  FLOE_ASSERT_OK(h.RunUntilIdle());
  EXPECT_EQ(KindsAndIds(h.output.batches), Only(Changes(1, 7), [](int64_t id) {
              return id <= 5 || (id >= 11 && id <= 15) || (id >= 101 && id <= 103);
            }));
}

TEST_F(IcebergSourceTest, ChangeStreamOfOverwriteAndDeleteSnapshots) {
  Commit(3);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source, Build({{"streaming", "true"},
                          {"starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE"}}));
  SourceHarness h(*source, 2);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.RunUntilIdle());
  int64_t now = 0;
  for (int n = 4; n <= 6; ++n) {
    const size_t seen = h.output.batches.size();
    Commit(n);
    FLOE_ASSERT_OK(h.Tick(now += 60'000));
    FLOE_ASSERT_OK(h.RunUntilIdle());
    std::vector<RecordBatch> batches(h.output.batches.begin() + seen, h.output.batches.end());
    EXPECT_EQ(KindsAndIds(batches), Changes(n, n)) << "snapshot " << n;
  }
  // The data column of the -D rows holds the removed rows' values.
  bool saw_delete = false;
  for (const RecordBatch& b : h.output.batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      if (b.row_kind(r) != RowKind::kDelete) continue;
      saw_delete = true;
      EXPECT_EQ(GetValue(b.column(1), r).get<std::string>(),
                "v" + std::to_string(GetValue(b.column(0), r).get<int64_t>()));
    }
  }
  EXPECT_TRUE(saw_delete);
}

TEST_F(IcebergSourceTest, MonitorIntervalPacesDiscovery) {
  Commit(1);
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            Build({{"streaming", "true"}, {"monitor-interval", "10s"}}));
  SourceHarness h(*source, 1);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.Tick(100));
  FLOE_ASSERT_OK(h.RunUntilIdle());
  Commit(2);
  FLOE_ASSERT_OK(h.Tick(100 + 9'999));
  FLOE_ASSERT_OK(h.RunUntilIdle());
  EXPECT_EQ(KindsAndIds(h.output.batches), Changes(1, 1));
  FLOE_ASSERT_OK(h.Tick(100 + 10'000));
  FLOE_ASSERT_OK(h.RunUntilIdle());
  EXPECT_EQ(KindsAndIds(h.output.batches), Changes(1, 2));
}

TEST_F(IcebergSourceTest, RefusesBadOptions) {
  Commit(2);
  auto fails = [&](StringMap options, std::string_view needle) {
    auto source = Build(options);
    ASSERT_FALSE(source.has_value()) << needle;
    EXPECT_EQ(source.error().kind(), ErrorKind::kInvalidArgument) << source.error().ToString();
    EXPECT_NE(source.error().message().find(needle), std::string::npos) << source.error().message();
  };
  fails({{"streaming", "true"}, {"snapshot-id", std::to_string(ids_[0])}}, "snapshot-id");
  fails({{"streaming", "true"}, {"as-of-timestamp", "1"}}, "as-of-timestamp");
  fails({{"streaming", "true"}, {"tag", "t"}}, "tag");
  fails({{"streaming", "true"}, {"starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_ID"}},
        "start-snapshot-id");
  fails({{"streaming", "true"}, {"starting-strategy", "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP"}},
        "start-snapshot-timestamp");
  fails({{"streaming", "true"},
         {"starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT"},
         {"start-snapshot-id", "1"}},
        "start-snapshot-id");
  fails({{"streaming", "true"}, {"start-snapshot-id", "1"}, {"start-snapshot-timestamp", "1"}},
        "cannot both");
  fails({{"streaming", "true"}, {"start-snapshot-exclusive", "true"}}, "start-snapshot-exclusive");
  fails({{"streaming", "true"}, {"start-snapshot-id", "1"}, {"start-snapshot-exclusive", "yes"}},
        "start-snapshot-exclusive");
  fails({{"streaming", "yes"}}, "streaming");
  fails({{"starting-strategy", "FROM_THE_TOP"}}, "FROM_THE_TOP");
  fails({{"monitor-interval", "10 fortnights"}}, "monitor-interval");
  fails({{"monitor-interval", "0s"}}, "monitor-interval");
  fails({{"split-size", "-1"}}, "split-size");
  fails({{"limit", "many"}}, "limit");
  fails({{"branch", "b"}, {"tag", "t"}}, "at most one");
  fails({{"end-snapshot-id", "1"}}, "end-snapshot-id");
  fails({{"case-sensitive", "maybe"}}, "case-sensitive");

  auto column = IcebergSource::ForRows(t_.loader).Project({"nope"}).Build();
  ASSERT_FALSE(column.has_value());
  auto case_sensitive = IcebergSource::ForRows(t_.loader).Project({"ID"}).Build();
  ASSERT_FALSE(case_sensitive.has_value());

  // Snapshots that do not exist fail the enumerator's start, naming them.
  FLOE_ASSERT_OK_AND_ASSIGN(auto missing,
                            Build({{"streaming", "true"}, {"start-snapshot-id", "12345"}}));
  SourceHarness h(*missing, 1);
  auto started = h.Start();
  ASSERT_FALSE(started.has_value());
  EXPECT_EQ(started.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(started.error().message().find("12345"), std::string::npos);
  auto no_snapshot = Build({{"snapshot-id", "12345"}});
  ASSERT_FALSE(no_snapshot.has_value());
  EXPECT_EQ(no_snapshot.error().kind(), ErrorKind::kNotFound);
}

TEST_F(IcebergSourceTest, SplitsSurviveTheirEncodingAndBadStateIsAnError) {
  Commit(5);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      Build({{"streaming", "true"}, {"starting-strategy", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"}}));
  SourceHarness h(*source, 1);
  FLOE_ASSERT_OK(h.Start());
  FLOE_ASSERT_OK(h.Tick(0));
  FLOE_ASSERT_OK_AND_ASSIGN(auto checkpoint, h.TakeCheckpoint(1));
  FLOE_ASSERT_OK_AND_ASSIGN(Json state, Json::Parse(checkpoint.enumerator));
  const Json::Array& pending = state.Find("pending")->as_array();
  ASSERT_FALSE(pending.empty());
  std::set<std::string> kinds;
  for (const Json& split : pending) {
    FLOE_ASSERT_OK_AND_ASSIGN(IcebergSplit decoded, SplitFromJson(split, *t_.table->metadata()));
    EXPECT_EQ(SplitToJson(decoded), split);
    kinds.insert(std::string(split.Find("kind")->as_string()));
    for (const table::FileScanTask& task : decoded.tasks) {
      ASSERT_EQ(task.data_file->partition.size(), 1u);
      EXPECT_EQ(task.spec->spec_id(), 0);
    }
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"insert", "delete", "diff"}));

  for (std::string bad : {"{", R"({"started":true})",
                          R"({"started":true,"position":null,"finished":false,"pending":[{}]})"}) {
    SourceHarness restored(*source, 1);
    auto started = restored.Start(bad);
    ASSERT_FALSE(started.has_value()) << bad;
    EXPECT_EQ(started.error().kind(), ErrorKind::kInvalidArgument) << started.error().ToString();
  }
  SourceHarness reader(*source, 1);
  auto opened = reader.Start(std::nullopt, {R"({"split":{"id":"x"},"emitted":0})"});
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind(), ErrorKind::kInvalidArgument);
}

TEST_F(IcebergSourceTest, BatchJobThroughTheRuntime) {
  Commit(7);
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Build({{"split-size", "1"}}));
  StreamEnvironment env({.mode = RuntimeMode::kBatch, .parallelism = 3});
  DataStream rows = env.FromSource(source, "iceberg");
  auto collected = env.Collect(rows, "collect");
  FLOE_ASSERT_OK(env.Execute("iceberg-batch"));
  EXPECT_EQ(KindsAndIds(collected->batches()), AsInserts(live_[6]));
}

// Keeps the rows it sees in its state, so that after a restart it holds each row the job
// delivered exactly once; fails once, at the first batch after a completed checkpoint.
class StatefulCollector final : public Operator {
 public:
  struct Shared {
    std::mutex mutex;
    std::vector<std::string> rows;  // written by Finish
    std::atomic<bool> checkpointed{false};
    std::atomic<bool> failed{false};
  };
  explicit StatefulCollector(Shared& shared) : shared_(shared) {}

  Status Open(const OperatorContext& context) override {
    rows_ = context.restored_state;
    return Ok();
  }
  Status ProcessBatch(int, RecordBatch batch, Output&) override {
    if (shared_.checkpointed && !shared_.failed.exchange(true)) {
      return InternalError("injected failure");
    }
    for (const std::string& r : KindsAndIds({batch})) rows_.push_back(r);
    // Paces the job so that checkpoints fall while it reads.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return Ok();
  }
  Result<std::vector<std::string>> SnapshotState(int64_t, Output&) override { return rows_; }
  Status NotifyCheckpointComplete(int64_t) override {
    shared_.checkpointed = true;
    return Ok();
  }
  Status Finish(Output&) override {
    std::lock_guard lock(shared_.mutex);
    shared_.rows.insert(shared_.rows.end(), rows_.begin(), rows_.end());
    return Ok();
  }

 private:
  Shared& shared_;
  std::vector<std::string> rows_;
};

TEST_F(IcebergSourceTest, StreamingJobSurvivesAFailureExactlyOnce) {
  Commit(7);
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            Build({{"streaming", "true"},
                                   {"starting-strategy", "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"},
                                   {"end-snapshot-id", std::to_string(ids_[6])},
                                   {"monitor-interval", "5ms"},
                                   {"split-size", "1"}}));
  StatefulCollector::Shared shared;
  StreamEnvironment env({.parallelism = 2,
                         .checkpoint_interval_ms = 10,
                         .checkpoint_dir = (t_.dir.path() / "checkpoints").string(),
                         .restart = {.max_attempts = 1, .delay_ms = 10}});
  DataStream rows = env.FromSource(source, "iceberg");
  rows.Rebalance().SinkTo("collect", [&](int) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<StatefulCollector>(shared);
  });
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult result, env.Execute("iceberg-stream"));
  Rows seen(shared.rows.begin(), shared.rows.end());
  EXPECT_EQ(seen, Changes(1, 7));
  EXPECT_EQ(result.restarts, shared.failed ? 1 : 0);
}

TEST(SourceOptionsTest, ParsesDurationsAsFlinkWritesThem) {
  EXPECT_EQ(*ParseDurationMs("10s"), 10'000);
  EXPECT_EQ(*ParseDurationMs("1 min"), 60'000);
  EXPECT_EQ(*ParseDurationMs("500 ms"), 500);
  EXPECT_EQ(*ParseDurationMs("250"), 250);
  EXPECT_EQ(*ParseDurationMs("2h"), 7'200'000);
  EXPECT_EQ(*ParseDurationMs(" 3 SECONDS "), 3'000);
  EXPECT_EQ(*ParseDurationMs("1d"), 86'400'000);
  EXPECT_FALSE(ParseDurationMs("s").has_value());
  EXPECT_FALSE(ParseDurationMs("1.5s").has_value());
  EXPECT_FALSE(ParseDurationMs("99999999999999999999").has_value());
  EXPECT_FALSE(ParseDurationMs("9999999999999999 d").has_value());
  auto defaults = IcebergSourceOptions::Parse({});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->monitor_interval_ms, 10'000);
  EXPECT_EQ(defaults->starting_strategy, StartingStrategy::kTableScanThenIncremental);
  EXPECT_FALSE(defaults->streaming);
}

}  // namespace
}  // namespace floe::stream
