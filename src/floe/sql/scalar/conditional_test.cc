// CASE, IF, COALESCE, IFNULL and NULLIF against DuckDB on the sample rows, and the lazy
// evaluation of branches that Flink's row-at-a-time code has.

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::EvalSample;
using testing::ExpectSameAsDuckDb;

TEST(ConditionalTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"CASE WHEN i > 0 THEN 'pos' WHEN i < 0 THEN 'neg' ELSE 'zero or null' END", ""},
      {"CASE WHEN i > 0 THEN x END", ""},
      {"CASE i WHEN 1 THEN 'one' WHEN 12 THEN 'twelve' END", ""},
      {"CASE b WHEN TRUE THEN i ELSE j END", ""},
      {"CASE WHEN b THEN dec ELSE x END", ""},
      {"CASE WHEN s = 'abc' THEN dt ELSE DATE '2000-01-01' END", ""},
      {"IF(i > j, i, j)", "CASE WHEN i > j THEN i ELSE j END"},
      {"COALESCE(i, j, 0)", ""},
      {"COALESCE(s, 'none')", ""},
      {"IFNULL(x, -1)", "COALESCE(x, -1)"},
      {"NULLIF(i, 1)", ""},
      {"NULLIF(s, '')", ""},
      // Only rows that take a branch evaluate it: no division by zero here.
      {"CASE WHEN j = 0 OR j IS NULL THEN -1 ELSE i / j END",
       "CASE WHEN j = 0 OR j IS NULL THEN -1 ELSE i // j END"},
      {"COALESCE(x, 1 / i)", "COALESCE(x, 1 // i)"},
  });
}

// Flink's GREATEST and LEAST are null when any argument is; DuckDB's skip nulls, so its side
// writes the null check out.
TEST(ConditionalTest, GreatestLeastLikeDuckDb) {
  ExpectSameAsDuckDb({
      {"GREATEST(i, j)", "CASE WHEN i IS NULL OR j IS NULL THEN NULL ELSE greatest(i, j) END"},
      {"LEAST(i, j, 0)", "CASE WHEN i IS NULL OR j IS NULL THEN NULL ELSE least(i, j, 0) END"},
      {"GREATEST(x, dec)",
       "CASE WHEN x IS NULL OR dec IS NULL THEN NULL ELSE greatest(x, dec) END"},
      {"LEAST(s, 'b')", "CASE WHEN s IS NULL THEN NULL ELSE least(s, 'b') END"},
      {"GREATEST(dt, DATE '2000-01-01')",
       "CASE WHEN dt IS NULL THEN NULL ELSE greatest(dt, DATE '2000-01-01') END"},
      {"LEAST(ts, TIMESTAMP '2000-01-01 00:00:00')",
       "CASE WHEN ts IS NULL THEN NULL ELSE least(ts, TIMESTAMP '2000-01-01 00:00:00') END"},
  });
  EXPECT_EQ(EvalOne("GREATEST(1, NULL)"), "NULL");
  EXPECT_EQ(EvalOne("GREATEST(1, 2.5, 2)"), "2.5");
  EXPECT_EQ(EvalOne("LEAST(i, dt)"),
            "BIND ERROR: line 1, column 1: LEAST: no common type for INT and DATE");
}

TEST(ConditionalTest, TypesAndErrors) {
  EXPECT_EQ(EvalOne("CASE WHEN i THEN 1 END"),
            "BIND ERROR: line 1, column 1: a condition must be BOOLEAN, not INT");
  EXPECT_EQ(EvalOne("COALESCE(i, dt)"),
            "BIND ERROR: line 1, column 1: COALESCE: no common type for INT and DATE");
  EXPECT_EQ(EvalOne("CASE WHEN FALSE THEN 1 ELSE 2 END"), "2");
  EXPECT_EQ(EvalOne("COALESCE(NULL, NULL)"), "NULL");
  // A division by zero on a row that takes the branch is still an error.
  EXPECT_EQ(EvalOne("CASE WHEN i = 0 THEN 1 / i END").rfind("EVAL ERROR: ", 0), 0u);
}

}  // namespace
}  // namespace floe::sql::scalar
