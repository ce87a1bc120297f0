#include "floe/table/write/partitioner.h"

#include <gtest/gtest.h>

#include <random>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/table/write/write_test_support.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

RecordBatch OneColumn(Field field, const std::vector<Value>& values) {
  auto schema = std::make_shared<const BatchSchema>(std::vector<Field>{field});
  auto array = MakeArray(field.type, values);
  EXPECT_TRUE(array.has_value()) << array.error().ToString();
  auto batch = RecordBatch::Make(schema, {*array});
  EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
  return *batch;
}

// The partition values of every row, as the partitioner computes them.
std::vector<std::vector<Literal>> Partition(const PartitionSpecPtr& spec, const Schema& schema,
                                            const RecordBatch& batch) {
  auto partitioner = Partitioner::Make(spec, schema, *batch.schema());
  EXPECT_TRUE(partitioner.has_value()) << partitioner.error().ToString();
  std::vector<uint32_t> ids;
  EXPECT_TRUE((*partitioner)->Assign(batch, ids).has_value());
  std::vector<std::vector<Literal>> out;
  for (uint32_t id : ids) out.push_back((*partitioner)->Values(id));
  return out;
}

// Time transforms against DuckDB's calendar functions, on instants on both sides of the epoch.
TEST(Partitioner, TimeTransformsMatchDuckDb) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> micros(-6'000'000'000'000'000LL, 6'000'000'000'000'000LL);
  std::vector<int64_t> values{-1, 0, 1, -86'400'000'000LL - 1, -3'600'000'000LL};
  for (int i = 0; i < 60; ++i) values.push_back(micros(rng));
  std::vector<Value> cells;
  std::string rows;
  for (int64_t v : values) {
    cells.emplace_back(TimestampValue{v, TimeUnit::kMicro, true});
    rows += (rows.empty() ? "(" : ",(") + std::to_string(v) + "::BIGINT)";
  }
  auto duck = test::Duck(
      "SELECT year(make_timestamp(t)) - 1970 AS y, (year(make_timestamp(t)) - 1970) * 12 + "
      "month(make_timestamp(t)) - 1 AS m, date_diff('day', DATE '1970-01-01', "
      "CAST(make_timestamp(t) AS DATE)) AS d, date_diff('hour', TIMESTAMP '1970-01-01', "
      "date_trunc('hour', make_timestamp(t))) AS h FROM (VALUES " +
      rows + ") v(t)");
  if (!duck) GTEST_SKIP() << "peers not installed: " << duck.error().ToString();

  Schema schema({types::Optional(2, "ts", types::TimestampTz())});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{2}, 1000, "y", Transform::Year()},
                                     {{2}, 1001, "m", Transform::Month()},
                                     {{2}, 1002, "d", Transform::Day()},
                                     {{2}, 1003, "h", Transform::Hour()}});
  RecordBatch batch =
      OneColumn(Field{"ts", DataType::Timestamp(TimeUnit::kMicro, true), true, 2}, cells);
  auto tuples = Partition(spec, schema, batch);
  ASSERT_EQ(duck->size(), tuples.size());
  for (size_t row = 0; row < tuples.size(); ++row) {
    const char* names[] = {"y", "m", "d", "h"};
    for (int f = 0; f < 4; ++f) {
      EXPECT_EQ(tuples[row][f].int_value(), test::Int((*duck)[row], names[f]))
          << names[f] << " of " << values[row];
    }
  }
}

// Bucket values from the spec's Appendix B hashes: bucket[N] = (hash & INT_MAX) % N.
TEST(Partitioner, BucketsFollowAppendixB) {
  auto bucket = [](int32_t hash, int32_t n) { return (hash & 0x7FFFFFFF) % n; };
  struct Case {
    NestedField field;
    Field batch_field;
    Value value;
    int32_t hash;
  };
  const std::vector<Case> cases = {
      {types::Optional(1, "c", types::Int()),
       {"c", DataType::Int32(), true, 1},
       Value(34),
       2017239379},
      {types::Optional(1, "c", types::Long()),
       {"c", DataType::Int64(), true, 1},
       Value(int64_t{34}),
       2017239379},
      {types::Optional(1, "c", types::Decimal(4, 2)),
       {"c", DataType::Decimal128(4, 2), true, 1},
       Value(DecimalValue{1420, 4, 2}),
       -500754589},
      {types::Optional(1, "c", types::Date()),
       {"c", DataType::Date32(), true, 1},
       Value(DateValue{17486}),
       -653330422},
      {types::Optional(1, "c", types::Time()),
       {"c", DataType::Time64(TimeUnit::kMicro), true, 1},
       Value(TimeValue{81068000000, TimeUnit::kMicro}),
       -662762989},
      {types::Optional(1, "c", types::Timestamp()),
       {"c", DataType::Timestamp(TimeUnit::kMicro, false), true, 1},
       Value(TimestampValue{1510871468000001, TimeUnit::kMicro, false}),
       -1207196810},
      {types::Optional(1, "c", types::TimestampNs()),
       {"c", DataType::Timestamp(TimeUnit::kNano, false), true, 1},
       Value(TimestampValue{1510871468000001001, TimeUnit::kNano, false}),
       -1207196810},
      {types::Optional(1, "c", types::String()),
       {"c", DataType::String(), true, 1},
       Value("iceberg"),
       1210000089},
      {types::Optional(1, "c", types::Binary()),
       {"c", DataType::Binary(), true, 1},
       Value(BinaryValue{std::string("\0\1\2\3", 4)}),
       -188683207},
      {types::Optional(1, "c", types::Fixed(4)),
       {"c", DataType::FixedSizeBinary(4), true, 1},
       Value(BinaryValue{std::string("\0\1\2\3", 4)}),
       -188683207},
  };
  for (const Case& c : cases) {
    Schema schema({c.field});
    for (int32_t n : {1, 7, 16, 1000}) {
      auto spec = std::make_shared<const PartitionSpec>(
          0, std::vector<PartitionField>{{{1}, 1000, "b", Transform::Bucket(n)}});
      auto tuples = Partition(spec, schema, OneColumn(c.batch_field, {c.value, Value()}));
      ASSERT_EQ(tuples.size(), 2U);
      EXPECT_EQ(tuples[0][0].int_value(), bucket(c.hash, n)) << c.field.ToString() << " n=" << n;
      EXPECT_TRUE(tuples[1][0].is_null());
    }
  }
}

// Column-at-a-time results equal Transform::Apply on each value (nulls included).
TEST(Partitioner, AgreesWithTransformApply) {
  Schema schema({types::Optional(1, "s", types::String()), types::Optional(2, "l", types::Long()),
                 types::Optional(3, "d", types::Date())});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{1}, 1000, "s_trunc", Transform::Truncate(2)},
                                     {{2}, 1001, "l_trunc", Transform::Truncate(10)},
                                     {{3}, 1002, "d_month", Transform::Month()},
                                     {{1}, 1003, "s_void", Transform::Void()},
                                     {{2}, 1004, "l", Transform::Identity()}});
  auto batch_schema =
      std::make_shared<const BatchSchema>(std::vector<Field>{{"s", DataType::String(), true, 1},
                                                             {"l", DataType::Int64(), true, 2},
                                                             {"d", DataType::Date32(), true, 3}});
  std::vector<Value> s{Value("äöü"), Value(), Value("x"), Value("日本語")};
  std::vector<Value> l{Value(int64_t{-1}), Value(int64_t{15}), Value(), Value(int64_t{-10})};
  std::vector<Value> d{Value(DateValue{-1}), Value(DateValue{0}), Value(DateValue{18000}), Value()};
  auto batch = RecordBatch::Make(
      batch_schema, {*MakeArray(DataType::String(), s), *MakeArray(DataType::Int64(), l),
                     *MakeArray(DataType::Date32(), d)});
  ASSERT_TRUE(batch.has_value());
  auto tuples = Partition(spec, schema, *batch);
  auto literal = [](const Value& v, int column) -> Literal {
    if (v.is_null()) {
      return Literal::Null(column == 0   ? types::String()
                           : column == 1 ? types::Long()
                                         : types::Date());
    }
    if (column == 0) return Literal::String(v.get<std::string>());
    if (column == 1) return Literal::Long(v.get<int64_t>());
    return Literal::Date(v.get<DateValue>().days);
  };
  for (size_t row = 0; row < 4; ++row) {
    const Literal inputs[] = {literal(s[row], 0), literal(l[row], 1), literal(d[row], 2),
                              literal(s[row], 0), literal(l[row], 1)};
    for (size_t f = 0; f < 5; ++f) {
      auto expected = spec->fields()[f].transform.Apply(inputs[f]);
      ASSERT_TRUE(expected.has_value());
      EXPECT_EQ(tuples[row][f].is_null(), expected->is_null()) << row << "/" << f;
      if (!expected->is_null()) {
        EXPECT_EQ(tuples[row][f], *expected) << row << "/" << f;
      }
    }
  }
}

TEST(Partitioner, NestedSourceUnderNullStructIsNull) {
  auto inner = DataType::Struct({Field{"day", DataType::Date32(), true, 3}});
  Schema schema(
      {types::Optional(2, "st", StructType::Make({types::Optional(3, "day", types::Date())}))});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{3}, 1000, "day", Transform::Identity()}});
  RecordBatch batch = OneColumn(Field{"st", inner, true, 2},
                                {Value(StructValue{{{"day", Value(DateValue{5})}}}), Value()});
  auto tuples = Partition(spec, schema, batch);
  ASSERT_EQ(tuples.size(), 2U);
  EXPECT_EQ(tuples[0][0], Literal::Date(5));
  EXPECT_TRUE(tuples[1][0].is_null());
}

TEST(Partitioner, MissingSourceColumnFails) {
  Schema schema({types::Optional(1, "a", types::Int())});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{1}, 1000, "a", Transform::Identity()}});
  BatchSchema other({Field{"b", DataType::Int32(), true, 9}});
  auto partitioner = Partitioner::Make(spec, schema, other);
  ASSERT_FALSE(partitioner.has_value());
  EXPECT_NE(partitioner.error().message().find("not in the batch"), std::string::npos);
}

}  // namespace
}  // namespace floe::table
