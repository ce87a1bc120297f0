#include <gtest/gtest.h>

#include "floe/batch/filter.h"
#include "floe/batch/take.h"
#include "floe/sql/exec/aggregate_internal.h"
#include "floe/sql/exec/exec_testing.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

using testing::ApplyChangelog;
using testing::DuckRows;
using testing::RandomTable;
using testing::RunCollect;
using testing::SortedRows;

// Columns of RandomTable.
enum : int { kKInt, kKStr, kVInt, kVBig, kVDbl, kVDec, kVDate, kVTs, kVBool };

std::vector<AggregateCall> AllCalls() {
  return {{.kind = AggregateKind::kCountStar},
          {.kind = AggregateKind::kCount, .argument = kVInt},
          {.kind = AggregateKind::kCount, .argument = kVInt, .distinct = true},
          {.kind = AggregateKind::kSum, .argument = kVInt},
          {.kind = AggregateKind::kSum, .argument = kVBig},
          {.kind = AggregateKind::kSum, .argument = kVDbl},
          {.kind = AggregateKind::kSum, .argument = kVDec},
          {.kind = AggregateKind::kAvg, .argument = kVInt},
          {.kind = AggregateKind::kAvg, .argument = kVDbl},
          {.kind = AggregateKind::kAvg, .argument = kVDec},
          {.kind = AggregateKind::kMin, .argument = kVInt},
          {.kind = AggregateKind::kMax, .argument = kVBig},
          {.kind = AggregateKind::kMin, .argument = kKStr},
          {.kind = AggregateKind::kMax, .argument = kKStr},
          {.kind = AggregateKind::kMin, .argument = kVDec},
          {.kind = AggregateKind::kMax, .argument = kVDbl},
          {.kind = AggregateKind::kMin, .argument = kVDate},
          {.kind = AggregateKind::kMax, .argument = kVTs},
          {.kind = AggregateKind::kMin, .argument = kVBool},
          {.kind = AggregateKind::kMax, .argument = kVBool},
          {.kind = AggregateKind::kSum, .argument = kVBig, .distinct = true}};
}

// The same aggregates in DuckDB. AVG of an integer is Flink's: the BIGINT sum divided by the
// count, truncated; AVG of DECIMAL(10, 2) is DECIMAL(38, 6) rounded half up.
constexpr const char* kDuckCalls =
    "COUNT(*), COUNT(v_int), COUNT(DISTINCT v_int), SUM(v_int), SUM(v_big), SUM(v_dbl), "
    "SUM(v_dec), CAST(trunc(SUM(v_int)::DOUBLE / COUNT(v_int)) AS INTEGER), AVG(v_dbl), "
    "CAST(CAST(round(CAST(SUM(v_dec * 100) AS HUGEINT) * 10000 / COUNT(v_dec)::DOUBLE) AS "
    "DECIMAL(38, 0)) * CAST(0.000001 AS DECIMAL(7, 6)) AS DECIMAL(38, 6)), "
    "MIN(v_int), MAX(v_big), MIN(k_str), MAX(k_str), MIN(v_dec), MAX(v_dbl), MIN(v_date), "
    "MAX(v_ts), MIN(v_bool), MAX(v_bool), SUM(DISTINCT v_big)";
constexpr const char* kDuckKinds = "vvvvvdvvdvvvvvvdvtvvv";

// DuckDB names columns by position through a column alias list.
std::string Aliased(const std::string& sql, int columns) {
  std::string names;
  for (int i = 0; i < columns; ++i) names += fmt::format("{}c{}", i ? ", " : "", i);
  return fmt::format("SELECT * FROM ({}) q({})", sql, names);
}

std::string DuckGroupQuery(const std::string& group_by, int group_columns) {
  std::string select = group_by.empty() ? "" : group_by + ", ";
  std::string sql = fmt::format("SELECT {}{} FROM t", select, kDuckCalls);
  if (!group_by.empty()) sql += " GROUP BY " + group_by;
  return Aliased(sql, group_columns + static_cast<int>(std::string_view(kDuckKinds).size()));
}

class AggregateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
  }
  floe::testing::TempDir dir_;
};

TEST_F(AggregateTest, BatchGroupByMatchesDuckDb) {
  auto input = RandomTable(7, 6, 500);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, input));
  FLOE_ASSERT_OK_AND_ASSIGN(auto output,
                            RunCollect(
                                input, {.mode = stream::RuntimeMode::kBatch, .parallelism = 3},
                                [](const stream::DataStream& s) {
                                  return Aggregate(s, {kKInt, kKStr}, AllCalls());
                                },
                                2));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, DuckRows(parquet, DuckGroupQuery("k_int, k_str", 2),
                                                    std::string("vv") + kDuckKinds));
  EXPECT_EQ(SortedRows(output), expected);
  EXPECT_GT(expected.size(), 30u);
}

TEST_F(AggregateTest, BatchGlobalAggregateMatchesDuckDbAlsoOnEmptyInput) {
  auto input = RandomTable(8, 3, 400);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, input));
  auto run = [](const std::vector<RecordBatch>& batches) {
    return RunCollect(batches, {.mode = stream::RuntimeMode::kBatch, .parallelism = 2},
                      [](const stream::DataStream& s) { return Aggregate(s, {}, AllCalls()); });
  };
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, run(input));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, DuckRows(parquet, DuckGroupQuery("", 0), kDuckKinds));
  EXPECT_EQ(SortedRows(output), expected);

  auto empty = dir_.path() / "empty.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(empty, {input[0].Slice(0, 0)}));
  FLOE_ASSERT_OK_AND_ASSIGN(output, run({input[0].Slice(0, 0)}));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, DuckRows(empty, DuckGroupQuery("", 0), kDuckKinds));
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(SortedRows(output), expected);
}

// Inserts, then retractions (-D and -U) of a third of the first batch's rows: the changelog the
// aggregate emits, applied, must equal DuckDB's GROUP BY over the rows that remain.
struct Changelog {
  std::vector<RecordBatch> input;
  std::vector<RecordBatch> remaining;
};

Changelog MakeChangelog(uint32_t seed) {
  Changelog log;
  auto table = RandomTable(seed, 5, 300);
  std::vector<int64_t> retracted;
  std::vector<uint8_t> keep;
  for (int64_t r = 0; r < table[0].num_rows(); ++r) {
    if (r % 3 == 0) retracted.push_back(r);
    keep.push_back(r % 3 != 0);
  }
  RecordBatch retractions = *TakeBatch(table[0], retracted);
  std::vector<RowKind> kinds;
  for (size_t i = 0; i < retracted.size(); ++i) {
    kinds.push_back(i % 2 ? RowKind::kUpdateBefore : RowKind::kDelete);
  }
  retractions = *retractions.WithRowKinds(Buffer::CopyOf(kinds.data(), std::ssize(kinds)));
  log.input = {
      table[0], table[1], table[2], retractions.Slice(0, 40), table[3], retractions.Slice(40, 1000),
      table[4]};
  log.remaining = {*FilterBatch(table[0], keep), table[1], table[2], table[3], table[4]};
  return log;
}

TEST_F(AggregateTest, StreamingChangelogAppliedMatchesDuckDb) {
  Changelog log = MakeChangelog(11);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, log.remaining));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto output,
      RunCollect(log.input, {.mode = stream::RuntimeMode::kStreaming, .parallelism = 2},
                 [](const stream::DataStream& s) {
                   return Aggregate(s, {kKInt, kKStr}, AllCalls());
                 }));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, DuckRows(parquet, DuckGroupQuery("k_int, k_str", 2),
                                                    std::string("vv") + kDuckKinds));
  EXPECT_EQ(ApplyChangelog(output), expected);
  bool updates = false;
  for (const RecordBatch& batch : output) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      updates = updates || batch.row_kind(r) == RowKind::kUpdateBefore;
    }
  }
  EXPECT_TRUE(updates);
}

TEST_F(AggregateTest, StreamingRestoredFromSnapshotContinuesCorrectly) {
  Changelog log = MakeChangelog(12);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, log.remaining));
  BatchSchemaPtr input = log.input[0].schema();
  std::vector<int> groups = {kKStr};
  FLOE_ASSERT_OK_AND_ASSIGN(BatchSchemaPtr output, AggregateSchema(*input, groups, AllCalls()));
  auto factory = AggregateOperatorFactory(input, output, groups, AllCalls());
  stream::OperatorContext context{.operator_name = "agg", .streaming = true};

  std::vector<RecordBatch> changelog;
  std::vector<std::string> state;
  {
    FLOE_ASSERT_OK_AND_ASSIGN(auto op, factory(0));
    stream::testing::OperatorHarness harness(std::move(op), context);
    FLOE_ASSERT_OK(harness.Open());
    for (int b = 0; b < 4; ++b) FLOE_ASSERT_OK(harness.ProcessBatch(log.input[b]));
    FLOE_ASSERT_OK_AND_ASSIGN(state, harness.SnapshotState(1));
    changelog = harness.output().batches;
    // A batch after the snapshot whose output is lost with the "crash": it is replayed.
    FLOE_ASSERT_OK(harness.ProcessBatch(log.input[4]));
  }
  context.restored_checkpoint_id = 1;
  context.restored_state = state;
  FLOE_ASSERT_OK_AND_ASSIGN(auto op, factory(0));
  stream::testing::OperatorHarness restored(std::move(op), context);
  FLOE_ASSERT_OK(restored.Open());
  for (size_t b = 4; b < log.input.size(); ++b) FLOE_ASSERT_OK(restored.ProcessBatch(log.input[b]));
  for (const RecordBatch& batch : restored.output().batches) changelog.push_back(batch);

  FLOE_ASSERT_OK_AND_ASSIGN(
      auto expected, DuckRows(parquet, DuckGroupQuery("k_str", 1), std::string("v") + kDuckKinds));
  EXPECT_EQ(ApplyChangelog(changelog), expected);

  context.parallelism = 2;
  FLOE_ASSERT_OK_AND_ASSIGN(op, factory(0));
  stream::testing::OperatorHarness rescaled(std::move(op), context);
  EXPECT_EQ(rescaled.Open().error().kind(), ErrorKind::kUnsupported);
}

// Group keys take one of two layouts (packed into 128 bits, or encoded bytes) by their types and
// nullability: every combination here must group as DuckDB does.
TEST_F(AggregateTest, EveryKeyLayoutGroupsAsDuckDb) {
  auto input = RandomTable(9, 4, 500);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, input));
  struct Case {
    std::vector<int> columns;
    const char* duck_columns;
    const char* duck_kinds;
  };
  std::vector<Case> cases = {
      {{kKInt}, "k_int", "v"},                   // packed: 32 bits and a null bit
      {{kKInt, kVBool}, "k_int, v_bool", "vv"},  // packed: two columns
      {{kVBig, kVInt}, "v_big, v_int", "vv"},    // packed: 98 bits
      {{kVDbl, kVDate}, "v_dbl, v_date", "dv"},  // packed: a double
      {{kVBig, kVTs}, "v_big, v_ts", "vt"},      // encoded: 130 bits
      {{kVDec}, "v_dec", "v"},                   // encoded: 129 bits
      {{kKStr, kKInt}, "k_str, k_int", "vv"},    // encoded: a string
  };
  std::vector<AggregateCall> calls = {
      {.kind = AggregateKind::kCountStar},
      {.kind = AggregateKind::kMin, .argument = kVInt},
      {.kind = AggregateKind::kCount, .argument = kKStr, .distinct = true}};
  for (const Case& c : cases) {
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto output,
        RunCollect(input, {.mode = stream::RuntimeMode::kBatch, .parallelism = 2},
                   [&](const stream::DataStream& s) { return Aggregate(s, c.columns, calls); }));
    std::string sql = fmt::format(
        "SELECT {0}, COUNT(*), MIN(v_int), COUNT(DISTINCT k_str) FROM t "
        "GROUP BY {0}",
        c.duck_columns);
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto expected, DuckRows(parquet, Aliased(sql, static_cast<int>(c.columns.size()) + 3),
                                std::string(c.duck_kinds) + "vvv"));
    EXPECT_EQ(SortedRows(output), expected) << c.duck_columns;
  }
}

// -0.0 and 0.0 are one group (as in DuckDB), in both key layouts.
TEST_F(AggregateTest, NegativeZeroGroupsWithZero) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"x", DataType::Float64()}, {"s", DataType::String()}});
  std::vector<Value> xs = {Value(0.0), Value(-0.0), Value(1.5), Value(-0.0), Value()};
  std::vector<Value> ss = {Value(std::string("a")), Value(std::string("a")),
                           Value(std::string("a")), Value(std::string("a")),
                           Value(std::string("a"))};
  RecordBatch batch = *RecordBatch::Make(
      schema, {*MakeArray(DataType::Float64(), xs), *MakeArray(DataType::String(), ss)});
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, {batch}));
  // Packed (x alone) and encoded (x with a string).
  for (bool with_string : {false, true}) {
    std::vector<int> columns = with_string ? std::vector<int>{0, 1} : std::vector<int>{0};
    FLOE_ASSERT_OK_AND_ASSIGN(auto output,
                              RunCollect({batch}, {.mode = stream::RuntimeMode::kBatch},
                                         [&](const stream::DataStream& s) {
                                           return Aggregate(s, columns,
                                                            {{.kind = AggregateKind::kCountStar}});
                                         }));
    std::string sql = with_string ? "SELECT x AS c0, s AS c1, COUNT(*) AS c2 FROM t GROUP BY x, s"
                                  : "SELECT x AS c0, COUNT(*) AS c1 FROM t GROUP BY x";
    FLOE_ASSERT_OK_AND_ASSIGN(auto expected, DuckRows(parquet, sql, with_string ? "dvv" : "dv"));
    EXPECT_EQ(SortedRows(output), expected);
    EXPECT_EQ(expected.size(), 3u);
  }
}

// Streaming: when most groups have been retracted away the operator compacts its state; the
// groups that remain (and come back) must go on as if nothing happened.
TEST_F(AggregateTest, StreamingAfterManyDroppedGroupsMatchesDuckDb) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"k", DataType::Int64()}, {"v", DataType::Int64()}});
  auto make = [&](int64_t from, int64_t to, int64_t factor) {
    std::vector<Value> ks;
    std::vector<Value> vs;
    for (int64_t k = from; k < to; ++k) {
      ks.emplace_back(k);
      vs.emplace_back(k * factor);
    }
    return *RecordBatch::Make(
        schema, {*MakeArray(DataType::Int64(), ks), *MakeArray(DataType::Int64(), vs)});
  };
  RecordBatch all = make(0, 10000, 1);
  RecordBatch dropped = make(100, 10000, 1);
  std::vector<RowKind> kinds(static_cast<size_t>(dropped.num_rows()), RowKind::kDelete);
  dropped = *dropped.WithRowKinds(Buffer::CopyOf(kinds.data(), std::ssize(kinds)));
  RecordBatch again = make(50, 150, 2);
  auto parquet = dir_.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, {make(0, 100, 1), again}));
  std::vector<AggregateCall> calls = {
      {.kind = AggregateKind::kCountStar},
      {.kind = AggregateKind::kSum, .argument = 1},
      {.kind = AggregateKind::kMax, .argument = 1},
      {.kind = AggregateKind::kCount, .argument = 1, .distinct = true}};
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto output,
      RunCollect({all, dropped, again}, {.mode = stream::RuntimeMode::kStreaming},
                 [&](const stream::DataStream& s) { return Aggregate(s, {0}, calls); }));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto expected,
      DuckRows(
          parquet,
          "SELECT k AS c0, COUNT(*) AS c1, SUM(v) AS c2, MAX(v) AS c3, COUNT(DISTINCT v) AS c4 "
          "FROM t GROUP BY k",
          "vvvvv"));
  EXPECT_EQ(ApplyChangelog(output), expected);
  EXPECT_EQ(expected.size(), 150u);
}

TEST(AggregateErrorsTest, TypesAndOverflow) {
  EXPECT_EQ(AggregateResultType(AggregateKind::kSum, DataType::String()).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(AggregateResultType(AggregateKind::kAvg, DataType::Bool()).error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(**AggregateResultType(AggregateKind::kSum, DataType::Int8()), *DataType::Int8());
  EXPECT_EQ(**AggregateResultType(AggregateKind::kSum, DataType::Decimal128(10, 2)),
            *DataType::Decimal128(38, 2));
  EXPECT_EQ(**AggregateResultType(AggregateKind::kAvg, DataType::Decimal128(10, 2)),
            *DataType::Decimal128(38, 6));
  EXPECT_EQ(**AggregateResultType(AggregateKind::kAvg, DataType::Decimal128(20, 9)),
            *DataType::Decimal128(38, 9));
  EXPECT_EQ(**AggregateResultType(AggregateKind::kAvg, DataType::Int32()), *DataType::Int32());

  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{{"x", DataType::Int64()}});
  std::vector<Value> values = {Value(INT64_MAX), Value(int64_t{1})};
  RecordBatch batch = *RecordBatch::Make(schema, {*MakeArray(DataType::Int64(), values)});
  auto result =
      RunCollect({batch}, {.mode = stream::RuntimeMode::kBatch}, [](const stream::DataStream& s) {
        return Aggregate(s, {}, {{.kind = AggregateKind::kSum, .argument = 0}});
      });
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().ToString().find("overflowed BIGINT"), std::string::npos)
      << result.error().ToString();
  stream::StreamEnvironment env;
  auto source = env.FromSource(
      std::make_shared<stream::CollectionSource>(schema, std::vector<RecordBatch>{batch}), "s");
  EXPECT_EQ(Aggregate(source, {5}, {}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(Aggregate(source, {}, {{.kind = AggregateKind::kAvg, .argument = 3}}).error().kind(),
            ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::sql::exec
