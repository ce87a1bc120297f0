// The window aggregate driven by hand: windows emitted once when the watermark reaches their last
// millisecond, late rows dropped and counted, and the watermark kept across a restore.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/sql/exec/aggregate_internal.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kMinuteUs = 60'000'000;

BatchSchemaPtr InputSchema() {
  return std::make_shared<BatchSchema>(
      std::vector<Field>{{"k", DataType::String()},
                         {"window_end", DataType::Timestamp(TimeUnit::kMicro, false, 3), false},
                         {"v", DataType::Int32()}});
}

struct Row {
  std::string k;
  int64_t end_minute;
  int32_t v;
};

RecordBatch Rows(const std::vector<Row>& rows) {
  std::vector<Value> k, end, v;
  for (const Row& row : rows) {
    k.emplace_back(row.k);
    end.emplace_back(TimestampValue{.value = row.end_minute * kMinuteUs});
    v.emplace_back(row.v);
  }
  BatchSchemaPtr schema = InputSchema();
  return RecordBatch::Make(schema, {MakeArray(schema->field(0).type, k).value(),
                                    MakeArray(schema->field(1).type, end).value(),
                                    MakeArray(schema->field(2).type, v).value()})
      .value();
}

std::vector<std::string> Lines(const std::vector<RecordBatch>& batches) {
  std::vector<std::string> lines;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::string line = batch.row_kind(r) == RowKind::kInsert ? "+I" : "not an insert";
      for (int c = 0; c < batch.num_columns(); ++c) line += " | " + FormatCell(batch.column(c), r);
      lines.push_back(std::move(line));
    }
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::unique_ptr<stream::testing::OperatorHarness> Harness(std::vector<std::string> state = {}) {
  std::vector<int> groups = {0, 1};
  std::vector<AggregateCall> calls = {{.kind = AggregateKind::kCountStar},
                                      {.kind = AggregateKind::kSum, .argument = 2}};
  BatchSchemaPtr input = InputSchema();
  BatchSchemaPtr output = AggregateSchema(*input, groups, calls).value();
  auto op = AggregateOperatorFactory(input, output, groups, calls, 1)(0).value();
  stream::OperatorContext context{.operator_name = "w", .streaming = true};
  if (!state.empty()) {
    context.restored_checkpoint_id = 1;
    context.restored_state = std::move(state);
  }
  return std::make_unique<stream::testing::OperatorHarness>(std::move(op), std::move(context));
}

TEST(WindowAggregateTest, EmitsEachWindowOnceWhenTheWatermarkPassesIt) {
  auto harness = Harness();
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 1, 1}, {"b", 1, 2}, {"a", 2, 3}})));
  EXPECT_TRUE(harness->output().batches.empty());
  // 00:00:59.998: the window ending at 00:01:00 has one millisecond to go.
  FLOE_ASSERT_OK(harness->ProcessWatermark(59'998));
  EXPECT_TRUE(Lines(harness->output().batches).empty());
  FLOE_ASSERT_OK(harness->ProcessWatermark(59'999));
  EXPECT_EQ(Lines(harness->output().batches),
            (std::vector<std::string>{"+I | a | 1970-01-01 00:01:00.000 | 1 | 1",
                                      "+I | b | 1970-01-01 00:01:00.000 | 1 | 2"}));
  ASSERT_EQ(harness->output().watermarks.size(), 2u);
  EXPECT_EQ(harness->output().watermarks.back().timestamp_ms, 59'999);

  // A row of the emitted window is late.
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 1, 10}, {"a", 2, 4}})));
  EXPECT_EQ(harness->metrics().Get("w.0.late-records-dropped"), 1);

  // After a restore the watermark still makes it late; the open window goes on.
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> state, harness->SnapshotState(1));
  auto restored = Harness(state);
  FLOE_ASSERT_OK(restored->Open());
  FLOE_ASSERT_OK(restored->ProcessBatch(Rows({{"b", 1, 5}, {"a", 2, 100}})));
  EXPECT_EQ(restored->metrics().Get("w.0.late-records-dropped"), 1);
  FLOE_ASSERT_OK(restored->ProcessWatermark(119'999));
  EXPECT_EQ(Lines(restored->output().batches),
            (std::vector<std::string>{"+I | a | 1970-01-01 00:02:00.000 | 3 | 107"}));
  FLOE_ASSERT_OK(restored->Finish());
  EXPECT_EQ(Lines(restored->output().batches).size(), 1u);
}

TEST(WindowAggregateTest, TheEndOfTheInputEmitsTheOpenWindows) {
  auto harness = Harness();
  FLOE_ASSERT_OK(harness->Open());
  FLOE_ASSERT_OK(harness->ProcessBatch(Rows({{"a", 3, 1}, {"a", 5, 2}})));
  FLOE_ASSERT_OK(harness->Finish());
  EXPECT_EQ(Lines(harness->output().batches),
            (std::vector<std::string>{"+I | a | 1970-01-01 00:03:00.000 | 1 | 1",
                                      "+I | a | 1970-01-01 00:05:00.000 | 1 | 2"}));
}

}  // namespace
}  // namespace floe::sql::exec
