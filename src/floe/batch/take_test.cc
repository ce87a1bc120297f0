#include "floe/batch/take.h"

#include <gtest/gtest.h>

#include "floe/batch/make_batch.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

BatchSchemaPtr EveryKindSchema() {
  auto list = DataType::List(DataType::Int32());
  auto st = DataType::Struct(
      {Field{"x", DataType::Float64(), true}, Field{"s", DataType::String(), true}});
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"i", DataType::Int64(), true},
                         {"s", DataType::String(), true},
                         {"b", DataType::Bool(), true},
                         {"f", DataType::FixedSizeBinary(2), true},
                         {"l", list, true},
                         {"st", st, true},
                         {"d", DataType::Decimal128(10, 2), true}});
  return schema;
}

// Three rows of every kind, with nulls, and row kinds +I, -D, +U.
Result<RecordBatch> EveryKindBatch(const BatchSchemaPtr& schema) {
  std::vector<std::vector<Value>> columns = {
      {Value(int64_t{1}), Value(), Value(int64_t{3})},
      {Value("a"), Value("bb"), Value()},
      {Value(true), Value(false), Value()},
      {Value(BinaryValue{"xy"}), Value(), Value(BinaryValue{"zw"})},
      {Value(ListValue{{Value(1), Value(2)}}), Value(), Value(ListValue{{Value(3)}})},
      {Value(StructValue{{{"x", Value(0.5)}, {"s", Value("p")}}}), Value(),
       Value(StructValue{{{"x", Value()}, {"s", Value("q")}}})},
      {Value(DecimalValue{123, 10, 2}), Value(DecimalValue{-5, 10, 2}), Value()}};
  uint8_t kinds[] = {0, 3, 2};
  return MakeBatch(schema, columns, Buffer::CopyOf(kinds, 3));
}

// Two rows of every kind, without nulls or row kinds.
Result<RecordBatch> PlainBatch(const BatchSchemaPtr& schema) {
  return MakeBatch(schema,
                   {{Value(int64_t{7}), Value(int64_t{8})},
                    {Value("cc"), Value("")},
                    {Value(true), Value(true)},
                    {Value(BinaryValue{"ab"}), Value(BinaryValue{"cd"})},
                    {Value(ListValue{}), Value(ListValue{{Value(4), Value(5), Value(6)}})},
                    {Value(StructValue{{{"x", Value(1.5)}, {"s", Value("r")}}}),
                     Value(StructValue{{{"x", Value(2.5)}, {"s", Value("t")}}})},
                    {Value(DecimalValue{1, 10, 2}), Value(DecimalValue{2, 10, 2})}},
                   std::nullopt);
}

TEST(Take, GathersEveryKindInOrderWithRepeats) {
  const BatchSchemaPtr schema = EveryKindSchema();
  auto batch = EveryKindBatch(schema);
  ASSERT_TRUE(batch.has_value()) << batch.error().ToString();
  const RecordBatch sliced = batch->Slice(1, 2);  // offsets must be honoured
  std::vector<int64_t> indices{1, 0, 1};
  auto taken = TakeBatch(sliced, indices);
  ASSERT_TRUE(taken.has_value()) << taken.error().ToString();
  ASSERT_EQ(taken->num_rows(), 3);
  for (int64_t row = 0; row < 3; ++row) {
    EXPECT_EQ(RowView(*taken, row).ToJson(), RowView(sliced, indices[row]).ToJson());
    EXPECT_EQ(taken->row_kind(row), sliced.row_kind(indices[row]));
  }
  for (const Array& column : taken->columns()) EXPECT_TRUE(column.Validate().has_value());
  EXPECT_FALSE(TakeBatch(sliced, std::vector<int64_t>{2}).has_value());
  auto empty = TakeBatch(*batch, {});
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->num_rows(), 0);
}

// A batch of every kind with nulls and row kinds, a slice of it, and one without either.
class SeveralBatches : public ::testing::Test {
 protected:
  void SetUp() override {
    FLOE_ASSERT_OK_AND_ASSIGN(batch, EveryKindBatch(schema));
    FLOE_ASSERT_OK_AND_ASSIGN(plain, PlainBatch(schema));
    sliced = batch.Slice(1, 2);
  }
  const BatchSchemaPtr schema = EveryKindSchema();
  RecordBatch batch, plain, sliced;
};

// Rows of several batches (one sliced, one without nulls or row kinds) come out source after
// source, each equal to the row it was taken from, kinds kept; an empty source adds nothing.
TEST_F(SeveralBatches, TakeGathersTheirRowsInOneBatch) {
  const std::vector<int64_t> from_sliced{1, 0}, from_plain{1, 1, 0}, from_batch{2};
  const std::vector<TakeSource> sources = {
      {&sliced, from_sliced}, {&plain, from_plain}, {&batch, {}}, {&batch, from_batch}};
  auto taken = TakeBatches(sources);
  ASSERT_TRUE(taken.has_value()) << taken.error().ToString();
  ASSERT_EQ(taken->num_rows(), 6);
  int64_t row = 0;
  for (const TakeSource& source : sources) {
    for (int64_t i : source.indices) {
      EXPECT_EQ(RowView(*taken, row).ToJson(), RowView(*source.batch, i).ToJson()) << row;
      EXPECT_EQ(taken->row_kind(row), source.batch->row_kind(i)) << row;
      ++row;
    }
  }
  for (const Array& column : taken->columns()) EXPECT_TRUE(column.Validate().has_value());

  auto other_schema =
      std::make_shared<const BatchSchema>(std::vector<Field>{{"i", DataType::Int64(), true}});
  auto other = MakeBatch(other_schema, {{Value(int64_t{1})}}, std::nullopt);
  ASSERT_TRUE(other.has_value());
  const std::vector<int64_t> first{0};
  auto mixed = TakeBatches(std::vector<TakeSource>{{&batch, first}, {&*other, first}});
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().kind(), ErrorKind::kInvalidArgument);
  const std::vector<int64_t> outside{3};
  EXPECT_FALSE(
      TakeBatches(std::vector<TakeSource>{{&sliced, first}, {&plain, outside}}).has_value());
  EXPECT_FALSE(TakeBatches({}).has_value());
}

// Rows of three batches (one sliced, one without nulls or row kinds) dealt out to three groups, one
// of which gets none, with some rows going nowhere: each group has its rows in order, equal to the
// rows they came from, and no validity bitmap unless one of its rows is null.
TEST_F(SeveralBatches, PartitionDealsTheirRowsOutToGroupsInOrder) {
  const std::vector<uint32_t> of_batch{2, kNoGroup, 0}, of_sliced{0, 2}, of_plain{2, 2};
  const std::vector<PartitionSource> sources = {
      {&batch, of_batch}, {&sliced, of_sliced}, {&plain, of_plain}};
  auto parts = PartitionBatches(sources, 3);
  ASSERT_TRUE(parts.has_value()) << parts.error().ToString();
  ASSERT_EQ(parts->size(), 3u);
  // (source, row) of each group's rows, in order.
  const std::vector<std::vector<std::pair<size_t, int64_t>>> expected = {
      {{0, 2}, {1, 0}}, {}, {{0, 0}, {1, 1}, {2, 0}, {2, 1}}};
  for (size_t g = 0; g < 3; ++g) {
    const RecordBatch& part = (*parts)[g];
    ASSERT_EQ(part.num_rows(), static_cast<int64_t>(expected[g].size())) << g;
    for (size_t k = 0; k < expected[g].size(); ++k) {
      const auto [s, row] = expected[g][k];
      EXPECT_EQ(RowView(part, static_cast<int64_t>(k)).ToJson(),
                RowView(*sources[s].batch, row).ToJson())
          << g << " " << k;
      EXPECT_EQ(part.row_kind(static_cast<int64_t>(k)), sources[s].batch->row_kind(row));
    }
    for (const Array& column : part.columns()) EXPECT_TRUE(column.Validate().has_value());
  }
  // Group 0 holds batch's third row, whose id is set, and sliced's first (batch's second), whose
  // id is null; group 2's ids are all set.
  EXPECT_EQ((*parts)[0].column(0).null_count(), 1);
  EXPECT_EQ((*parts)[2].column(0).validity().size(), 0);

  const std::vector<uint32_t> too_high{3, 0, 0}, too_few{0, 0};
  EXPECT_FALSE(PartitionBatches(std::vector<PartitionSource>{{&batch, too_high}}, 3).has_value());
  EXPECT_FALSE(PartitionBatches(std::vector<PartitionSource>{{&batch, too_few}}, 3).has_value());
  auto other_schema =
      std::make_shared<const BatchSchema>(std::vector<Field>{{"i", DataType::Int64(), true}});
  auto other = MakeBatch(other_schema, {{Value(int64_t{1})}}, std::nullopt);
  ASSERT_TRUE(other.has_value());
  const std::vector<uint32_t> one{0};
  auto mixed =
      PartitionBatches(std::vector<PartitionSource>{{&batch, of_batch}, {&*other, one}}, 3);
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_FALSE(PartitionBatches({}, 3).has_value());
}

// Groups in id order, each group's rows in row order; an empty group starts where the next does.
TEST(GroupRows, CountingSortKeepsRowOrderWithinEachGroup) {
  const std::vector<uint32_t> group_of_row = {2, 0, 2, 3, 0, 2};
  std::vector<int64_t> starts, order;
  GroupRows(group_of_row, 4, starts, order);
  EXPECT_EQ(order, (std::vector<int64_t>{1, 4, 0, 2, 5, 3}));
  EXPECT_EQ(starts, (std::vector<int64_t>{0, 2, 2, 5, 6}));
  GroupRows({}, 0, starts, order);
  EXPECT_TRUE(order.empty());
  EXPECT_EQ(starts, (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace floe
