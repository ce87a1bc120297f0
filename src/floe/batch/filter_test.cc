#include "floe/batch/filter.h"

#include <gtest/gtest.h>

#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

// Filtering keeps the selected rows of every layout: fixed width with nulls, strings, bools,
// lists (offsets rebased, child rows kept) and structs (sliced parents included).
TEST(Filter, KeepsSelectedRowsOfEveryLayout) {
  auto list_type = DataType::List(DataType::Int32());
  auto struct_type =
      DataType::Struct({Field{"a", DataType::Int64()}, Field{"b", DataType::String()}});
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"i", DataType::Int64()}, Field{"s", DataType::String()}, Field{"b", DataType::Bool()},
      Field{"l", list_type}, Field{"st", struct_type}});
  std::vector<std::vector<Value>> columns = {
      {int64_t{1}, Value(), int64_t{3}, int64_t{4}},
      {"one", "", Value(), "four"},
      {true, false, Value(), true},
      {ListValue{{1, 2}}, Value(), ListValue{{}}, ListValue{{7}}},
      {StructValue{{{"a", int64_t{1}}, {"b", "x"}}}, Value(),
       StructValue{{{"a", Value()}, {"b", "z"}}}, StructValue{{{"a", int64_t{4}}, {"b", ""}}}}};
  std::vector<Array> arrays;
  for (int c = 0; c < schema->num_fields(); ++c) {
    FLOE_ASSERT_OK_AND_ASSIGN(Array array, MakeArray(schema->field(c).type, columns[c]));
    arrays.push_back(array);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, arrays));
  const std::vector<uint8_t> keep{1, 1, 0, 1};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch filtered, FilterBatch(batch, keep));
  ASSERT_EQ(filtered.num_rows(), 3);
  EXPECT_EQ(RowView(filtered, 0).ToJson(), RowView(batch, 0).ToJson());
  EXPECT_EQ(RowView(filtered, 1).ToJson(), RowView(batch, 1).ToJson());
  EXPECT_EQ(RowView(filtered, 2).ToJson(), RowView(batch, 3).ToJson());
  for (const Array& column : filtered.columns()) FLOE_EXPECT_OK(column.Validate());

  // A slice of the batch filters relative to the slice.
  RecordBatch tail = batch.Slice(1, 3);
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch filtered_tail,
                            FilterBatch(tail, std::vector<uint8_t>{0, 1, 1}));
  ASSERT_EQ(filtered_tail.num_rows(), 2);
  EXPECT_EQ(RowView(filtered_tail, 0).ToJson(), RowView(batch, 2).ToJson());
  EXPECT_EQ(RowView(filtered_tail, 1).ToJson(), RowView(batch, 3).ToJson());

  EXPECT_FALSE(FilterBatch(batch, std::vector<uint8_t>{1}));
}

}  // namespace
}  // namespace floe
