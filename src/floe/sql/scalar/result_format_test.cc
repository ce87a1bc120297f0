#include "floe/sql/scalar/result_format.h"

#include <gtest/gtest.h>

#include "floe/batch/value.h"

namespace floe::sql {
namespace {

std::string Cell(const DataTypePtr& type, Value value) {
  auto array = MakeArray(type, std::span<const Value>(&value, 1));
  EXPECT_TRUE(array.has_value()) << array.error().message();
  return FormatCell(*array, 0);
}

// Java's Double.toString / Float.toString forms, which Flink's client prints.
TEST(ResultFormatTest, FloatingPointAsJavaPrintsIt) {
  EXPECT_EQ(Cell(DataType::Float64(), 100.0), "100.0");
  EXPECT_EQ(Cell(DataType::Float64(), 123.456), "123.456");
  EXPECT_EQ(Cell(DataType::Float64(), 0.001), "0.001");
  EXPECT_EQ(Cell(DataType::Float64(), 1.0e-4), "1.0E-4");
  EXPECT_EQ(Cell(DataType::Float64(), 1.0e7), "1.0E7");
  EXPECT_EQ(Cell(DataType::Float64(), 1.5e10), "1.5E10");
  EXPECT_EQ(Cell(DataType::Float64(), -2.5), "-2.5");
  EXPECT_EQ(Cell(DataType::Float64(), 9999999.0), "9999999.0");
  EXPECT_EQ(Cell(DataType::Float32(), 0.1f), "0.1");
  EXPECT_EQ(Cell(DataType::Float64(), 0.1), "0.1");
}

DataTypePtr ToUnitPrecision(const DataTypePtr& type) {
  switch (type->kind()) {
    case TypeKind::kTimestamp:
      return DataType::Timestamp(type->unit(), type->utc());
    case TypeKind::kTime64:
      return DataType::Time64(type->unit());
    case TypeKind::kList:
      return DataType::List(ToUnitPrecision(type->field(0).type));
    default:
      return type;
  }
}

std::string TypedCell(const DataTypePtr& type, Value value) {
  // The array is built without the precision, as a kernel may build it: the declared type rules.
  auto array = MakeArray(ToUnitPrecision(type), std::span<const Value>(&value, 1));
  EXPECT_TRUE(array.has_value()) << array.error().message();
  return FormatCell(*array, 0, *type);
}

// Flink's TimestampStringUtils.timestampToString: the nanosecond fraction loses trailing zeros
// while it is longer than the precision, so p digits show, and finer ones only when not zero.
TEST(ResultFormatTest, TimestampsShowTheirPrecision) {
  auto ts = [](int p) { return DataType::Timestamp(TimeUnit::kMicro, false, p); };
  const int64_t at = 1704191400000000;  // 2024-01-02 10:30:00
  EXPECT_EQ(TypedCell(ts(0), TimestampValue{at, TimeUnit::kMicro, false}), "2024-01-02 10:30:00");
  EXPECT_EQ(TypedCell(ts(3), TimestampValue{at, TimeUnit::kMicro, false}),
            "2024-01-02 10:30:00.000");
  EXPECT_EQ(TypedCell(ts(3), TimestampValue{at + 100000, TimeUnit::kMicro, false}),
            "2024-01-02 10:30:00.100");
  EXPECT_EQ(TypedCell(ts(0), TimestampValue{at + 500000, TimeUnit::kMicro, false}),
            "2024-01-02 10:30:00.5");
  EXPECT_EQ(TypedCell(ts(3), TimestampValue{at + 123456, TimeUnit::kMicro, false}),
            "2024-01-02 10:30:00.123456");
  EXPECT_EQ(TypedCell(DataType::Timestamp(TimeUnit::kNano, true, 7),
                      TimestampValue{at * 1000 + 120000000, TimeUnit::kNano, true}),
            "2024-01-02 10:30:00.1200000");
  EXPECT_EQ(
      TypedCell(DataType::Time64(TimeUnit::kMicro, 0), TimeValue{37800000000, TimeUnit::kMicro}),
      "10:30:00");
  EXPECT_EQ(TypedCell(DataType::List(ts(0)),
                      ListValue{{TimestampValue{at, TimeUnit::kMicro, false}, Value()}}),
            "[2024-01-02 10:30:00, NULL]");
  EXPECT_EQ(Cell(ts(0), TimestampValue{at, TimeUnit::kMicro, false}), "2024-01-02 10:30:00");
}

TEST(ResultFormatTest, OtherTypesAsFlinksClientShowsThem) {
  EXPECT_EQ(Cell(DataType::Int64(), Value()), "<NULL>");
  EXPECT_EQ(Cell(DataType::Bool(), true), "TRUE");
  EXPECT_EQ(Cell(DataType::Decimal128(5, 2), DecimalValue{1420, 5, 2}), "14.20");
  EXPECT_EQ(Cell(DataType::Date32(), DateValue{19724}), "2024-01-02");
  EXPECT_EQ(Cell(DataType::Timestamp(TimeUnit::kMicro, false),
                 TimestampValue{1704191400123456, TimeUnit::kMicro, false}),
            "2024-01-02 10:30:00.123456");
  EXPECT_EQ(Cell(DataType::Binary(), BinaryValue{"\x0a\x0b"}), "x'0a0b'");
  EXPECT_EQ(Cell(DataType::List(DataType::Int32()), ListValue{{Value(1), Value(2)}}), "[1, 2]");
}

// Flink's non-legacy CAST to STRING (which its tableau uses) writes nested nulls as NULL:
// "[NULL, 456]", "{NULL=-10-03, b=NULL}", "(NULL, abc)" in its CastRulesTest.
TEST(ResultFormatTest, NullsInsideCollectionsAreNull) {
  EXPECT_EQ(Cell(DataType::List(DataType::Int32()), ListValue{{Value(), Value(456)}}),
            "[NULL, 456]");
  EXPECT_EQ(Cell(DataType::Map(DataType::String(), DataType::Int32()),
                 MapValue{{{Value(std::string("b")), Value()}}}),
            "{b=NULL}");
  auto list = MakeArray(DataType::List(DataType::Int32()),
                        std::vector<Value>{Value(ListValue{{Value(), Value(1)}})});
  ASSERT_TRUE(list.has_value());
  // The changelog view writes Row#toString's null.
  EXPECT_EQ(FormatCell(*list, 0, kRowTextNull), "[null, 1]");
}

}  // namespace
}  // namespace floe::sql
