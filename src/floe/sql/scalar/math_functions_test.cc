// Math functions against DuckDB on the sample rows, and Flink's documented rounding (HALF_UP on
// the decimal digits) where DuckDB rounds the binary double.

#include <gtest/gtest.h>

#include <set>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::ExpectSameAsDuckDb;

TEST(MathFunctionsTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"ABS(i)", ""},
      {"ABS(x)", ""},
      {"ABS(dec)", ""},
      {"SIGN(i)", ""},
      {"SIGN(x)", ""},
      {"CEIL(x)", ""},
      {"CEILING(dec)", ""},
      {"FLOOR(x)", ""},
      {"FLOOR(dec)", ""},
      {"ROUND(x)", ""},
      {"ROUND(x, 1)", ""},
      {"ROUND(dec, 1)", ""},
      {"ROUND(dec)", ""},
      {"ROUND(i, -1)", ""},
      {"TRUNCATE(dec, 1)", "trunc(dec * 10) / 10"},
      {"MOD(i, 5)", "i % 5"},
      {"POWER(x, 2)", "pow(x, 2)"},
      {"SQRT(ABS(x))", ""},
      {"EXP(x / 1e10)", ""},
      {"LN(ABS(x) + 1)", ""},
      {"LOG10(ABS(x) + 1)", ""},
      {"PI() * 2", ""},
      {"E()", "exp(1)"},
      {"SIN(x)", ""},
      {"COS(x)", ""},
      {"TAN(x)", ""},
      {"COT(x + 0.25)", ""},
      {"ASIN(x / 1e10)", ""},
      {"ACOS(x / 1e10)", ""},
      {"ATAN(x)", ""},
      {"ATAN2(x, j)", ""},
      {"SINH(x / 1e9)", ""},
      {"COSH(x / 1e9)", ""},
      {"TANH(x)", ""},
      {"DEGREES(x)", ""},
      {"RADIANS(i)", ""},
  });
}

TEST(MathFunctionsTest, FlinkRounding) {
  // Flink rounds HALF_UP through BigDecimal.valueOf(double): 2.675 has the decimal digits 2.675
  // and rounds to 2.68 (rounding the binary value 2.67499999... would give 2.67).
  EXPECT_EQ(EvalOne("ROUND(2.675E0, 2)"), "2.6800000000000002");
  EXPECT_EQ(EvalOne("ROUND(-2.5E0)"), "-3");
  EXPECT_EQ(EvalOne("ROUND(2.5)"), "3");
  EXPECT_EQ(EvalOne("ROUND(-1.55, 1)"), "-1.6");
  EXPECT_EQ(EvalOne("TRUNCATE(-1.59, 1)"), "-1.5");
  EXPECT_EQ(EvalOne("ROUND(1234, -2)"), "1200");
  EXPECT_EQ(EvalOne("ROUND(1250, -2)"), "1300");
  EXPECT_EQ(EvalOne("MOD(7, 0)"), "EVAL ERROR: line 1, column 1: MOD(7, 0): division by zero");
  EXPECT_EQ(EvalOne("ABS('a')"),
            "BIND ERROR: line 1, column 1: ABS: argument 1 must be a number, not STRING");
}

TEST(MathFunctionsTest, RandomValues) {
  // Each row draws its own value in [0, 1); a seed repeats the sequence; RAND_INTEGER stays below
  // its bound.
  std::vector<std::string> values = testing::EvalSample("RAND()");
  ASSERT_EQ(values.size(), 6u);
  std::set<std::string> distinct(values.begin(), values.end());
  EXPECT_GT(distinct.size(), 1u);
  for (const std::string& v : values) {
    EXPECT_GE(std::stod(v), 0.0);
    EXPECT_LT(std::stod(v), 1.0);
  }
  EXPECT_EQ(testing::EvalSample("RAND(42)"), testing::EvalSample("RAND(42)"));
  EXPECT_NE(testing::EvalSample("RAND(42)"), testing::EvalSample("RAND(43)"));
  for (const std::string& v : testing::EvalSample("RAND_INTEGER(7, 3)")) {
    EXPECT_TRUE(v == "0" || v == "1" || v == "2") << v;
  }
  EXPECT_EQ(testing::EvalSample("RAND_INTEGER(ABS(j))")[3], "0");  // bound 1
  EXPECT_EQ(testing::EvalSample("RAND_INTEGER(ABS(j))")[4], "NULL");
  EXPECT_EQ(EvalOne("RAND_INTEGER(0)"),
            "EVAL ERROR: line 1, column 1: RAND_INTEGER(0): the bound must be positive, not 0");
  EXPECT_EQ(EvalOne("RAND(i)"),
            "BIND ERROR: line 1, column 1: RAND: the seed must be an integer constant");
}

}  // namespace
}  // namespace floe::sql::scalar
