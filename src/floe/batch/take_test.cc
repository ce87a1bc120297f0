#include "floe/batch/take.h"

#include <gtest/gtest.h>

#include "floe/batch/value.h"

namespace floe {
namespace {

TEST(Take, GathersEveryKindInOrderWithRepeats) {
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
  std::vector<std::vector<Value>> columns = {
      {Value(int64_t{1}), Value(), Value(int64_t{3})},
      {Value("a"), Value("bb"), Value()},
      {Value(true), Value(false), Value()},
      {Value(BinaryValue{"xy"}), Value(), Value(BinaryValue{"zw"})},
      {Value(ListValue{{Value(1), Value(2)}}), Value(), Value(ListValue{{Value(3)}})},
      {Value(StructValue{{{"x", Value(0.5)}, {"s", Value("p")}}}), Value(),
       Value(StructValue{{{"x", Value()}, {"s", Value("q")}}})},
      {Value(DecimalValue{123, 10, 2}), Value(DecimalValue{-5, 10, 2}), Value()}};
  std::vector<Array> arrays;
  for (int c = 0; c < schema->num_fields(); ++c) {
    auto array = MakeArray(schema->field(c).type, columns[c]);
    ASSERT_TRUE(array.has_value()) << array.error().ToString();
    arrays.push_back(*array);
  }
  uint8_t kinds[] = {0, 3, 2};
  auto batch = RecordBatch::Make(schema, arrays, 3, Buffer::CopyOf(kinds, 3));
  ASSERT_TRUE(batch.has_value());
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

}  // namespace
}  // namespace floe
