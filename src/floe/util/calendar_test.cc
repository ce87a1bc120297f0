#include "floe/util/calendar.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

std::string Date(int64_t days) {
  std::string out;
  AppendIsoDate(out, days);
  return out;
}

std::string Timestamp(int64_t value, int64_t per_second, bool utc) {
  std::string out;
  AppendIsoTimestamp(out, value, per_second, utc);
  return out;
}

// Expected day counts are those of Python's datetime.date(...).toordinal() - 719163.
TEST(CalendarTest, DaysAndDatesAgreeBothWays) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(11016), "2000-02-29");
  EXPECT_EQ(Date(20423), "2025-12-01");
  EXPECT_EQ(Date(-719162), "0001-01-01");
  EXPECT_EQ(Date(2932896), "9999-12-31");
  EXPECT_EQ(Date(2932897), "+10000-01-01");
  EXPECT_EQ(Date(-719163), "0000-12-31");
  EXPECT_EQ(Date(-719529), "-0001-12-31");
  for (int64_t days = -800000; days <= 3000000; days += 997) {
    const CivilDate date = CivilFromDays(days);
    ASSERT_EQ(DaysFromCivil(date.year, date.month, date.day), days);
    ASSERT_LE(date.day, DaysInMonth(date.year, date.month));
  }
}

// A precision keeps that many fraction digits and drops only zeros past it, as Flink's
// TimestampStringUtils.timestampToString does.
TEST(CalendarTest, FractionDigitsFollowThePrecision) {
  auto shown = [](int64_t micros, int precision) {
    std::string out;
    AppendIsoTimestamp(out, micros, 1'000'000, false, precision);
    return out;
  };
  EXPECT_EQ(shown(0, 0), "1970-01-01T00:00:00");
  EXPECT_EQ(shown(0, 3), "1970-01-01T00:00:00.000");
  EXPECT_EQ(shown(4'001'000, 3), "1970-01-01T00:00:04.001");
  EXPECT_EQ(shown(4'001'000, 0), "1970-01-01T00:00:04.001");
  EXPECT_EQ(shown(4'001'500, 3), "1970-01-01T00:00:04.0015");
  EXPECT_EQ(shown(-1, 0), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(shown(4'001'000, 9), "1970-01-01T00:00:04.001000");
  std::string time;
  AppendIsoTimeOfDay(time, 37'800'500'000'000, 1'000'000'000, 1);
  EXPECT_EQ(time, "10:30:00.5");
}

TEST(CalendarTest, FloorDivisionForPreEpochValues) {
  EXPECT_EQ(FloorDiv(-1, 1000), -1);
  EXPECT_EQ(FloorMod(-1, 1000), 999);
  EXPECT_EQ(FloorDiv(-1000, 1000), -1);
  EXPECT_EQ(FloorMod(-1000, 1000), 0);
  EXPECT_EQ(FloorDiv(7, 2), 3);
  // The ends of the range, where a - FloorDiv(a, b) * b would overflow.
  EXPECT_EQ(FloorMod(INT64_MIN, 86'400'000'000), 71'945'224'192);  // Python: -2**63 % 86400000000
  EXPECT_EQ(FloorMod(INT64_MAX, 1'000), 807);
}

TEST(CalendarTest, TimestampsInEveryUnit) {
  EXPECT_EQ(Timestamp(-1, 1'000'000, false), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(Timestamp(1'510'871'468'123'456, 1'000'000, true), "2017-11-16T22:31:08.123456+00:00");
  EXPECT_EQ(Timestamp(1'510'871'468'123'456'789, 1'000'000'000, false),
            "2017-11-16T22:31:08.123456789");
  EXPECT_EQ(Timestamp(86'399'999, 1'000, false), "1970-01-01T23:59:59.999");
  EXPECT_EQ(Timestamp(86'400, 1, false), "1970-01-02T00:00:00");
}

TEST(CalendarTest, HexIsLowerCase) {
  std::string out = "x";
  AppendHex(out, std::string("\x00\xff\x1a", 3));
  EXPECT_EQ(out, "x00ff1a");
}

}  // namespace
}  // namespace floe
