#include "floe/batch/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "floe/batch/builder.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

// Expected texts below were computed independently (Python's datetime and struct modules, and the
// Iceberg spec's JSON single-value examples: 2017-11-16, 22:31:08.123456, ...+00:00).

template <typename Builder, typename T>
std::string JsonOf(DataTypePtr type, T value) {
  Builder builder(type);
  builder.Append(value);
  auto array = builder.Finish();
  if (!array) return "error: " + array.error().ToString();
  std::string direct;
  AppendJson(*array, 0, direct);
  std::string via_value = GetValue(*array, 0).ToJson();
  // The direct path and the Value path must agree.
  if (direct != via_value) return "mismatch: " + direct + " vs " + via_value;
  return direct;
}

TEST(ValueJsonTest, IntegersAreExact) {
  EXPECT_EQ((JsonOf<Int8Builder>(DataType::Int8(), int8_t{-128})), "-128");
  EXPECT_EQ((JsonOf<Int16Builder>(DataType::Int16(), int16_t{32767})), "32767");
  EXPECT_EQ((JsonOf<Int32Builder>(DataType::Int32(), int32_t{-2147483647 - 1})), "-2147483648");
  EXPECT_EQ((JsonOf<Int64Builder>(DataType::Int64(), std::numeric_limits<int64_t>::max())),
            "9223372036854775807");
  EXPECT_EQ((JsonOf<Int64Builder>(DataType::Int64(), std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ((JsonOf<UInt8Builder>(DataType::UInt8(), uint8_t{255})), "255");
  EXPECT_EQ((JsonOf<UInt64Builder>(DataType::UInt64(), std::numeric_limits<uint64_t>::max())),
            "18446744073709551615");
}

TEST(ValueJsonTest, FloatingPointShortestAndSpecials) {
  EXPECT_EQ((JsonOf<Float32Builder>(DataType::Float32(), 0.1f)), "0.1");
  EXPECT_EQ((JsonOf<Float32Builder>(DataType::Float32(), 1.0f)), "1.0");
  EXPECT_EQ((JsonOf<Float64Builder>(DataType::Float64(), 0.1)), "0.1");
  EXPECT_EQ((JsonOf<Float64Builder>(DataType::Float64(), -3.0)), "-3.0");
  EXPECT_EQ((JsonOf<Float64Builder>(DataType::Float64(), 1e300)), "1e+300");
  EXPECT_EQ((JsonOf<Float64Builder>(DataType::Float64(), std::nan(""))), "\"NaN\"");
  EXPECT_EQ((JsonOf<Float64Builder>(DataType::Float64(), HUGE_VAL)), "\"Infinity\"");
  EXPECT_EQ((JsonOf<Float32Builder>(DataType::Float32(), -HUGE_VALF)), "\"-Infinity\"");
}

TEST(ValueJsonTest, HalfFloats) {
  auto half = [](uint16_t bits) { return JsonOf<Float16Builder>(DataType::Float16(), bits); };
  EXPECT_EQ(half(0x3c00), "1.0");
  EXPECT_EQ(half(0xc000), "-2.0");
  EXPECT_EQ(half(0x7bff), "65504.0");
  EXPECT_EQ(half(0x3555), "0.33325195");
  EXPECT_EQ(half(0x0400), "6.1035156e-05");               // smallest normal
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(half(0x7c00), "\"Infinity\"");
  EXPECT_EQ(half(0xfc00), "\"-Infinity\"");
  EXPECT_EQ(half(0x7e00), "\"NaN\"");
}

TEST(ValueJsonTest, DecimalsAsStrings) {
  auto decimal = [](__int128 unscaled, int precision, int scale) {
    return JsonOf<Decimal128Builder>(DataType::Decimal128(precision, scale), unscaled);
  };
  EXPECT_EQ(decimal(1420, 4, 2), "\"14.20\"");  // the spec's example
  EXPECT_EQ(decimal(2, 1, -20), "\"2E+20\"");   // the spec's example
  EXPECT_EQ(decimal(-5, 3, 2), "\"-0.05\"");
  EXPECT_EQ(decimal(0, 5, 3), "\"0.000\"");
  EXPECT_EQ(decimal(12345, 5, 0), "\"12345\"");
  __int128 max38 = 0;
  for (int i = 0; i < 38; ++i) max38 = max38 * 10 + 9;
  EXPECT_EQ(decimal(max38, 38, 0), "\"99999999999999999999999999999999999999\"");
  EXPECT_EQ(decimal(-max38, 38, 10), "\"-9999999999999999999999999999.9999999999\"");
  __int128 min128 = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  EXPECT_EQ(decimal(min128, 38, 0), "\"-170141183460469231731687303715884105728\"");
}

TEST(ValueJsonTest, DatesTimesTimestampsIso8601) {
  auto date = [](int32_t days) { return JsonOf<Date32Builder>(DataType::Date32(), days); };
  EXPECT_EQ(date(17486), "\"2017-11-16\"");
  EXPECT_EQ(date(0), "\"1970-01-01\"");
  EXPECT_EQ(date(-1), "\"1969-12-31\"");
  EXPECT_EQ(date(11016), "\"2000-02-29\"");
  EXPECT_EQ(date(-719162), "\"0001-01-01\"");
  EXPECT_EQ(date(2932896), "\"9999-12-31\"");

  auto micros = DataType::Time64(TimeUnit::kMicro);
  EXPECT_EQ((JsonOf<Time64Builder>(micros, int64_t{81068123456})), "\"22:31:08.123456\"");
  EXPECT_EQ((JsonOf<Time64Builder>(micros, int64_t{0})), "\"00:00:00.000000\"");
  EXPECT_EQ((JsonOf<Time64Builder>(DataType::Time64(TimeUnit::kNano), int64_t{81068123456789})),
            "\"22:31:08.123456789\"");

  auto ts = [](TimeUnit unit, bool utc, int64_t value) {
    return JsonOf<TimestampBuilder>(DataType::Timestamp(unit, utc), value);
  };
  EXPECT_EQ(ts(TimeUnit::kMicro, false, 1510871468123456), "\"2017-11-16T22:31:08.123456\"");
  EXPECT_EQ(ts(TimeUnit::kMicro, true, 1510871468123456), "\"2017-11-16T22:31:08.123456+00:00\"");
  EXPECT_EQ(ts(TimeUnit::kNano, false, 1510871468123456789), "\"2017-11-16T22:31:08.123456789\"");
  EXPECT_EQ(ts(TimeUnit::kNano, true, 1510871468123456789),
            "\"2017-11-16T22:31:08.123456789+00:00\"");
  EXPECT_EQ(ts(TimeUnit::kMicro, false, -1), "\"1969-12-31T23:59:59.999999\"");
  EXPECT_EQ(ts(TimeUnit::kMicro, false, -2208988799999999), "\"1900-01-01T00:00:00.000001\"");
  EXPECT_EQ(ts(TimeUnit::kNano, true, std::numeric_limits<int64_t>::max()),
            "\"2262-04-11T23:47:16.854775807+00:00\"");
}

TEST(ValueJsonTest, StringsBinaryAndBool) {
  EXPECT_EQ((JsonOf<StringBuilder>(DataType::String(), std::string_view("a\"b\\c\n\x01"))),
            R"("a\"b\\c\n\u0001")");
  EXPECT_EQ((JsonOf<StringBuilder>(DataType::String(), std::string_view("iceberg ❄"))),
            "\"iceberg ❄\"");
  EXPECT_EQ((JsonOf<StringBuilder>(DataType::Binary(), std::string_view("\x00\x01\x02\xff", 4))),
            "\"000102ff\"");
  EXPECT_EQ((JsonOf<LargeStringBuilder>(DataType::LargeBinary(), std::string_view("\xab"))),
            "\"ab\"");
  EXPECT_EQ(
      (JsonOf<FixedSizeBinaryBuilder>(DataType::FixedSizeBinary(2), std::string_view("\x0f\xf0"))),
      "\"0ff0\"");
  BooleanBuilder bools;
  bools.Append(true);
  bools.Append(false);
  bools.AppendNull();
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, bools.Finish());
  EXPECT_EQ(GetValue(array, 0).ToJson(), "true");
  EXPECT_EQ(GetValue(array, 1).ToJson(), "false");
  EXPECT_EQ(GetValue(array, 2).ToJson(), "null");
  EXPECT_TRUE(GetValue(array, 2).is_null());
}

// A batch with every nested kind, printed as JSON lines.
TEST(RowViewTest, JsonLinesOfNestedRows) {
  auto point =
      DataType::Struct({{"x", DataType::Float64()}, {"tags", DataType::List(DataType::String())}});
  auto attrs = DataType::Map(DataType::String(), DataType::Int64());
  auto schema = std::make_shared<BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), false, 1},
                         {"point", point, true, 2},
                         {"attrs", attrs, true, 3},
                         {"ts", DataType::Timestamp(TimeUnit::kMicro, true), true, 4}});
  Int64Builder ids;
  StructBuilder points(point);
  MapBuilder maps(attrs);
  TimestampBuilder stamps(DataType::Timestamp(TimeUnit::kMicro, true));
  auto& xs = points.field_builder<Float64Builder>(0);
  auto& tags = points.field_builder<ListBuilder>(1);
  auto& tag_values = tags.value_builder<StringBuilder>();

  ids.Append(9007199254740993);  // not exactly representable as a double
  xs.Append(1.5);
  tags.Append();
  tag_values.Append("a");
  tag_values.Append("b");
  points.Append();
  maps.Append();
  maps.key_builder<StringBuilder>().Append("k");
  maps.item_builder<Int64Builder>().Append(-1);
  stamps.Append(0);

  ids.Append(2);
  points.AppendNull();
  maps.AppendNull();
  stamps.AppendNull();

  std::vector<Array> columns;
  for (ArrayBuilder* builder :
       std::initializer_list<ArrayBuilder*>{&ids, &points, &maps, &stamps}) {
    FLOE_ASSERT_OK_AND_ASSIGN(Array column, builder->Finish());
    columns.push_back(std::move(column));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns)));
  std::string lines;
  AppendJsonLines(batch, lines);
  EXPECT_EQ(lines, R"({"id":9007199254740993,"point":{"x":1.5,"tags":["a","b"]},)"
                   R"("attrs":[{"key":"k","value":-1}],"ts":"1970-01-01T00:00:00.000000+00:00"})"
                   "\n"
                   R"({"id":2,"point":null,"attrs":null,"ts":null})"
                   "\n");

  RowView row(batch, 0);
  EXPECT_EQ(row.kind(), RowKind::kInsert);
  EXPECT_EQ(row.Get("id"), Value(int64_t{9007199254740993}));
  EXPECT_TRUE(row.Get("missing").is_null());
  Value expected_point =
      StructValue{{{"x", Value(1.5)}, {"tags", ListValue{{Value("a"), Value("b")}}}}};
  EXPECT_EQ(row.Get(1), expected_point);
  EXPECT_EQ(row.Get(2), Value(MapValue{{{Value("k"), Value(int64_t{-1})}}}));
  EXPECT_EQ(row.Get(3), Value(TimestampValue{0, TimeUnit::kMicro, true}));
  EXPECT_EQ(row.Values().size(), 4u);
  EXPECT_EQ(RowView(batch, 1).ToJson(), R"({"id":2,"point":null,"attrs":null,"ts":null})");
}

TEST(MakeArrayTest, ValuesRoundTripThroughBuilders) {
  auto type = DataType::Struct({{"id", DataType::Int16()},
                                {"price", DataType::Decimal128(9, 2)},
                                {"when", DataType::Timestamp(TimeUnit::kMicro, true)},
                                {"tags", DataType::List(DataType::String())},
                                {"attrs", DataType::Map(DataType::String(), DataType::Float32())},
                                {"raw", DataType::FixedSizeBinary(2)}});
  std::vector<Value> rows = {
      StructValue{{{"id", Value(7)},
                   {"price", DecimalValue{1420, 9, 2}},
                   {"when", TimestampValue{1510871468123456, TimeUnit::kMicro, true}},
                   {"tags", ListValue{{Value("a"), Value()}}},
                   {"attrs", MapValue{{{Value("k"), Value(0.5f)}}}},
                   {"raw", BinaryValue{"\x01\x02"}}}},
      Value(),
  };
  FLOE_ASSERT_OK_AND_ASSIGN(Array array, MakeArray(type, rows));
  ASSERT_EQ(array.length(), 2);
  EXPECT_EQ(GetValue(array, 0), rows[0]);
  EXPECT_TRUE(GetValue(array, 1).is_null());
  EXPECT_EQ(GetValue(array, 0).ToJson(),
            R"({"id":7,"price":"14.20","when":"2017-11-16T22:31:08.123456+00:00",)"
            R"("tags":["a",null],"attrs":[{"key":"k","value":0.5}],"raw":"0102"})");
}

TEST(MakeArrayTest, RejectsMismatchesAndOutOfRangeIntegers) {
  std::vector<Value> too_big = {Value(1), Value(int64_t{128})};
  auto result = MakeArray(DataType::Int8(), too_big);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("row 1: cannot append a int64 value (128) to a int8"),
            std::string::npos)
      << result.error().message();
  std::vector<Value> negative = {Value(-1)};
  EXPECT_FALSE(MakeArray(DataType::UInt32(), negative).has_value());
  std::vector<Value> text = {Value("x")};
  EXPECT_FALSE(MakeArray(DataType::Int64(), text).has_value());
  std::vector<Value> other_scale = {Value(DecimalValue{1, 9, 3})};
  EXPECT_FALSE(MakeArray(DataType::Decimal128(9, 2), other_scale).has_value());
  std::vector<Value> other_unit = {Value(TimestampValue{1, TimeUnit::kNano, false})};
  EXPECT_FALSE(MakeArray(DataType::Timestamp(TimeUnit::kMicro, false), other_unit).has_value());
  std::vector<Value> bytes_as_string = {Value(BinaryValue{"ab"})};
  EXPECT_FALSE(MakeArray(DataType::String(), bytes_as_string).has_value());
  std::vector<Value> wide = {Value(uint64_t{18446744073709551615ull})};
  FLOE_ASSERT_OK_AND_ASSIGN(Array unsigned_array, MakeArray(DataType::UInt64(), wide));
  EXPECT_EQ(unsigned_array.Value<uint64_t>(0), 18446744073709551615ull);
}

TEST(ArraysEqualTest, ComparesTypesAndValuesAcrossSlices) {
  Int32Builder a;
  Int32Builder b;
  for (int i = 0; i < 20; ++i) {
    a.Append(i);
    if (i >= 5) b.Append(i);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(Array left, a.Finish());
  FLOE_ASSERT_OK_AND_ASSIGN(Array right, b.Finish());
  EXPECT_TRUE(ArraysEqual(left.Slice(5, 15), right));
  EXPECT_FALSE(ArraysEqual(left.Slice(4, 15), right));
  EXPECT_FALSE(ArraysEqual(left.Slice(5, 14), right));
  EXPECT_FALSE(ArraysEqual(Array::MakeNulls(DataType::Int64(), 15), right));
}

}  // namespace
}  // namespace floe
