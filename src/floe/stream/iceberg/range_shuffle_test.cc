// The range distribution's statistics operator, aggregator and channel selector driven by hand:
// balance over writers for skewed keys, one contiguous key range per writer, assignments that
// switch only at barriers, and routing that survives a restore into a new process.

#include "floe/stream/iceberg/range_shuffle.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "floe/stream/iceberg/sink_test_support.h"

namespace floe::stream::test {
namespace {

class RangeShuffleTest : public SinkFixture {
 protected:
  // Sorted by id (ascending) unless `order` is false; partitioned by category when `partitioned`.
  void CreateSortedTable(bool order, bool partitioned) {
    auto catalog = Loader().LoadCatalog().value();
    ASSERT_TRUE(catalog->CreateNamespace(kIdent.ns, {}).has_value());
    catalog::CreateTableRequest request;
    using namespace floe::types;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "data", String()),
                                 Optional(3, "category", String())},
        0, std::vector<int32_t>{});
    if (order) {
      request.sort_order =
          std::make_shared<SortOrder>(1, std::vector<SortField>{SortField{.source_ids = {1}}});
    }
    if (partitioned) {
      request.spec = std::make_shared<PartitionSpec>(
          0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
    }
    ASSERT_TRUE(catalog->CreateTable(kIdent, request).has_value());
  }

  std::shared_ptr<RangeStatistics> Statistics(int writers, int subtasks) {
    auto metadata = Table()->metadata();
    auto key = SortKey::ForTable(*metadata);
    EXPECT_TRUE(key.has_value() && key->has_value());
    return std::make_shared<RangeStatistics>(std::move(**key), writers, subtasks);
  }

  // A statistics subtask with an output that counts the batches passed through.
  struct Subtask {
    class Counter : public Output {
     public:
      Status Emit(RecordBatch) override {
        ++batches;
        return {};
      }
      Status EmitMessage(Message, int) override { return {}; }
      int batches = 0;
    };
    std::unique_ptr<RangeStatisticsOperator> op;
    OperatorContext context;
    Counter output;
    Status Open() { return op->Open(context); }
    Status ProcessBatch(RecordBatch batch) { return op->ProcessBatch(0, std::move(batch), output); }
    Result<std::vector<std::string>> SnapshotState(int64_t id) {
      return op->SnapshotState(id, output);
    }
  };

  std::unique_ptr<Subtask> StatisticsSubtask(const std::shared_ptr<RangeStatistics>& statistics,
                                             int subtask, int parallelism,
                                             std::vector<std::string> state = {}) {
    const std::optional<int64_t> restored =
        state.empty() ? std::nullopt : std::optional<int64_t>(2);
    auto out = std::make_unique<Subtask>();
    out->op = std::make_unique<RangeStatisticsOperator>(
        statistics, Table()->metadata()->current_schema(), RowSchema());
    out->context = Context("statistics", subtask, parallelism, std::move(state), restored);
    FLOE_EXPECT_OK(out->Open());
    return out;
  }

  std::unique_ptr<RangeChannelSelector> Selector(const std::shared_ptr<RangeStatistics>& statistics,
                                                 int subtask) {
    auto selector = RangeChannelSelector::Make(statistics, subtask,
                                               Table()->metadata()->current_schema(), RowSchema());
    EXPECT_TRUE(selector.has_value()) << selector.error().ToString();
    return std::move(*selector);
  }
};

// Rows n = first..first+count-1 with a skewed id: 40% of rows have id 500, the rest ids spread
// over 0..999 (n * 7919 mod 1000, a permutation-like walk).
RecordBatch SkewedRows(int64_t first, int64_t count) {
  std::vector<Row> rows;
  for (int64_t n = first; n < first + count; ++n) {
    const int64_t id = n % 5 < 2 ? 500 : (n * 7919) % 1000;
    rows.push_back(Row{id, fmt::format("r{}", n), fmt::format("c{}", n % 3)});
  }
  return Batch(rows);
}

struct Routed {
  std::map<int, int64_t> rows;                        // by writer
  std::map<int, std::pair<int64_t, int64_t>> ranges;  // by writer: min and max id
};

Routed Route(RangeChannelSelector& selector, const RecordBatch& batch, int writers) {
  std::vector<int32_t> channels;
  FLOE_EXPECT_OK(selector.SelectChannels(batch, writers, channels));
  Routed out;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    const int64_t id = batch.column(0).Value<int64_t>(i);
    const int w = channels[i];
    ++out.rows[w];
    auto [it, inserted] = out.ranges.emplace(w, std::pair{id, id});
    it->second.first = std::min(it->second.first, id);
    it->second.second = std::max(it->second.second, id);
  }
  return out;
}

// Writer ranges in writer order, each starting at or after the end of the one before.
void ExpectContiguous(const Routed& routed) {
  for (auto it = routed.ranges.begin(); std::next(it) != routed.ranges.end(); ++it) {
    EXPECT_LE(it->second.second, std::next(it)->second.first)
        << "writer " << it->first << " ends at " << it->second.second << ", writer "
        << std::next(it)->first << " starts at " << std::next(it)->second.first;
  }
}

TEST_F(RangeShuffleTest, SkewedKeysAreBalancedInContiguousRanges) {
  CreateSortedTable(/*order=*/true, /*partitioned=*/false);
  constexpr int kWriters = 4;
  auto statistics = Statistics(kWriters, 2);
  auto s0 = StatisticsSubtask(statistics, 0, 2);
  auto s1 = StatisticsSubtask(statistics, 1, 2);
  auto selector0 = Selector(statistics, 0);

  // Interval 1: no statistics yet, round-robin.
  FLOE_ASSERT_OK(s0->ProcessBatch(SkewedRows(0, 3000)));
  FLOE_ASSERT_OK(s1->ProcessBatch(SkewedRows(3000, 3000)));
  Routed first = Route(*selector0, SkewedRows(0, 3000), kWriters);
  for (int w = 0; w < kWriters; ++w) EXPECT_EQ(first.rows[w], 750);
  // The batches pass through unchanged.
  EXPECT_EQ(s0->output.batches, 1);

  // Barrier 1 at subtask 0 pins nothing (no assignment before checkpoint 1 is complete).
  FLOE_ASSERT_OK(s0->SnapshotState(1));
  EXPECT_EQ(statistics->Current(), nullptr);
  FLOE_ASSERT_OK(s1->SnapshotState(1));
  ASSERT_NE(statistics->Current(), nullptr);
  EXPECT_EQ(statistics->Pinned(0), nullptr);
  // Barrier 2 pins the assignment of checkpoint 1.
  FLOE_ASSERT_OK(s0->SnapshotState(2));
  EXPECT_EQ(statistics->Pinned(0)->checkpoint_id(), 1);

  Routed routed = Route(*selector0, SkewedRows(6000, 6000), kWriters);
  ASSERT_EQ(routed.rows.size(), static_cast<size_t>(kWriters));
  ExpectContiguous(routed);
  for (int w = 0; w < kWriters; ++w) {
    EXPECT_NEAR(static_cast<double>(routed.rows[w]), 1500.0, 150.0) << "writer " << w;
  }
  // id 500 holds 40% of the rows: it is split over the middle writers.
  int writers_of_500 = 0;
  for (const auto& [w, range] : routed.ranges) {
    writers_of_500 += range.first <= 500 && 500 <= range.second;
  }
  EXPECT_GE(writers_of_500, 2);
}

// The state of checkpoint 2 restored into a new RangeStatistics (a new process) routes the next
// interval exactly as the original run did; a malformed entry is refused.
TEST_F(RangeShuffleTest, RestoredAssignmentRoutesAsBefore) {
  CreateSortedTable(/*order=*/false, /*partitioned=*/true);  // the partition key: category
  constexpr int kWriters = 3;
  auto statistics = Statistics(kWriters, 1);
  auto s0 = StatisticsSubtask(statistics, 0, 1);
  FLOE_ASSERT_OK(s0->ProcessBatch(SkewedRows(0, 999)));
  FLOE_ASSERT_OK(s0->SnapshotState(1));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> state, s0->SnapshotState(2));
  ASSERT_EQ(state.size(), 1U);

  const RecordBatch next = SkewedRows(999, 300);
  std::vector<int32_t> before, after;
  FLOE_ASSERT_OK(Selector(statistics, 0)->SelectChannels(next, kWriters, before));
  // Three categories of equal weight, three writers: one category each.
  std::set<int32_t> used(before.begin(), before.end());
  EXPECT_EQ(used.size(), 3U);

  auto restored = Statistics(kWriters, 1);
  auto r0 = StatisticsSubtask(restored, 0, 1, state);
  FLOE_ASSERT_OK(Selector(restored, 0)->SelectChannels(next, kWriters, after));
  EXPECT_EQ(before, after);

  auto broken = std::make_unique<Subtask>();
  broken->op = std::make_unique<RangeStatisticsOperator>(
      restored, Table()->metadata()->current_schema(), RowSchema());
  broken->context = Context("statistics", 0, 1,
                            {R"({"checkpoint-id": 2, "bounds": [["x"]], "fractions": [2]})"}, 2);
  auto opened = broken->Open();
  ASSERT_FALSE(opened.has_value());
  EXPECT_NE(opened.error().message().find("statistics state entry 0"), std::string::npos);
}

// Checkpoints without rows publish nothing: the last assignment stays.
TEST_F(RangeShuffleTest, EmptyIntervalsKeepTheAssignment) {
  CreateSortedTable(/*order=*/true, /*partitioned=*/false);
  auto statistics = Statistics(2, 1);
  auto s0 = StatisticsSubtask(statistics, 0, 1);
  FLOE_ASSERT_OK(s0->ProcessBatch(SkewedRows(0, 100)));
  FLOE_ASSERT_OK(s0->SnapshotState(1));
  auto first = statistics->Current();
  ASSERT_NE(first, nullptr);
  FLOE_ASSERT_OK(s0->SnapshotState(2));
  FLOE_ASSERT_OK(s0->SnapshotState(3));
  EXPECT_EQ(statistics->Current(), first);
  EXPECT_EQ(statistics->Pinned(0), first);
}

}  // namespace
}  // namespace floe::stream::test
