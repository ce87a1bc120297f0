// Each row of the Flink connector documentation's two type conversion tables, checked by hand
// against floe's conversions (see types_internal.h for the binary/varbinary row).

#include <gtest/gtest.h>

#include <algorithm>

#include "floe/sql/statements/types_internal.h"
#include "floe/sql/syntax/parser.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql {
namespace {

std::string ToIceberg(std::string_view flink) {
  auto type = ParseDataType(flink);
  if (!type) return "PARSE ERROR: " + type.error().message();
  int32_t next_id = 1;
  auto iceberg = ToIcebergType(*type, &next_id);
  if (!iceberg) return iceberg.error().ToString();
  return (*iceberg)->ToString();
}

std::string ToFlink(const TypePtr& iceberg) {
  auto flink = ToFlinkType(*iceberg);
  if (!flink) return flink.error().ToString();
  return PrintType(*flink);
}

TEST(TypesTest, FlinkToIceberg) {
  struct Row {
    std::string_view flink;
    std::string_view iceberg;
  };
  constexpr Row kRows[] = {
      {"BOOLEAN", "boolean"},
      {"TINYINT", "int"},
      {"SMALLINT", "int"},
      {"INTEGER", "int"},
      {"BIGINT", "long"},
      {"FLOAT", "float"},
      {"DOUBLE", "double"},
      {"CHAR(3)", "string"},
      {"VARCHAR(10)", "string"},
      {"STRING", "string"},
      {"BINARY(16)", "fixed[16]"},
      {"BINARY", "fixed[1]"},
      {"VARBINARY(8)", "binary"},
      {"BYTES", "binary"},
      {"DECIMAL(9, 2)", "decimal(9, 2)"},
      {"DECIMAL", "decimal(10, 0)"},
      {"DATE", "date"},
      {"TIME(3)", "time"},
      {"TIMESTAMP(3)", "timestamp"},
      {"TIMESTAMP_LTZ(6)", "timestamptz"},
      {"TIMESTAMP(6) WITH LOCAL TIME ZONE", "timestamptz"},
      {"ARRAY<INT>", "list<int>"},
      {"MAP<STRING, BIGINT>", "map<string, long>"},
      {"MULTISET<STRING>", "map<string, int>"},
      {"ROW<a INT NOT NULL, b STRING 'note'>",
       "struct<1: a: required int, 2: b: optional string (note)>"},
      {"TIMESTAMP(3) WITH TIME ZONE",
       "unsupported: Flink type TIMESTAMP(3) WITH TIME ZONE is not supported in Iceberg tables"},
      {"NULL", "unsupported: Flink type NULL is not supported in Iceberg tables"},
      {"DECIMAL(39, 0)",
       "invalid argument: DECIMAL(39, 0): precision must be 1 to 38 and scale at most the "
       "precision"},
  };
  for (const Row& row : kRows) EXPECT_EQ(ToIceberg(row.flink), row.iceberg) << row.flink;
}

TEST(TypesTest, NullabilityAndIds) {
  int32_t next_id = 1;
  auto type = ParseDataType("MAP<STRING, ARRAY<INT NOT NULL> NOT NULL>");
  ASSERT_TRUE(type.has_value());
  auto iceberg = ToIcebergType(*type, &next_id);
  ASSERT_TRUE(iceberg.has_value()) << iceberg.error().ToString();
  const auto& map = static_cast<const MapType&>(**iceberg);
  EXPECT_TRUE(map.key().required);
  EXPECT_TRUE(map.value().required);
  const auto& list = static_cast<const ListType&>(*map.value().type);
  EXPECT_TRUE(list.element().required);
  std::vector<int32_t> ids = {map.key().id, map.value().id, list.element().id};
  std::ranges::sort(ids);
  EXPECT_EQ(ids, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(next_id, 4);
}

TEST(TypesTest, ColumnsOfCreateTable) {
  auto statement = ParseStatement(
      "CREATE TABLE t (id BIGINT COMMENT 'unique id', data STRING NOT NULL, "
      "r ROW<x TIMESTAMP_LTZ(3)>, PRIMARY KEY (id) NOT ENFORCED)");
  ASSERT_TRUE(statement.has_value());
  const auto& create = std::get<CreateTable>(statement->body);
  auto fields = ToIcebergFields(create.columns, create.primary_key);
  ASSERT_TRUE(fields.has_value()) << fields.error().ToString();
  ASSERT_EQ(fields->size(), 3u);
  EXPECT_EQ((*fields)[0].ToString(), "1: id: required long (unique id)");
  EXPECT_EQ((*fields)[1].ToString(), "2: data: required string");
  EXPECT_EQ((*fields)[2].ToString(), "3: r: optional struct<4: x: optional timestamptz>");

  statement = ParseStatement("CREATE TABLE t (a INT, b ROW<c TIMESTAMP WITH TIME ZONE>)");
  ASSERT_TRUE(statement.has_value());
  fields = ToIcebergFields(std::get<CreateTable>(statement->body).columns);
  ASSERT_FALSE(fields.has_value());
  EXPECT_EQ(
      fields.error().message(),
      "column 'b': field 'c': Flink type TIMESTAMP WITH TIME ZONE is not supported in Iceberg "
      "tables");
}

TEST(TypesTest, IcebergToFlink) {
  EXPECT_EQ(ToFlink(types::Boolean()), "BOOLEAN");
  EXPECT_EQ(ToFlink(StructType::Make({types::Required(1, "a", types::Int()),
                                      types::Optional(2, "b", types::String(), "doc")})),
            "ROW<`a` INT NOT NULL, `b` VARCHAR(2147483647) 'doc'>");
  EXPECT_EQ(ToFlink(ListType::Make(1, types::Long(), true)), "ARRAY<BIGINT NOT NULL>");
  EXPECT_EQ(ToFlink(MapType::Make(1, types::String(), 2, types::Double(), false)),
            "MAP<VARCHAR(2147483647) NOT NULL, DOUBLE>");
  EXPECT_EQ(ToFlink(types::Int()), "INT");
  EXPECT_EQ(ToFlink(types::Long()), "BIGINT");
  EXPECT_EQ(ToFlink(types::Float()), "FLOAT");
  EXPECT_EQ(ToFlink(types::Double()), "DOUBLE");
  EXPECT_EQ(ToFlink(types::Date()), "DATE");
  EXPECT_EQ(ToFlink(types::Time()), "TIME");
  EXPECT_EQ(ToFlink(types::Timestamp()), "TIMESTAMP(6)");
  EXPECT_EQ(ToFlink(types::TimestampTz()), "TIMESTAMP_LTZ(6)");
  EXPECT_EQ(ToFlink(types::String()), "VARCHAR(2147483647)");
  EXPECT_EQ(ToFlink(types::Uuid()), "BINARY(16)");
  EXPECT_EQ(ToFlink(types::Fixed(7)), "BINARY(7)");
  EXPECT_EQ(ToFlink(types::Binary()), "VARBINARY(2147483647)");
  EXPECT_EQ(ToFlink(types::Decimal(12, 3)), "DECIMAL(12, 3)");
  EXPECT_EQ(ToFlink(types::TimestampNs()),
            "unsupported: Iceberg type timestamp_ns has no Flink SQL type");
  EXPECT_EQ(ToFlink(types::Variant()), "unsupported: Iceberg type variant has no Flink SQL type");
}

TEST(TypesTest, RoundTripThroughIceberg) {
  for (std::string_view flink : {"BIGINT", "DECIMAL(9, 2)", "DATE", "TIMESTAMP(6)",
                                 "TIMESTAMP_LTZ(6)", "BINARY(16)", "ARRAY<DOUBLE NOT NULL>"}) {
    auto type = ParseDataType(flink);
    ASSERT_TRUE(type.has_value());
    int32_t next_id = 1;
    auto iceberg = ToIcebergType(*type, &next_id);
    ASSERT_TRUE(iceberg.has_value());
    EXPECT_EQ(ToFlink(*iceberg), flink);
  }
}

}  // namespace
}  // namespace floe::sql
