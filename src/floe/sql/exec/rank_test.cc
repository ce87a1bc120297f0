// The rank operator driven by hand: the changelog of a streaming Top-N and of keeping the last row,
// keeping the first row once the watermark passes it, the state through a snapshot and a restore,
// and partitions forgotten after the state TTL.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "floe/batch/value.h"
#include "floe/sql/exec/rank_internal.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kSecondUs = 1'000'000;

BatchSchemaPtr InputSchema() {
  return std::make_shared<BatchSchema>(
      std::vector<Field>{{"k", DataType::String()},
                         {"ts", DataType::Timestamp(TimeUnit::kMicro, false, 3)},
                         {"v", DataType::Int32()}});
}

struct Row {
  std::string k;
  int64_t second;
  int32_t v;
};

RecordBatch Rows(const std::vector<Row>& rows) {
  std::vector<Value> k, ts, v;
  for (const Row& row : rows) {
    k.emplace_back(row.k);
    ts.emplace_back(TimestampValue{.value = row.second * kSecondUs});
    v.emplace_back(row.v);
  }
  BatchSchemaPtr schema = InputSchema();
  return RecordBatch::Make(schema, {MakeArray(schema->field(0).type, k).value(),
                                    MakeArray(schema->field(1).type, ts).value(),
                                    MakeArray(schema->field(2).type, v).value()})
      .value();
}

// Each row emitted since the last call as "<kind> k v rank", in order.
std::vector<std::string> Take(stream::testing::OperatorHarness& harness) {
  std::vector<std::string> lines;
  for (const RecordBatch& batch : harness.output().batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      lines.push_back(std::string(RowKindSymbol(batch.row_kind(r))) + " " +
                      FormatCell(batch.column(0), r) + " " + FormatCell(batch.column(2), r) + " " +
                      FormatCell(batch.column(3), r));
    }
  }
  harness.output().batches.clear();
  return lines;
}

using Lines = std::vector<std::string>;

std::unique_ptr<stream::testing::OperatorHarness> Harness(RankSpec spec,
                                                          std::vector<std::string> state = {}) {
  spec.partition_columns = {0};
  BatchSchemaPtr input = InputSchema();
  BatchSchemaPtr output = RankSchema(*input, spec).value();
  auto op = RankOperatorFactory(input, output, spec)(0).value();
  stream::OperatorContext context{.operator_name = "rank", .streaming = true};
  if (!state.empty()) {
    context.restored_checkpoint_id = 1;
    context.restored_state = std::move(state);
  }
  return std::make_unique<stream::testing::OperatorHarness>(std::move(op), std::move(context));
}

RankSpec TopTwoByValue() {
  return RankSpec{.order = {{.column = 2, .descending = true, .nulls_first = false}}, .limit = 2};
}

TEST(RankTest, TopNUpdatesTheRanksARowChanges) {
  auto harness = Harness(TopTwoByValue());
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 1, 5}, {"b", 1, 1}})));
  EXPECT_EQ(Take(*harness), (Lines{"+I a 5 1", "+I b 1 1"}));
  // 7 takes rank 1 and pushes 5 to rank 2; 3 is not in a's top two.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 2, 7}, {"a", 3, 3}})));
  EXPECT_EQ(Take(*harness), (Lines{"-U a 5 1", "+U a 7 1", "+I a 5 2"}));
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 4, 6}})));
  EXPECT_EQ(Take(*harness), (Lines{"-U a 5 2", "+U a 6 2"}));
}

TEST(RankTest, KeepingTheLastRowReplacesItWithANewerOne) {
  RankSpec spec{.order = {{.column = 1, .descending = true, .nulls_first = false}},
                .limit = 1,
                .newer_first = true};
  auto harness = Harness(spec);
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 10, 1}})));
  // An older row changes nothing; one of the same time is newer and wins.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 5, 2}})));
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 10, 3}})));
  EXPECT_EQ(Take(*harness), (Lines{"+I a 1 1", "-U a 1 1", "+U a 3 1"}));
}

RankSpec KeepFirst() {
  return RankSpec{.order = {{.column = 1, .descending = false, .nulls_first = true}},
                  .limit = 1,
                  .keep_first_rowtime = 1};
}

TEST(RankTest, KeepingTheFirstRowEmitsItOnceTheWatermarkPassesIt) {
  auto harness = Harness(KeepFirst());
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 10, 1}, {"b", 20, 2}})));
  // An earlier row arriving later is still the first.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 8, 3}})));
  EXPECT_TRUE(Take(*harness).empty());
  FLOE_ASSERT_OK(harness->ProcessWatermark(10'000));
  EXPECT_EQ(Take(*harness), (Lines{"+I a 3 1"}));
  // a is final: a later row of it, even an earlier one, is dropped.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 1, 4}})));
  FLOE_ASSERT_OK(harness->ProcessWatermark(30'000));
  EXPECT_EQ(Take(*harness), (Lines{"+I b 2 1"}));
}

TEST(RankTest, StateSurvivesARestore) {
  auto harness = Harness(KeepFirst());
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 10, 1}, {"b", 20, 2}})));
  FLOE_ASSERT_OK(harness->ProcessWatermark(15'000));
  EXPECT_EQ(Take(*harness), (Lines{"+I a 1 1"}));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> state, harness->SnapshotState(1));

  auto restored = Harness(KeepFirst(), state);
  FLOE_ASSERT_OK(restored->Open());
  FLOE_ASSERT_OK(restored->ProcessBatch(Rows({{"a", 5, 3}, {"b", 18, 4}})));
  FLOE_ASSERT_OK(restored->Finish());
  // a stays final; b's earlier row wins over the restored one.
  EXPECT_EQ(Take(*restored), (Lines{"+I b 4 1"}));

  auto corrupt = Harness(KeepFirst(), {state[0].substr(0, state[0].size() - 3)});
  EXPECT_FALSE(corrupt->Open().has_value());
}

TEST(RankTest, StateTtlForgetsIdlePartitions) {
  RankSpec spec = TopTwoByValue();
  spec.state_ttl_ms = 50;
  auto harness = Harness(spec);
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 1, 5}})));
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  // This batch sweeps a away; a's next row starts it anew, as an insert of rank 1.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"b", 1, 1}})));
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 2, 3}})));
  EXPECT_EQ(Take(*harness), (Lines{"+I a 5 1", "+I b 1 1", "+I a 3 1"}));
}

TEST(RankTest, WindowTopNEmitsEachWindowOnceItIsComplete) {
  // Column 1 is the window end here: a window Top-N of one per (k, window end).
  RankSpec spec{.order = {{.column = 2, .descending = true, .nulls_first = false}},
                .limit = 1,
                .window_end = 1};
  spec.partition_columns = {0, 1};
  BatchSchemaPtr input = InputSchema();
  BatchSchemaPtr output = RankSchema(*input, spec).value();
  stream::testing::OperatorHarness harness(RankOperatorFactory(input, output, spec)(0).value(),
                                           {.operator_name = "rank", .streaming = true});
  FLOE_ASSERT_OK(harness.Open());
  FLOE_ASSERT_OK(harness.ProcessBatch(Rows({{"a", 60, 1}, {"a", 60, 4}, {"a", 120, 2}})));
  EXPECT_TRUE(Take(harness).empty());
  // 00:00:59.999 completes the window ending at 00:01:00.
  FLOE_ASSERT_OK(harness.ProcessWatermark(59'999));
  EXPECT_EQ(Take(harness), (Lines{"+I a 4 1"}));
  // Late for the emitted window; the open one still takes rows.
  FLOE_ASSERT_OK(harness.ProcessBatch(Rows({{"a", 60, 9}, {"a", 120, 3}})));
  FLOE_ASSERT_OK(harness.Finish());
  EXPECT_EQ(Take(harness), (Lines{"+I a 3 1"}));
}

TEST(RankTest, SchemaErrors) {
  BatchSchemaPtr input = InputSchema();
  EXPECT_FALSE(RankSchema(*input, RankSpec{}).has_value());  // no ORDER BY
  EXPECT_FALSE(RankSchema(*input, RankSpec{.order = {{.column = 7}}}).has_value());
  EXPECT_FALSE(RankSchema(*input, RankSpec{.order = {{.column = 2}}, .limit = 0}).has_value());
  EXPECT_FALSE(
      RankSchema(*input, RankSpec{.order = {{.column = 2}}, .keep_first_rowtime = 2}).has_value());
  // A window end that is no partition column.
  EXPECT_FALSE(RankSchema(*input, RankSpec{.order = {{.column = 2}}, .window_end = 1}).has_value());
}

}  // namespace
}  // namespace floe::sql::exec
