// Whole jobs that copy one Iceberg table into another (streaming IcebergSource -> IcebergSink)
// are killed after some checkpoints and started again from their checkpoint folder, once per
// starting strategy, while snapshots keep arriving in the source table: the sink table must end
// with exactly the rows the strategy selects, each once. Read back through the table scan and,
// when it is installed, by ClickHouse.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <sstream>
#include <thread>

#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/iceberg_sink.h"
#include "floe/stream/iceberg/iceberg_source.h"
#include "floe/stream/iceberg/source_test_support.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/update/fast_append.h"
#include "floe/testing/peers.h"

namespace floe::stream {
namespace {

using Rows = std::multiset<std::string>;
using test::EventsTable;
using test::KindsAndIds;

// Rows of snapshot k (1-based): ids 100k .. 100k+9.
constexpr int64_t kRowsPerSnapshot = 10;
int64_t FirstId(int k) { return int64_t{100} * k; }

// Passes rows on; while armed it fails the job at the first row with an id from `poison` on (the
// kill). Records the checkpoints completed and whether it was restored.
class KillSwitch final : public Operator {
 public:
  struct Shared {
    std::atomic<int64_t> completed{0};
    std::atomic<bool> armed{false};
    std::atomic<bool> restored{false};
    int64_t poison = 0;
  };
  explicit KillSwitch(Shared& shared) : shared_(shared) {}

  Status Open(const OperatorContext& context) override {
    if (context.restored_checkpoint_id) shared_.restored = true;
    return Ok();
  }
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    if (shared_.armed) {
      const int id = batch.schema()->FindFieldIndex("id");
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        if (batch.column(id).Value<int64_t>(r) >= shared_.poison) {
          return InternalError("injected failure");
        }
      }
    }
    return output.Emit(std::move(batch));
  }
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override {
    int64_t seen = shared_.completed.load();
    while (seen < checkpoint_id && !shared_.completed.compare_exchange_weak(seen, checkpoint_id)) {
    }
    return Ok();
  }

 private:
  Shared& shared_;
};

struct Case {
  std::string strategy;
  int first;  // the first snapshot whose rows the job copies (by a table scan or increments)
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.strategy; }

class SourceRestartTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    FLOE_ASSERT_OK(source_.Create());
    FLOE_ASSERT_OK(sink_.Create());
  }

  // Appends snapshot k of the source table (the next one).
  void Append() {
    const int k = static_cast<int>(ids_.size()) + 1;
    // Distinct commit times, so that start-snapshot-timestamp selects one snapshot.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    FLOE_ASSERT_OK_AND_ASSIGN(auto file,
                              source_.DataFile(FirstId(k), FirstId(k) + kRowsPerSnapshot - 1,
                                               k % 2 == 0 ? "even" : "odd"));
    FLOE_ASSERT_OK(source_.table->NewFastAppend()->AppendFile(file).Commit());
    SnapshotPtr s = source_.table->metadata()->current_snapshot();
    ids_.push_back(s->snapshot_id);
    times_.push_back(s->timestamp_ms);
  }

  // The rows of snapshots first..last, as +I.
  static Rows Snapshots(int first, int last) {
    Rows out;
    for (int k = first; k <= last; ++k) {
      for (int64_t id = FirstId(k); id < FirstId(k) + kRowsPerSnapshot; ++id) {
        out.insert("+I " + std::to_string(id));
      }
    }
    return out;
  }

  // One run of the copy job: source options, the kill switch, the sink. Returns what Execute did.
  Result<JobResult> Run(StringMap options, KillSwitch::Shared& shared,
                        const std::function<void(StreamEnvironment&)>& meanwhile = {}) {
    options["streaming"] = "true";
    options["monitor-interval"] = "5ms";
    options["split-size"] = "1";
    FLOE_ASSIGN_OR_RETURN(
        auto source, IcebergSource::ForRows(source_.loader).SetAll(options).BatchRows(3).Build());
    StreamEnvironment env({.parallelism = 2,
                           .checkpoint_interval_ms = 10,
                           .checkpoint_dir = (sink_.dir.path() / "checkpoints").string()});
    DataStream rows = env.FromSource(source, "iceberg");
    DataStream passed = rows.Rebalance().Transform(
        "kill-switch", rows.schema(), [&shared](int) -> Result<std::unique_ptr<Operator>> {
          return std::make_unique<KillSwitch>(shared);
        });
    FLOE_RETURN_IF_ERROR(IcebergSink::ForRows(passed).TableLoader(sink_.loader).Append());
    if (!meanwhile) return env.Execute("copy");
    Result<JobResult> result = InternalError("the job did not run");
    std::thread job([&] { result = env.Execute("copy"); });
    meanwhile(env);
    job.join();
    return result;
  }

  // Every row of the sink table's current snapshot, through the table scan.
  Rows SinkRows() {
    auto loaded = sink_.loader.Load();
    EXPECT_TRUE(loaded) << loaded.error().ToString();
    if (!loaded) return {};
    const auto& table = *loaded;
    table::TableScan scan(table->metadata(), table->io());
    return test::ScannedKindsAndIds(scan, table->io());
  }

  // The sink table's ids as ClickHouse reads them, as +I rows; nullopt without ClickHouse.
  std::optional<Rows> SinkRowsByClickHouse() {
    if (!floe::testing::PeerInstalled("chdb")) return std::nullopt;
    auto out = floe::testing::RunPeer(
        "ch",
        {"SELECT id FROM icebergLocal('" + sink_.table->metadata()->location() + "')", "TSV"});
    EXPECT_TRUE(out.has_value()) << (out ? "" : out.error().message());
    if (!out) return Rows{};
    Rows rows;
    std::istringstream lines(*out);
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty()) rows.insert("+I " + line);
    }
    return rows;
  }

  EventsTable source_, sink_;
  std::vector<int64_t> ids_, times_;
};

// Snapshots 1-3 exist when the job starts. Once two checkpoints completed, snapshot 4 arrives
// and kills the job (its rows reach the kill switch); snapshots 5 and 6 arrive while it is down.
// The restarted job (same name and checkpoint folder) runs until snapshot 6 (end-snapshot-id):
// it resumes from its latest checkpoint rather than applying the strategy again.
TEST_P(SourceRestartTest, CopiesEachRowOnceAcrossAKill) {
  const Case& c = GetParam();
  for (int k = 1; k <= 3; ++k) Append();
  StringMap options{{"starting-strategy", c.strategy}};
  if (c.strategy == "INCREMENTAL_FROM_SNAPSHOT_ID") {
    options["start-snapshot-id"] = std::to_string(ids_[1]);
  } else if (c.strategy == "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP") {
    options["start-snapshot-timestamp"] = std::to_string(times_[1]);
  }

  KillSwitch::Shared first;
  first.armed = true;
  first.poison = FirstId(4);
  auto killed = Run(options, first, [&](StreamEnvironment& env) {
    // Waits for the job's progress (not a timed assertion): the deadline only stops a hung job.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (first.completed < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (first.completed < 2) {
      env.Cancel();
      return;
    }
    Append();
  });
  ASSERT_FALSE(killed.has_value()) << "the first run was not killed";
  ASSERT_NE(killed.error().message().find("injected failure"), std::string::npos)
      << killed.error().ToString();
  const Rows expected = Snapshots(c.first, 6);
  {
    // What the first run committed is a part of the expected rows, each once.
    const Rows committed = SinkRows();
    for (const std::string& row : committed) {
      EXPECT_EQ(committed.count(row), 1U) << row;
      EXPECT_TRUE(expected.contains(row)) << row;
    }
  }

  Append();
  Append();
  options["end-snapshot-id"] = std::to_string(ids_[5]);
  KillSwitch::Shared second;
  FLOE_ASSERT_OK_AND_ASSIGN(JobResult resumed, Run(options, second));
  EXPECT_TRUE(second.restored.load());
  EXPECT_EQ(resumed.restarts, 0);
  EXPECT_EQ(SinkRows(), expected);
  if (auto by_clickhouse = SinkRowsByClickHouse()) {
    EXPECT_EQ(*by_clickhouse, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, SourceRestartTest,
                         ::testing::Values(Case{"TABLE_SCAN_THEN_INCREMENTAL", 1},
                                           Case{"INCREMENTAL_FROM_LATEST_SNAPSHOT", 3},
                                           Case{"INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE", 4},
                                           Case{"INCREMENTAL_FROM_EARLIEST_SNAPSHOT", 1},
                                           Case{"INCREMENTAL_FROM_SNAPSHOT_ID", 2},
                                           Case{"INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP", 2}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.strategy;
                         });

}  // namespace
}  // namespace floe::stream
