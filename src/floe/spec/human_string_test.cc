#include "floe/spec/human_string.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "floe/spec/literal.h"

namespace floe {
namespace {

using namespace types;

// Partition directory names that Spark (through Iceberg Java) wrote into the shared test data
// (duckdb-iceberg/data/persistent/partition_*), before URL-encoding.
TEST(HumanStringTest, MatchesWhatIcebergJavaWroteInTestData) {
  EXPECT_EQ(HumanString(Literal::Decimal(0, 16, 11)), "0E-11");
  EXPECT_EQ(HumanString(Literal::Decimal(1, 16, 11)), "1E-11");
  EXPECT_EQ(HumanString(Literal::Decimal(-12345678901, 16, 11)), "-0.12345678901");
  EXPECT_EQ(HumanString(Literal::Decimal(999999999999999, 16, 11)), "9999.99999999999");
  EXPECT_EQ(HumanString(Literal::Decimal(0, 36, 23)), "0E-23");
  EXPECT_EQ(HumanString(Literal::Decimal(1, 36, 23)), "1E-23");
  for (const char* text : {"0.50000000000000000000000", "-1000000000000.00000000000000000001000",
                           "123456789.45678901234567890123456"}) {
    auto value = Literal::FromJson(Decimal(36, 23), Json(text));
    ASSERT_TRUE(value.has_value()) << value.error().ToString();
    EXPECT_EQ(HumanString(*value), text);
  }
  EXPECT_EQ(HumanString(Literal::Decimal(12300, 8, 4)), "1.2300");
  EXPECT_EQ(HumanString(Literal::Binary("\x01\x02\x03")), "AQID");
  EXPECT_EQ(HumanString(Literal::Binary("\xaa\xbb\xcc")), "qrvM");
  EXPECT_EQ(HumanString(Literal::Fixed("fixed value")), "Zml4ZWQgdmFsdWU=");
  EXPECT_EQ(HumanString(Literal::Fixed("hello world")), "aGVsbG8gd29ybGQ=");
  EXPECT_EQ(HumanString(Literal::Float(3.1415927f)), "3.1415927");
  EXPECT_EQ(HumanString(Literal::Float(1.23f)), "1.23");
  EXPECT_EQ(HumanString(Literal::Long(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(HumanString(Literal::Boolean(false)), "false");
  EXPECT_EQ(HumanString(Literal::Time((8 * 3600 + 21 * 60 + 9) * 1000000LL)), "08:21:09");
  EXPECT_EQ(HumanString(Literal::Timestamp(1684161045000000)), "2023-05-15T14:30:45");
  EXPECT_EQ(HumanString(Literal::TimestampTz(1684161045000000)), "2023-05-15T14:30:45+00:00");
}

TEST(HumanStringTest, JavaTimeFormats) {
  // LocalTime.toString drops zero seconds and prints fractions in groups of three digits.
  EXPECT_EQ(HumanString(Literal::Time(10 * 3600 * 1000000LL)), "10:00");
  EXPECT_EQ(HumanString(Literal::Time(10 * 3600 * 1000000LL + 250000)), "10:00:00.250");
  EXPECT_EQ(HumanString(Literal::Time(1)), "00:00:00.000001");
  // ISO_LOCAL_DATE_TIME keeps seconds and strips trailing fraction zeros.
  EXPECT_EQ(HumanString(Literal::Timestamp(0)), "1970-01-01T00:00:00");
  EXPECT_EQ(HumanString(Literal::Timestamp(500000)), "1970-01-01T00:00:00.5");
  EXPECT_EQ(HumanString(Literal::Timestamp(-1)), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(HumanString(Literal::TimestampNs(1)), "1970-01-01T00:00:00.000000001");
  EXPECT_EQ(HumanString(Literal::TimestampTzNs(-1000)), "1969-12-31T23:59:59.999999+00:00");
  EXPECT_EQ(HumanString(Literal::Date(-1)), "1969-12-31");
  // Far years: java.time pads the digits after the sign, String.format("%04d") (used for dates and
  // the time transforms) pads the whole number.
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  EXPECT_EQ(HumanString(Literal::Timestamp(2932897 * kMicrosPerDay)), "+10000-01-01T00:00:00");
  EXPECT_EQ(HumanString(Literal::Timestamp(-719162 * kMicrosPerDay)), "0001-01-01T00:00:00");
  EXPECT_EQ(HumanString(Literal::Timestamp(-719893 * kMicrosPerDay)), "-0001-01-01T00:00:00");
  EXPECT_EQ(HumanString(Literal::Date(-719893)), "-001-01-01");
}

TEST(HumanStringTest, JavaNumberFormats) {
  EXPECT_EQ(HumanString(Literal::Double(1.0)), "1.0");
  EXPECT_EQ(HumanString(Literal::Double(100.0)), "100.0");
  EXPECT_EQ(HumanString(Literal::Double(0.001)), "0.001");
  EXPECT_EQ(HumanString(Literal::Double(0.0001)), "1.0E-4");
  EXPECT_EQ(HumanString(Literal::Double(1e7)), "1.0E7");
  EXPECT_EQ(HumanString(Literal::Double(9999999.0)), "9999999.0");
  EXPECT_EQ(HumanString(Literal::Double(-1.5e-10)), "-1.5E-10");
  EXPECT_EQ(HumanString(Literal::Double(123456.789)), "123456.789");
  EXPECT_EQ(HumanString(Literal::Double(-0.0)), "-0.0");
  EXPECT_EQ(HumanString(Literal::Double(std::numeric_limits<double>::quiet_NaN())), "NaN");
  EXPECT_EQ(HumanString(Literal::Double(-std::numeric_limits<double>::infinity())), "-Infinity");
  EXPECT_EQ(HumanString(Literal::Float(1.0e10f)), "1.0E10");
  EXPECT_EQ(HumanString(Literal::Decimal(1234, 9, 0)), "1234");
  EXPECT_EQ(HumanString(Literal::Decimal(-5, 9, 3)), "-0.005");
  EXPECT_EQ(HumanString(Literal::Decimal(123, 9, 9)), "1.23E-7");
}

TEST(HumanStringTest, OtherTypes) {
  EXPECT_EQ(HumanString(Literal::Null(String())), "null");
  EXPECT_EQ(HumanString(Literal::String("a/b c")), "a/b c");
  EXPECT_EQ(HumanString(Literal::Uuid(std::string(
                "\xF7\x9C\x3E\x09\x67\x7C\x4B\xBD\xA4\x79\x3F\x34\x9C\xB7\x85\xE7", 16))),
            "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(HumanString(Literal::Binary("")), "");
  EXPECT_EQ(HumanString(Literal::Binary("ab")), "YWI=");
}

TEST(HumanStringTest, TimeTransformResults) {
  EXPECT_EQ(HumanYear(56), "2026");
  EXPECT_EQ(HumanYear(-1), "1969");
  EXPECT_EQ(HumanMonth(56 * 12), "2026-01");
  EXPECT_EQ(HumanMonth(-1), "1969-12");
  EXPECT_EQ(HumanMonth(-13), "1968-12");
  EXPECT_EQ(HumanDay(17486), "2017-11-16");
  EXPECT_EQ(HumanHour(-1), "1969-12-31-23");
  EXPECT_EQ(HumanHour(-365 * 24), "1969-01-01-00");
}

}  // namespace
}  // namespace floe
