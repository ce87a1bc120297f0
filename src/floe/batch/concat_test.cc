#include "floe/batch/concat.h"

#include <gtest/gtest.h>
#include <fmt/format.h>

#include "floe/batch/value.h"

namespace floe {
namespace {

BatchSchemaPtr EveryKindSchema() {
  auto st = DataType::Struct(
      {Field{"x", DataType::Float64(), true}, Field{"s", DataType::String(), true}});
  return std::make_shared<const BatchSchema>(
      std::vector<Field>{{"i", DataType::Int64(), true},
                         {"s", DataType::String(), true},
                         {"b", DataType::Bool(), true},
                         {"f", DataType::FixedSizeBinary(2), true},
                         {"l", DataType::List(DataType::Int32()), true},
                         {"st", st, true},
                         {"d", DataType::Decimal128(10, 2), true},
                         {"n", DataType::Int32(), false}});
}

// Three rows of every kind; nulls in all nullable columns but the last.
RecordBatch EveryKindBatch(int base, std::optional<Buffer> kinds) {
  BatchSchemaPtr schema = EveryKindSchema();
  std::vector<std::vector<Value>> columns = {
      {Value(int64_t{base}), Value(), Value(int64_t{base + 2})},
      {Value(fmt::format("a{}", base)), Value("bb"), Value()},
      {Value(true), Value(false), Value()},
      {Value(BinaryValue{"xy"}), Value(), Value(BinaryValue{"zw"})},
      {Value(ListValue{{Value(base), Value(2)}}), Value(), Value(ListValue{{Value(3)}})},
      {Value(StructValue{{{"x", Value(0.5)}, {"s", Value("p")}}}), Value(),
       Value(StructValue{{{"x", Value()}, {"s", Value("q")}}})},
      {Value(DecimalValue{123, 10, 2}), Value(DecimalValue{-5, 10, 2}), Value()},
      {Value(base), Value(base + 1), Value(base + 2)}};
  std::vector<Array> arrays;
  for (int c = 0; c < schema->num_fields(); ++c) {
    auto array = MakeArray(schema->field(c).type, columns[c]);
    EXPECT_TRUE(array.has_value()) << array.error().ToString();
    arrays.push_back(*array);
  }
  auto batch = RecordBatch::Make(schema, arrays, 3, std::move(kinds));
  EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
  return *batch;
}

TEST(Concat, JoinsSlicedBatchesOfEveryKindInOrder) {
  uint8_t kinds[] = {0, 3, 2};
  // Slices with offsets, a batch without row kinds between ones with, and an empty slice.
  std::vector<RecordBatch> parts = {EveryKindBatch(10, Buffer::CopyOf(kinds, 3)).Slice(1, 2),
                                    EveryKindBatch(20, std::nullopt),
                                    EveryKindBatch(30, Buffer::CopyOf(kinds, 3)).Slice(2, 0),
                                    EveryKindBatch(40, Buffer::CopyOf(kinds, 3)).Slice(0, 2)};
  auto joined = ConcatBatches(parts);
  ASSERT_TRUE(joined.has_value()) << joined.error().ToString();
  ASSERT_EQ(joined->num_rows(), 7);
  ASSERT_TRUE(joined->has_row_kinds());
  int64_t row = 0;
  for (const RecordBatch& part : parts) {
    for (int64_t i = 0; i < part.num_rows(); ++i, ++row) {
      EXPECT_EQ(RowView(*joined, row).ToJson(), RowView(part, i).ToJson()) << "row " << row;
      EXPECT_EQ(joined->row_kind(row), part.row_kind(i)) << "row " << row;
    }
  }
  for (const Array& column : joined->columns()) EXPECT_TRUE(column.Validate().has_value());
  // The non-nullable column has no nulls, so it gets no validity bitmap.
  EXPECT_FALSE(joined->column(7).validity());
  EXPECT_EQ(joined->column(1).null_count(), 2);  // one in each of the first two parts
}

TEST(Concat, WithoutRowKindsGivesNone) {
  std::vector<RecordBatch> parts = {EveryKindBatch(1, std::nullopt),
                                    EveryKindBatch(2, std::nullopt).Slice(1, 1)};
  auto joined = ConcatBatches(parts);
  ASSERT_TRUE(joined.has_value()) << joined.error().ToString();
  EXPECT_EQ(joined->num_rows(), 4);
  EXPECT_FALSE(joined->has_row_kinds());
}

TEST(Concat, RefusesMismatchedTypesAndNothing) {
  const std::vector<Value> int_values = {Value(1)};
  const std::vector<Value> long_values = {Value(int64_t{1})};
  auto ints = MakeArray(DataType::Int32(), int_values);
  auto longs = MakeArray(DataType::Int64(), long_values);
  ASSERT_TRUE(ints.has_value() && longs.has_value());
  std::vector<Array> mixed = {*ints, *longs};
  EXPECT_EQ(ConcatArrays(mixed).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_FALSE(ConcatArrays(std::span<const Array>()).has_value());
  EXPECT_FALSE(ConcatBatches(std::span<const RecordBatch>()).has_value());
  auto other = RecordBatch::Make(
      std::make_shared<const BatchSchema>(std::vector<Field>{{"i", DataType::Int32(), true}}),
      std::vector<Array>{*ints});
  ASSERT_TRUE(other.has_value());
  std::vector<RecordBatch> batches = {EveryKindBatch(1, std::nullopt), *other};
  EXPECT_EQ(ConcatBatches(batches).error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe
