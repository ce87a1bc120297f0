// String functions, LIKE and || against DuckDB on the sample rows where DuckDB's semantics are
// Flink's, and against the examples and rules of Flink's function documentation where not.

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::EvalSample;
using testing::ExpectSameAsDuckDb;

TEST(StringFunctionsTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"UPPER(s)", ""},
      {"LOWER(s)", ""},
      {"REVERSE(s)", ""},
      {"TRIM(s)", ""},
      {"LTRIM(s)", ""},
      {"RTRIM(s)", ""},
      {"TRIM(BOTH 'a' FROM s)", "trim(s, 'a')"},
      {"TRIM(LEADING ' p' FROM s)", "ltrim(s, ' p')"},
      {"TRIM(TRAILING 'c' FROM s)", "rtrim(s, 'c')"},
      // Flink's CONCAT is null when an argument is (DuckDB's skips nulls; its || does not).
      {"CONCAT(s, '-', s)", "s || '-' || s"},
      {"CONCAT_WS('-', s, NULL, 'x')", ""},
      {"s || '!'", ""},
      {"i || s", ""},
      {"REPLACE(s, 'l', 'LL')", ""},
      {"CHAR_LENGTH(s)", "length(s)"},
      {"CHARACTER_LENGTH(s)", "length(s)"},
      {"POSITION('l' IN s)", ""},
      {"SUBSTRING(s, 2, 3)", ""},
      {"SUBSTRING(s FROM 2)", "substring(s, 2)"},
      {"SUBSTRING(s FROM 1 FOR 2)", "substring(s, 1, 2)"},
      {"SUBSTR(s, -3)", "substring(s, -3)"},
      {"LPAD(s, 6, '*')", ""},
      {"RPAD(s, 6, 'xy')", ""},
      {"SPLIT_INDEX(s, ' ', 0)", "split_part(s, ' ', 1)"},
      {"REGEXP_REPLACE(s, '[aeiou]', '#')", "regexp_replace(s, '[aeiou]', '#', 'g')"},
      {"REGEXP_EXTRACT(s, '([a-z])([a-z]+)', 2)",
       "NULLIF(regexp_extract(s, '([a-z])([a-z]+)', 2), '')"},
      {"s LIKE 'a%'", ""},
      {"s LIKE '%o W%'", ""},
      {"s LIKE '_b_'", ""},
      {"s LIKE '%l_o%'", ""},
      {"s NOT LIKE '%l%'", ""},
      {"s LIKE 'a!_b!%c' ESCAPE '!'", ""},
      {"s LIKE 'Hello World'", ""},
      {"s LIKE '%d'", ""},
      {"REPEAT(s, 2)", ""},
      {"REPEAT(s, j)", "repeat(s, CASE WHEN j < 0 THEN 0 ELSE j END)"},
      {"LEFT(s, 2)", ""},
      {"RIGHT(s, 3)", ""},
      {"LEFT(s, j)", "left(s, CASE WHEN j < 0 THEN 0 ELSE j END)"},
      {"INSTR(s, 'l')", ""},
      {"INSTR(s, '')", ""},
      {"LOCATE('l', s)", "instr(s, 'l')"},
      {"REGEXP(s, '[lo]+')", "regexp_matches(s, '[lo]+')"},
      {"REGEXP(s, '^a')", "regexp_matches(s, '^a')"},
      {"ASCII(s)", ""},
  });
}

TEST(StringFunctionsTest, FlinkDocumentedAdditions) {
  // Flink docs: REPEAT('This is a test String.', 2); LEFT / RIGHT give '' for a negative length;
  // LOCATE finds after a position, 0 when not found; INSTR('abc', 'c') is 3.
  EXPECT_EQ(EvalOne("REPEAT('ab', 3)"), "ababab");
  EXPECT_EQ(EvalOne("REPEAT('ab', -1)"), "");
  EXPECT_EQ(EvalOne("LEFT('héllo', 2)"), "hé");
  EXPECT_EQ(EvalOne("LEFT('abc', -1)"), "");
  EXPECT_EQ(EvalOne("RIGHT('héllo', 4)"), "éllo");
  EXPECT_EQ(EvalOne("RIGHT('abc', 10)"), "abc");
  EXPECT_EQ(EvalOne("LOCATE('b', 'abcb', 3)"), "4");
  EXPECT_EQ(EvalOne("LOCATE('b', 'abcb', 5)"), "0");
  EXPECT_EQ(EvalOne("LOCATE('é', 'héé', 3)"), "3");
  EXPECT_EQ(EvalOne("LOCATE('x', 'abc')"), "0");
  EXPECT_EQ(EvalOne("LOCATE('b', 'abc', NULL)"), "NULL");
  EXPECT_EQ(EvalOne("INSTR('abc', 'c')"), "3");
  EXPECT_EQ(EvalOne("REGEXP('abc', 'x')"), "false");
  EXPECT_EQ(EvalOne("REGEXP(NULL, 'x')"), "NULL");
  EXPECT_EQ(EvalOne("ASCII('A')"), "65");
  EXPECT_EQ(EvalOne("ASCII('')"), "0");
  EXPECT_EQ(EvalOne("CHR(97)"), "a");
  EXPECT_EQ(EvalOne("CHR(353)"), "b");  // 353 % 255 = 98
  EXPECT_EQ(EvalOne("CHR(233)"), "é");
  EXPECT_EQ(EvalOne("CHR(-1)"), "NULL");
  EXPECT_EQ(EvalOne("REGEXP('a', '(')").rfind("EVAL ERROR: line 1, column 1: ", 0), 0u);
  EXPECT_EQ(EvalOne("REPEAT('a', 'b')"),
            "BIND ERROR: line 1, column 1: REPEAT: argument 2 must be an integer, not STRING");
}

TEST(StringFunctionsTest, UuidIsRandomVersion4) {
  std::vector<std::string> values = EvalSample("UUID()");
  ASSERT_EQ(values.size(), 6u);
  for (const std::string& v : values) {
    ASSERT_EQ(v.size(), 36u) << v;
    EXPECT_EQ(v[14], '4') << v;
    EXPECT_EQ(v[8], '-');
  }
  EXPECT_NE(values[0], values[1]);
}

TEST(StringFunctionsTest, FlinkDocumentedEdges) {
  // Flink docs, LPAD/RPAD: "LPAD('hi', 4, '??') returns '??hi'; LPAD('hi', 1, '??') returns 'h'".
  EXPECT_EQ(EvalOne("LPAD('hi', 4, '?"
                    "?')"),
            "?"
            "?hi");
  EXPECT_EQ(EvalOne("LPAD('hi', 1, '?"
                    "?')"),
            "h");
  EXPECT_EQ(EvalOne("RPAD('hi', 4, '?"
                    "?')"),
            "hi?"
            "?");
  EXPECT_EQ(EvalOne("RPAD('hi', 1, '?"
                    "?')"),
            "h");
  // Flink docs, CONCAT: "Returns NULL if any argument is NULL"; CONCAT_WS skips NULL arguments
  // and keeps empty ones: CONCAT_WS('~', 'AA', NULL, 'BB', '', 'CC') is 'AA~BB~~CC'.
  EXPECT_EQ(EvalOne("CONCAT('AA', 'BB', 'CC')"), "AABBCC");
  EXPECT_EQ(EvalOne("CONCAT('AA', NULL)"), "NULL");
  EXPECT_EQ(EvalOne("CONCAT_WS('~', 'AA', NULL, 'BB', '', 'CC')"), "AA~BB~~CC");
  EXPECT_EQ(EvalOne("CONCAT_WS(NULL, 'AA')"), "NULL");
  // Flink docs, REGEXP_REPLACE('foobar', 'oo|ar', '') is 'fb'; REGEXP_EXTRACT('foothebar',
  // 'foo(.*?)(bar)', 2) is 'bar'.
  EXPECT_EQ(EvalOne("REGEXP_REPLACE('foobar', 'oo|ar', '')"), "fb");
  EXPECT_EQ(EvalOne("REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)"), "bar");
  EXPECT_EQ(EvalOne("REGEXP_EXTRACT('foothebar', 'x(y)', 1)"), "NULL");
  // Flink docs, SUBSTRING: positions start at 1 (0 counts as 1).
  EXPECT_EQ(EvalOne("SUBSTRING('abcd', 0, 2)"), "ab");
  EXPECT_EQ(EvalOne("SUBSTRING('abcd', 1, 2)"), "ab");
  EXPECT_EQ(EvalOne("SUBSTRING('héllo', 2, 3)"), "éll");
  // Flink docs, SPLIT_INDEX: the zero-based piece, NULL for a negative index (and beyond the end).
  EXPECT_EQ(EvalOne("SPLIT_INDEX('Jack,John,Mary', ',', 2)"), "Mary");
  EXPECT_EQ(EvalOne("SPLIT_INDEX('Jack,John,Mary', ',', -1)"), "NULL");
  EXPECT_EQ(EvalOne("SPLIT_INDEX('Jack,John,Mary', ',', 3)"), "NULL");
  // Flink docs, INITCAP: first character of each word upper case, the rest lower case; a word is
  // a run of alphanumeric characters.
  EXPECT_EQ(EvalOne("INITCAP('hELLO wORLD-foo 1st')"), "Hello World-Foo 1st");
  // Flink docs, POSITION: 0 when not found; CHAR_LENGTH counts characters.
  EXPECT_EQ(EvalOne("POSITION('z' IN 'abc')"), "0");
  EXPECT_EQ(EvalOne("CHAR_LENGTH('héllo')"), "5");
  EXPECT_EQ(EvalOne("REVERSE('héllo')"), "olléh");
}

TEST(StringFunctionsTest, Errors) {
  EXPECT_EQ(EvalOne("UPPER(i)"),
            "BIND ERROR: line 1, column 1: UPPER: argument 1 must be a STRING, not INT");
  EXPECT_EQ(EvalOne("SUBSTRING(s, 'a')"),
            "BIND ERROR: line 1, column 1: SUBSTRING: argument 2 must be an integer, not STRING");
  EXPECT_EQ(EvalOne("LOWER(s, s)"), "BIND ERROR: line 1, column 1: LOWER takes 1 argument, got 2");
  EXPECT_EQ(EvalOne("s LIKE 'a!' ESCAPE '!'"),
            "BIND ERROR: line 1, column 1: invalid escape sequence in LIKE pattern 'a!'");
  EXPECT_EQ(EvalOne("REGEXP_REPLACE(s, '(', 'x')").rfind("EVAL ERROR: line 1, column 1: ", 0), 0u);
}

TEST(StringFunctionsTest, LikePrefixPushesDownAsStartsWith) {
  Scope scope({{"t", "name", ::floe::DataType::String(), true, 7}});
  auto pushed = [&](std::string_view sql) {
    auto bound = BindScalar(**ParseExpression(sql), scope);
    EXPECT_TRUE(bound) << bound.error().ToString();
    return ToIcebergFilter(**bound, scope)->ToString();
  };
  EXPECT_EQ(pushed("name LIKE 'ab%'"), "name starts_with 'ab'");
  EXPECT_EQ(pushed("name NOT LIKE 'ab%'"), "(name not_starts_with 'ab' and name is not null)");
  EXPECT_EQ(pushed("name LIKE 'a_%'"), "true");
  EXPECT_EQ(pushed("name IN ('a', 'b')"), "name in ('a', 'b')");
  EXPECT_EQ(pushed("name NOT IN ('a')"), "(name not in ('a') and name is not null)");
}

}  // namespace
}  // namespace floe::sql::scalar
