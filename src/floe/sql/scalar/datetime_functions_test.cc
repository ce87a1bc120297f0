// Date and time functions against DuckDB on the sample rows, and Flink's documented behaviour
// where DuckDB differs (DAYOFWEEK numbering, Java date patterns).

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::ExpectSameAsDuckDb;

TEST(DateTimeFunctionsTest, LikeDuckDb) {
  ExpectSameAsDuckDb({
      {"EXTRACT(YEAR FROM ts)", ""},
      {"EXTRACT(MONTH FROM dt)", ""},
      {"EXTRACT(DAY FROM ts)", ""},
      {"EXTRACT(HOUR FROM ts)", ""},
      {"EXTRACT(MINUTE FROM ts)", ""},
      {"EXTRACT(SECOND FROM ts)", "second(ts)"},
      {"EXTRACT(QUARTER FROM dt)", ""},
      {"EXTRACT(WEEK FROM dt)", ""},
      {"EXTRACT(DOY FROM dt)", ""},
      {"YEAR(dt)", ""},
      {"MONTH(ts)", ""},
      {"DAYOFMONTH(dt)", ""},
      {"HOUR(ts)", ""},
      {"MINUTE(ts)", ""},
      {"SECOND(ts)", ""},
      // Flink (Calcite) numbers days Sunday 1 .. Saturday 7; DuckDB's dayofweek is Sunday 0.
      {"DAYOFWEEK(dt)", "dayofweek(dt) + 1"},
      {"dt + INTERVAL '1' DAY", "CAST(dt + INTERVAL '1' DAY AS DATE)"},
      {"dt - INTERVAL '1' MONTH", "CAST(dt - INTERVAL '1' MONTH AS DATE)"},
      {"dt + INTERVAL '1-2' YEAR TO MONTH", "CAST(dt + INTERVAL 14 MONTH AS DATE)"},
      {"ts + INTERVAL '2 03:04:05.5' DAY TO SECOND",
       "ts + INTERVAL 2 DAY + INTERVAL 3 HOUR + INTERVAL 4 MINUTE + INTERVAL 5500 MILLISECOND"},
      {"ts - INTERVAL '90' MINUTE", ""},
      {"TIMESTAMPADD(MONTH, 1, ts)", "ts + INTERVAL 1 MONTH"},
      {"TIMESTAMPADD(HOUR, -5, ts)", "ts - INTERVAL 5 HOUR"},
      {"TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00')",
       "datediff('day', ts, TIMESTAMP '2024-03-01 00:00:00') - CASE WHEN ts::TIME > TIME "
       "'00:00:00' AND ts < TIMESTAMP '2024-03-01 00:00:00' THEN 1 ELSE 0 END"},
      {"DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss')", "strftime(ts, '%Y-%m-%d %H:%M:%S')"},
      {"DATE_FORMAT(dt, 'dd/MM/yy')", "strftime(dt, '%d/%m/%y')"},
      {"TO_DATE(CAST(dt AS STRING))", "dt"},
      {"TO_TIMESTAMP(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'))", "date_trunc('second', ts)"},
  });
}

TEST(DateTimeFunctionsTest, FlinkDocumented) {
  // Flink docs: TO_DATE('2018-03-14', 'yyyy-MM-dd'), TO_TIMESTAMP(string1[, string2]) with
  // 'yyyy-MM-dd HH:mm:ss' by default; an unparsable text gives NULL.
  EXPECT_EQ(EvalOne("TO_DATE('14.03.2018', 'dd.MM.yyyy')"), "2018-03-14");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP('2018-03-14 10:11:12')"), "2018-03-14 10:11:12");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP('20180314101112', 'yyyyMMddHHmmss')"), "2018-03-14 10:11:12");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP('nope')"), "NULL");
  EXPECT_EQ(
      EvalOne("DATE_FORMAT(TIMESTAMP '2018-03-14 10:11:12.5', 'yyyy-MM-dd''T''HH:mm:ss.SSS')"),
      "2018-03-14T10:11:12.500");
  // Month arithmetic clamps to the month's end (Calcite/Java LocalDate.plusMonths).
  EXPECT_EQ(EvalOne("DATE '2024-01-31' + INTERVAL '1' MONTH"), "2024-02-29");
  EXPECT_EQ(EvalOne("TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-29')"), "0");
  EXPECT_EQ(EvalOne("TIMESTAMPDIFF(YEAR, DATE '2020-02-29', DATE '2024-02-29')"), "4");
  EXPECT_EQ(EvalOne("EXTRACT(FOO FROM ts)"),
            "BIND ERROR: line 1, column 1: EXTRACT: unknown time unit FOO");
  EXPECT_EQ(EvalOne("YEAR(s)"),
            "BIND ERROR: line 1, column 1: YEAR: argument 1 must be a date, time or timestamp, "
            "not STRING");
  EXPECT_EQ(EvalOne("s + INTERVAL '1' DAY"),
            "BIND ERROR: line 1, column 1: cannot add an INTERVAL to STRING");
}

TEST(DateTimeFunctionsTest, UnixTimeLikeDuckDb) {
  ExpectSameAsDuckDb({
      {"FROM_UNIXTIME(i)", "strftime(TIMESTAMP '1970-01-01' + to_seconds(i), '%Y-%m-%d %H:%M:%S')"},
      {"FROM_UNIXTIME(j * 86399, 'yyyy/MM/dd HH')",
       "strftime(TIMESTAMP '1970-01-01' + to_seconds(j * 86399), '%Y/%m/%d %H')"},
      {"UNIX_TIMESTAMP(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'))",
       "CAST(floor(epoch(ts)) AS BIGINT)"},
      {"UNIX_TIMESTAMP(CAST(dt AS STRING), 'yyyy-MM-dd')", "CAST(epoch(dt) AS BIGINT)"},
      {"TO_TIMESTAMP_LTZ(i, 0)", "TIMESTAMP '1970-01-01' + to_seconds(i)"},
      {"TO_TIMESTAMP_LTZ(i)", "TIMESTAMP '1970-01-01' + to_milliseconds(i)"},
      {"TO_TIMESTAMP_LTZ(x, 3)", "TIMESTAMP '1970-01-01' + to_milliseconds(floor(x)::BIGINT)"},
  });
  // Flink docs: FROM_UNIXTIME(44) is '1970-01-01 00:00:44' in UTC; UNIX_TIMESTAMP of a text that
  // does not parse is Long.MIN_VALUE (DateTimeUtils.unixTimestamp).
  EXPECT_EQ(EvalOne("FROM_UNIXTIME(44)"), "1970-01-01 00:00:44");
  EXPECT_EQ(EvalOne("FROM_UNIXTIME(NULL)"), "NULL");
  EXPECT_EQ(EvalOne("UNIX_TIMESTAMP('1970-01-01 00:01:40')"), "100");
  EXPECT_EQ(EvalOne("UNIX_TIMESTAMP('nope')"), "-9223372036854775808");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP_LTZ(1500, 3)"), "1970-01-01 00:00:01.5");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP_LTZ(-1, 0)"), "1969-12-31 23:59:59");
  EXPECT_EQ(EvalOne("TO_TIMESTAMP_LTZ(i, 6)"),
            "BIND ERROR: line 1, column 1: TO_TIMESTAMP_LTZ: the precision must be the constant 0 "
            "(seconds) or 3 (millis)");
  EXPECT_EQ(
      EvalOne("FROM_UNIXTIME(s)"),
      "BIND ERROR: line 1, column 1: FROM_UNIXTIME: argument 1 must be an integer, not STRING");
  const std::string now = EvalOne("UNIX_TIMESTAMP()");
  EXPECT_GT(std::stoll(now), 1'700'000'000) << now;
}

TEST(DateTimeFunctionsTest, CurrentTimeIsNow) {
  // CURRENT_DATE has no parentheses in Flink; it is not a column.
  const std::string today = EvalOne("CURRENT_DATE");
  EXPECT_EQ(today.size(), 10u) << today;
  EXPECT_EQ(EvalOne("CURRENT_DATE = CAST(CURRENT_TIMESTAMP AS DATE)").substr(0, 4), "true");
  EXPECT_EQ(EvalOne("NOW() > TIMESTAMP '2020-01-01 00:00:00'"),
            "BIND ERROR: line 1, column 1: cannot compare with '>' TIMESTAMP_LTZ(6) and "
            "TIMESTAMP(6)");
  EXPECT_EQ(EvalOne("LOCALTIMESTAMP > TIMESTAMP '2020-01-01 00:00:00'"), "true");
}

}  // namespace
}  // namespace floe::sql::scalar
