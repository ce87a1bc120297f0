// CAST and TRY_CAST against DuckDB on the sample rows where the two engines agree, and against
// Flink's documented cast behaviour where they do not.

#include <gtest/gtest.h>

#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::EvalSample;
using testing::ExpectSameAsDuckDb;
using testing::SameCell;

TEST(CastTest, HarnessTellsValuesApart) {
  EXPECT_FALSE(SameCell("1", "2"));
  EXPECT_FALSE(SameCell("abc", "abd"));
  EXPECT_FALSE(SameCell("NULL", "0"));
  EXPECT_TRUE(SameCell("1.0E10", "10000000000.0"));
  EXPECT_TRUE(SameCell("2024-01-02 10:30:00.500000", "2024-01-02 10:30:00.5"));
}

TEST(CastTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"CAST(i AS BIGINT)", ""},
      {"CAST(i AS DOUBLE)", ""},
      {"CAST(i AS DECIMAL(12, 2))", ""},
      {"CAST(dec AS DOUBLE)", ""},
      {"CAST(dec AS DECIMAL(12, 4))", ""},
      {"CAST(x AS DECIMAL(14, 1))", ""},
      {"CAST(x AS FLOAT)", ""},
      {"CAST(i AS STRING)", ""},
      {"CAST(x AS STRING)", ""},
      {"CAST(dec AS VARCHAR(20))", ""},
      {"CAST(dt AS STRING)", ""},
      {"CAST(ts AS STRING)", ""},
      // Flink writes booleans as TRUE/FALSE (DuckDB: true/false).
      {"CAST(b AS STRING)", "upper(CAST(b AS VARCHAR))"},
      {"CAST(dt AS TIMESTAMP)", ""},
      {"CAST(ts AS DATE)", ""},
      // Flink's TIME is TIME(0) (DuckDB's keeps micros): TIME(6) is the same cast.
      {"CAST(ts AS TIME(6))", "CAST(ts AS TIME)"},
      {"CAST(CAST(dt AS STRING) AS DATE)", "dt"},
      {"CAST(CAST(ts AS STRING) AS TIMESTAMP)", "ts"},
      {"CAST(CAST(dec AS STRING) AS DECIMAL(10, 2))", "dec"},
      {"TRY_CAST(s AS INT)", ""},
      {"TRY_CAST(s AS DOUBLE)", ""},
      {"TRY_CAST(s AS DATE)", ""},
      {"TRY_CAST(i AS TINYINT)", ""},
      {"TRY_CAST(i AS SMALLINT)", ""},
      {"TRY_CAST(dec AS DECIMAL(4, 2))", ""},
      {"CAST(i AS BOOLEAN)", ""},
      {"CAST(b AS INT)", ""},
      {"CAST('  42 ' AS BIGINT)", ""},
      {"CAST('2024-02-29 23:59:59.25' AS TIMESTAMP)", ""},
      {"CAST('1e3' AS DOUBLE)", ""},
  });
}

TEST(CastTest, FlinkSemantics) {
  // Flink casts DECIMAL and DOUBLE to integers as Java narrows them: the fraction is dropped
  // (DuckDB rounds). Decimal scale reductions round HALF_UP.
  EXPECT_EQ(EvalOne("CAST(1.9 AS INT)"), "1");
  EXPECT_EQ(EvalOne("CAST(-1.9 AS INT)"), "-1");
  EXPECT_EQ(EvalOne("CAST(2.5E0 AS BIGINT)"), "2");
  EXPECT_EQ(EvalOne("CAST(1.25 AS DECIMAL(3, 1))"), "1.3");
  EXPECT_EQ(EvalOne("CAST(-1.25 AS DECIMAL(3, 1))"), "-1.3");
  EXPECT_EQ(EvalOne("CAST(2.675E0 AS DECIMAL(3, 2))"), "2.68");
  // TIME is TIME(0) and TIMESTAMP(p) keeps p digits: Flink's casts truncate to the precision.
  EXPECT_EQ(EvalOne("CAST(TIMESTAMP '2024-01-02 10:30:59.987654' AS TIME)"), "10:30:59");
  EXPECT_EQ(EvalOne("CAST(TIMESTAMP '2024-01-02 10:30:59.987654' AS TIMESTAMP(3))"),
            "2024-01-02 10:30:59.987");
  EXPECT_EQ(EvalOne("CAST(TIMESTAMP '1969-12-31 23:59:59.9996' AS TIMESTAMP(3))"),
            "1969-12-31 23:59:59.999");
  // Flink's string-to-integer conversion ignores a fraction: CAST('1.9' AS INT) is 1.
  EXPECT_EQ(EvalOne("CAST('1.9' AS INT)"), "1");
  // Flink's string-to-boolean accepts true/false, t/f, yes/no, y/n, 1/0 in any case.
  EXPECT_EQ(EvalOne("CAST('Yes' AS BOOLEAN)"), "true");
  EXPECT_EQ(EvalOne("CAST('0' AS BOOLEAN)"), "false");
  // Flink writes DOUBLE as Java's Double.toString.
  EXPECT_EQ(EvalOne("CAST(1E7 AS STRING)"), "1.0E7");
  EXPECT_EQ(EvalOne("CAST(TRUE AS STRING)"), "TRUE");
  // A value that does not convert is an error naming the expression; TRY_CAST gives NULL.
  EXPECT_EQ(EvalOne("CAST('abc' AS INT)"),
            "EVAL ERROR: line 1, column 1: CAST('abc' AS INT): cannot cast STRING 'abc' to INT");
  EXPECT_EQ(EvalOne("CAST(300 AS TINYINT)"),
            "EVAL ERROR: line 1, column 1: CAST(300 AS TINYINT): cannot cast INT '300' to TINYINT");
  EXPECT_EQ(EvalOne("TRY_CAST(300 AS TINYINT)"), "NULL");
  EXPECT_EQ(EvalOne("CAST(123.45 AS DECIMAL(4, 2))").rfind("EVAL ERROR: ", 0), 0u);
  EXPECT_EQ(EvalOne("CAST(dt AS INT)"),
            "BIND ERROR: line 1, column 1: CAST(`dt` AS INT): cannot cast DATE to INT");
}

TEST(CastTest, CastScalarForInsert) {
  // INSERT converts VALUES to the table's types with CastScalar, BINARY(n) included.
  auto literal = BindScalar(**ParseExpression("'ab'"), Scope());
  ASSERT_TRUE(literal);
  auto fixed = CastScalar(*literal, ::floe::DataType::FixedSizeBinary(4));
  ASSERT_TRUE(fixed) << fixed.error().ToString();
  auto value = (*fixed)->constant();
  ASSERT_TRUE(value);
  EXPECT_EQ(value->get<BinaryValue>().bytes, std::string("ab\0\0", 4));
  auto widened =
      CastScalar(*BindScalar(**ParseExpression("1"), Scope()), ::floe::DataType::Int64());
  ASSERT_TRUE(widened);
  EXPECT_EQ((*widened)->ToString(), "CAST(1 AS BIGINT)");
  EXPECT_EQ(*(*widened)->constant(), Value(int64_t{1}));
  auto bad = CastScalar(*BindScalar(**ParseExpression("DATE '2024-01-01'"), Scope()),
                        ::floe::DataType::Int32());
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message(), "CAST(DATE '2024-01-01' AS INT): cannot cast DATE to INT");
}

}  // namespace
}  // namespace floe::sql::scalar
