#include "floe/batch/builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

// Rows with a null exactly at the bitmap's byte and word edges.
bool NullAtEdge(int64_t i) { return i == 7 || i == 8 || i == 63 || i == 64; }

TEST(NumericBuilderTest, NullsAtByteAndWordEdges) {
  Int64Builder builder;
  for (int64_t i = 0; i < 70; ++i) {
    if (NullAtEdge(i)) {
      builder.AppendNull();
    } else {
      builder.Append(i * 1000000007LL);
    }
  }
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 70);
  EXPECT_EQ(array.null_count(), 4);
  EXPECT_EQ(array.validity().size(), 9);
  for (int64_t i = 0; i < 70; ++i) {
    EXPECT_EQ(array.IsNull(i), NullAtEdge(i)) << i;
    if (!NullAtEdge(i)) {
      EXPECT_EQ(array.Values<int64_t>()[i], i * 1000000007LL);
    }
  }
  // The null slots hold zeros, so the values buffer is deterministic.
  EXPECT_EQ(array.Value<int64_t>(63), 0);
  FLOE_EXPECT_OK(array.Validate());
}

TEST(NumericBuilderTest, NoBitmapWithoutNulls) {
  Float64Builder builder;
  builder.Reserve(3);
  builder.UnsafeAppend(1.5);
  builder.UnsafeAppend(-2.25);
  builder.UnsafeAppend(1e300);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_FALSE(array.validity());
  EXPECT_EQ(array.null_count(), 0);
  EXPECT_FALSE(array.IsNull(2));
  EXPECT_EQ(array.Values<double>()[1], -2.25);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.values().data()) % 64, 0u);
}

TEST(NumericBuilderTest, FirstNullLateBackfillsValidBits) {
  Int32Builder builder;
  std::vector<int32_t> values(100);
  for (int i = 0; i < 100; ++i) values[i] = i;
  builder.AppendValues(values);
  builder.AppendNull();
  builder.Append(7);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_EQ(array.length(), 102);
  EXPECT_EQ(array.null_count(), 1);
  for (int i = 0; i < 100; ++i) ASSERT_FALSE(array.IsNull(i)) << i;
  EXPECT_TRUE(array.IsNull(100));
  EXPECT_EQ(array.Value<int32_t>(101), 7);
}

TEST(NumericBuilderTest, AppendValuesWithBitmapAndUninitialized) {
  Int16Builder builder;
  std::vector<int16_t> values = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  uint8_t valid[2] = {0b11110101, 0b00000010};  // rows 1, 3, 8 null
  builder.AppendValues(values, valid);
  std::span<int16_t> out = builder.AppendUninitialized(3);
  out[0] = -1;
  out[1] = -2;
  out[2] = -3;
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 13);
  EXPECT_EQ(array.null_count(), 3);
  std::vector<bool> nulls;
  for (int i = 0; i < 13; ++i) nulls.push_back(array.IsNull(i));
  EXPECT_EQ(nulls, (std::vector<bool>{false, true, false, true, false, false, false, false, true,
                                      false, false, false, false}));
  EXPECT_EQ(array.Value<int16_t>(9), 19);
  EXPECT_EQ(array.Value<int16_t>(12), -3);
}

TEST(NumericBuilderTest, AppendValuesSpacedScattersDenseValues) {
  Float64Builder builder;
  builder.Append(-1.0);
  std::vector<double> dense = {1.5, 2.5, 3.5};
  uint8_t valid[2] = {0b00000000, 0b10000101};  // rows 8, 10 and 15 of the bitmap present
  builder.AppendValuesSpaced(dense, valid, 8, 8);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 9);
  EXPECT_EQ(array.null_count(), 5);
  EXPECT_EQ(array.Value<double>(0), -1.0);
  EXPECT_EQ(array.Value<double>(1), 1.5);
  EXPECT_TRUE(array.IsNull(2));
  EXPECT_EQ(array.Value<double>(2), 0.0);
  EXPECT_EQ(array.Value<double>(3), 2.5);
  EXPECT_TRUE(array.IsNull(7));
  EXPECT_EQ(array.Value<double>(8), 3.5);

  builder.AppendValuesSpaced(std::span<const double>(dense).first(2), valid, 8, 8);
  EXPECT_FALSE(builder.Finish().has_value());  // three present rows, two values
}

TEST(NumericBuilderTest, WrongWidthForTypeFailsAtFinish) {
  Int32Builder builder(DataType::Int64());
  builder.Append(1);
  auto result = builder.Finish();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_FALSE(builder.Finish().has_value());  // not only the first time
}

TEST(NumericBuilderTest, ReusableAfterFinish) {
  Int64Builder builder;
  builder.AppendNull();
  FLOE_ASSERT_OK_AND_ASSIGN(Array first, builder.Finish());
  builder.Append(5);
  FLOE_ASSERT_OK_AND_ASSIGN(Array second, builder.Finish());
  EXPECT_EQ(first.null_count(), 1);
  EXPECT_EQ(second.length(), 1);
  EXPECT_EQ(second.null_count(), 0);
  EXPECT_EQ(second.Value<int64_t>(0), 5);
}

TEST(SliceTest, OffsetsAndNullCountsFollowTheSlice) {
  Int64Builder builder;
  for (int64_t i = 0; i < 130; ++i) {
    if (NullAtEdge(i) || i == 127 || i == 128) {
      builder.AppendNull();
    } else {
      builder.Append(i);
    }
  }
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  Array slice = array.Slice(8, 57);  // rows 8..64
  EXPECT_EQ(slice.offset(), 8);
  EXPECT_EQ(slice.length(), 57);
  EXPECT_EQ(slice.null_count(), 3);  // 8, 63, 64
  EXPECT_TRUE(slice.IsNull(0));
  EXPECT_FALSE(slice.IsNull(1));
  EXPECT_EQ(slice.Values<int64_t>()[1], 9);
  EXPECT_TRUE(slice.IsNull(56));
  Array nested = slice.Slice(1, 10);
  EXPECT_EQ(nested.offset(), 9);
  EXPECT_EQ(nested.null_count(), 0);
  EXPECT_EQ(nested.Value<int64_t>(0), 9);
  EXPECT_EQ(array.Slice(120, 1000).length(), 10);
  EXPECT_EQ(array.Slice(120, 1000).null_count(), 2);
  EXPECT_EQ(array.Slice(500, 3).length(), 0);
  EXPECT_EQ(slice.values().data(), array.values().data());  // zero-copy
}

TEST(BooleanBuilderTest, ValuesAndNullsAsBitmaps) {
  BooleanBuilder builder;
  for (int i = 0; i < 66; ++i) {
    if (NullAtEdge(i)) {
      builder.AppendNull();
    } else {
      builder.Append(i % 3 == 0);
    }
  }
  uint8_t bits = 0b00000101;
  builder.AppendBits(&bits, 0, 3);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 69);
  EXPECT_EQ(array.null_count(), 4);
  for (int i = 0; i < 66; ++i) {
    EXPECT_EQ(array.IsNull(i), NullAtEdge(i));
    if (!NullAtEdge(i)) {
      EXPECT_EQ(array.GetBool(i), i % 3 == 0) << i;
    }
  }
  EXPECT_TRUE(array.GetBool(66));
  EXPECT_FALSE(array.GetBool(67));
  EXPECT_TRUE(array.GetBool(68));
  Array slice = array.Slice(60, 9);
  EXPECT_FALSE(slice.GetBool(3));  // row 63 is null: its value bit is zero
  EXPECT_TRUE(slice.IsNull(3));
  EXPECT_TRUE(slice.GetBool(6));  // row 66
}

TEST(StringBuilderTest, OffsetsDataAndSlices) {
  StringBuilder builder(DataType::String());
  builder.Append("héllo");
  builder.AppendNull();
  builder.Append("");
  builder.Append(std::string(1000, 'x'));
  builder.Append("end");
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 5);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_EQ(array.GetString(0), "héllo");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetString(1), "");
  EXPECT_FALSE(array.IsNull(2));
  EXPECT_EQ(array.GetString(2), "");
  EXPECT_EQ(array.GetString(3).size(), 1000u);
  EXPECT_EQ(array.GetString(4), "end");
  std::span<const int32_t> offsets = array.Offsets32();
  EXPECT_EQ(std::vector<int32_t>(offsets.begin(), offsets.end()),
            (std::vector<int32_t>{0, 6, 6, 6, 1006, 1009}));
  Array slice = array.Slice(3, 2);
  EXPECT_EQ(slice.GetString(0).size(), 1000u);
  EXPECT_EQ(slice.GetString(1), "end");
  EXPECT_EQ(slice.Offsets32()[0], 6);
  FLOE_EXPECT_OK(slice.Validate());
}

TEST(StringBuilderTest, LargeOffsetsAndBinary) {
  LargeStringBuilder builder(DataType::LargeBinary());
  builder.ReserveData(6);
  builder.Reserve(2);
  builder.UnsafeAppend(std::string_view("\x00\x01\xff", 3));
  builder.UnsafeAppend("abc");
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_EQ(array.kind(), TypeKind::kLargeBinary);
  EXPECT_EQ(array.GetView(0), std::string_view("\x00\x01\xff", 3));
  EXPECT_EQ(array.Offsets64()[2], 6);
  EXPECT_EQ(array.values().size(), 3 * 8);
}

TEST(StringBuilderTest, OffsetWidthMustMatchType) {
  StringBuilder builder(DataType::LargeString());
  builder.Append("x");
  EXPECT_FALSE(builder.Finish().has_value());
}

TEST(FixedSizeBinaryBuilderTest, ValuesAndWrongWidth) {
  FixedSizeBinaryBuilder builder(DataType::FixedSizeBinary(4));
  builder.Append("abcd");
  builder.AppendNull();
  builder.Append("\x01\x02\x03\x04");
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_EQ(array.GetView(0), "abcd");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.Slice(2, 1).GetView(0), "\x01\x02\x03\x04");

  builder.Append("abc");
  auto result = builder.Finish();
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("row 0: value of 3 bytes, expected 4"), std::string::npos)
      << result.error().message();
}

TEST(Decimal128BuilderTest, SignedUnscaledValues) {
  Decimal128Builder builder(DataType::Decimal128(38, 2));
  __int128 big = static_cast<__int128>(1) << 100;
  builder.Append(-12345);
  builder.Append(big);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_EQ(array.GetDecimal(0), -12345);
  EXPECT_EQ(array.GetDecimal(1), big);
  // Little-endian two's complement, as Arrow stores it.
  EXPECT_EQ(array.values().data()[0], 0xc7);  // -12345 = ...ffffcfc7
  EXPECT_EQ(array.values().data()[15], 0xff);
}

TEST(MakeBuilderTest, TemporalTypesUseIntegerBuilders) {
  auto builder = MakeBuilder(DataType::Timestamp(TimeUnit::kNano, true));
  auto& timestamps = static_cast<TimestampBuilder&>(*builder);
  timestamps.Append(1510871468123456789);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder->Finish());
  EXPECT_EQ(*array.type(), *DataType::Timestamp(TimeUnit::kNano, true));
  EXPECT_EQ(array.Value<int64_t>(0), 1510871468123456789);

  auto dates = MakeBuilder(DataType::Date32());
  static_cast<Date32Builder&>(*dates).Append(17486);
  dates->AppendNulls(2);
  FLOE_ASSERT_OK_AND_ASSIGN(Array date_array, dates->Finish());
  EXPECT_EQ(date_array.length(), 3);
  EXPECT_EQ(date_array.null_count(), 2);
}

TEST(ListBuilderTest, ListsWithNullsAndEmptyLists) {
  auto type = DataType::List(DataType::Int64());
  ListBuilder builder(type);
  auto& values = builder.value_builder<Int64Builder>();
  builder.Append();
  values.Append(1);
  values.Append(2);
  builder.AppendNull();
  builder.Append();
  builder.Append();
  values.AppendNull();
  values.Append(3);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 4);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_EQ(array.list_values().length(), 4);
  EXPECT_EQ(array.ValueOffset(0), 0);
  EXPECT_EQ(array.ValueLength(0), 2);
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.ValueLength(1), 0);
  EXPECT_EQ(array.ValueLength(2), 0);
  EXPECT_EQ(array.ValueOffset(3), 2);
  EXPECT_TRUE(array.list_values().IsNull(2));
  EXPECT_EQ(array.list_values().Value<int64_t>(3), 3);
  FLOE_EXPECT_OK(array.Validate());
  Array tail = array.Slice(3, 1);
  EXPECT_EQ(tail.ValueOffset(0), 2);
  EXPECT_EQ(tail.ValueOffset(1), 4);
  EXPECT_EQ(GetValue(tail, 0).ToJson(), "[null,3]");
}

TEST(ListBuilderTest, ListOfLists) {
  auto type = DataType::List(DataType::List(DataType::String()));
  ListBuilder builder(type);
  auto& inner = builder.value_builder<ListBuilder>();
  auto& strings = inner.value_builder<StringBuilder>();
  builder.Append();
  inner.Append();
  strings.Append("a");
  inner.Append();
  inner.AppendNull();
  builder.Append();
  inner.Append();
  strings.Append("b");
  strings.Append("c");
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  EXPECT_EQ(GetValue(array, 0).ToJson(), R"([["a"],[],null])");
  EXPECT_EQ(GetValue(array, 1).ToJson(), R"([["b","c"]])");
  FLOE_EXPECT_OK(array.Validate());
}

TEST(StructBuilderTest, FieldsFollowTheParentSlice) {
  auto type = DataType::Struct({{"id", DataType::Int32(), false, 1}, {"name", DataType::String()}});
  StructBuilder builder(type);
  auto& ids = builder.field_builder<Int32Builder>(0);
  auto& names = builder.field_builder<StringBuilder>(1);
  for (int i = 0; i < 10; ++i) {
    if (i == 8) {
      builder.AppendNull();
      continue;
    }
    ids.Append(i);
    if (i % 2) {
      names.AppendNull();
    } else {
      names.Append(fmt::format("n{}", i));
    }
    builder.Append();
  }
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 10);
  EXPECT_EQ(array.null_count(), 1);
  EXPECT_TRUE(array.IsNull(8));
  EXPECT_TRUE(array.child(0).IsNull(8));  // AppendNull filled the children
  Array slice = array.Slice(6, 3);
  Array id_field = slice.field(0);
  EXPECT_EQ(id_field.length(), 3);
  EXPECT_EQ(id_field.Value<int32_t>(0), 6);
  EXPECT_EQ(slice.field(1).GetString(0), "n6");
  EXPECT_TRUE(slice.field(1).IsNull(1));
  EXPECT_EQ(GetValue(slice, 0).ToJson(), R"({"id":6,"name":"n6"})");
  EXPECT_EQ(GetValue(slice, 2).ToJson(), "null");
  FLOE_EXPECT_OK(slice.Validate());
}

TEST(StructBuilderTest, UnequalChildrenFailAtFinish) {
  StructBuilder builder(DataType::Struct({{"a", DataType::Int32()}, {"b", DataType::Int32()}}));
  builder.field_builder<Int32Builder>(0).Append(1);
  builder.Append();
  auto result = builder.Finish();
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("field b has 0 rows"), std::string::npos)
      << result.error().message();
}

TEST(MapBuilderTest, EntriesKeysAndItems) {
  auto type = DataType::Map(DataType::String(), DataType::Int32());
  MapBuilder builder(type);
  auto& keys = builder.key_builder<StringBuilder>();
  auto& items = builder.item_builder<Int32Builder>();
  builder.Append();
  keys.Append("a");
  items.Append(1);
  keys.Append("b");
  items.AppendNull();
  builder.AppendNull();
  builder.Append();
  builder.Append();
  keys.Append("c");
  items.Append(3);
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, builder.Finish());
  ASSERT_EQ(array.length(), 4);
  EXPECT_EQ(array.list_values().length(), 3);
  EXPECT_EQ(array.list_values().null_count(), 0);
  EXPECT_EQ(array.map_keys().GetString(2), "c");
  EXPECT_TRUE(array.map_items().IsNull(1));
  EXPECT_EQ(GetValue(array, 0).ToJson(), R"([{"key":"a","value":1},{"key":"b","value":null}])");
  EXPECT_EQ(GetValue(array, 1).ToJson(), "null");
  EXPECT_EQ(GetValue(array, 2).ToJson(), "[]");
  EXPECT_EQ(GetValue(array.Slice(3, 1), 0).ToJson(), R"([{"key":"c","value":3}])");
  FLOE_EXPECT_OK(array.Validate());
}

TEST(MapBuilderTest, NullKeysAreRejected) {
  MapBuilder builder(DataType::Map(DataType::String(), DataType::Int32()));
  builder.Append();
  builder.key_builder()->AppendNull();
  builder.item_builder<Int32Builder>().Append(1);
  auto result = builder.Finish();
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("null keys"), std::string::npos);
}

TEST(ArrayTest, MakeNullsOfEveryTypeIsValid) {
  std::vector<DataTypePtr> types = {
      DataType::Null(),
      DataType::Bool(),
      DataType::Int8(),
      DataType::UInt64(),
      DataType::Float16(),
      DataType::Decimal128(9, 2),
      DataType::Date32(),
      DataType::Timestamp(TimeUnit::kMicro, true),
      DataType::String(),
      DataType::LargeString(),
      DataType::FixedSizeBinary(3),
      DataType::List(DataType::Int32()),
      DataType::Struct({{"a", DataType::Int32()}, {"b", DataType::List(DataType::String())}}),
      DataType::Map(DataType::Int32(), DataType::String()),
  };
  for (const DataTypePtr& type : types) {
    Array array = Array::MakeNulls(type, 9);
    EXPECT_EQ(array.length(), 9) << type->ToString();
    EXPECT_EQ(array.null_count(), 9) << type->ToString();
    EXPECT_TRUE(array.IsNull(8)) << type->ToString();
    FLOE_EXPECT_OK(array.Validate());
    EXPECT_EQ(array.Slice(2, 3).null_count(), 3) << type->ToString();
  }
}

TEST(ArrayTest, ValidateRejectsBrokenLayouts) {
  // Offsets that go backwards.
  int32_t bad_offsets[] = {0, 3, 2};
  Array decreasing(DataType::String(), 2, {}, Buffer::CopyOf(bad_offsets, sizeof(bad_offsets)),
                   Buffer::CopyOf("abc"));
  auto status = decreasing.Validate();
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(status.error().message().find("offsets decrease at row 1"), std::string::npos);

  // The last offset past the data.
  int32_t long_offsets[] = {0, 2, 9};
  Array beyond(DataType::Binary(), 2, {}, Buffer::CopyOf(long_offsets, sizeof(long_offsets)),
               Buffer::CopyOf("abc"));
  EXPECT_FALSE(beyond.Validate().has_value());

  // A values buffer too small for offset + length.
  int64_t two[] = {1, 2};
  Array small(DataType::Int64(), 3, {}, Buffer::CopyOf(two, sizeof(two)));
  EXPECT_FALSE(small.Validate().has_value());
  EXPECT_TRUE(Array(DataType::Int64(), 2, {}, Buffer::CopyOf(two, sizeof(two))).Validate());
  EXPECT_FALSE(Array(DataType::Int64(), 2, {}, Buffer::CopyOf(two, sizeof(two)), {}, {}, -1, 1)
                   .Validate()
                   .has_value());

  // A struct child shorter than the struct.
  Array child(DataType::Int64(), 2, {}, Buffer::CopyOf(two, sizeof(two)));
  Array parent(DataType::Struct({{"x", DataType::Int64()}}), 3, {}, {}, {}, {child});
  EXPECT_FALSE(parent.Validate().has_value());

  // A list whose offsets run past its child.
  int32_t list_offsets[] = {0, 3};
  Array list(DataType::List(DataType::Int64()), 1, {},
             Buffer::CopyOf(list_offsets, sizeof(list_offsets)), {}, {child});
  EXPECT_FALSE(list.Validate().has_value());
}

}  // namespace
}  // namespace floe
