#include "floe/util/murmur3.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace floe {
namespace {

// Published MurmurHash3_x86_32 vectors, covering every tail length and non-zero seeds.
TEST(Murmur3Test, ReferenceVectors) {
  EXPECT_EQ(Murmur3Hash32("", 0), 0u);
  EXPECT_EQ(Murmur3Hash32("", 1), 0x514E28B7u);
  EXPECT_EQ(Murmur3Hash32("", 0xffffffff), 0x81F16F39u);
  EXPECT_EQ(Murmur3Hash32(std::string(4, '\0'), 0), 0x2362F9DEu);
  EXPECT_EQ(Murmur3Hash32("aaaa", 0x9747b28c), 0x5A97808Au);
  EXPECT_EQ(Murmur3Hash32("aaa", 0x9747b28c), 0x283E0130u);
  EXPECT_EQ(Murmur3Hash32("aa", 0x9747b28c), 0x5D211726u);
  EXPECT_EQ(Murmur3Hash32("a", 0x9747b28c), 0x7FA09EA6u);
  EXPECT_EQ(Murmur3Hash32("Hello, world!", 0x9747b28c), 0x24884CBAu);
  EXPECT_EQ(Murmur3Hash32("The quick brown fox jumps over the lazy dog", 0x9747b28c), 0x2FA826CDu);
}

// Every test value of the Iceberg spec's Appendix B.
TEST(Murmur3Test, IcebergAppendixBValues) {
  EXPECT_EQ(Murmur3HashInt(34), 2017239379);
  EXPECT_EQ(Murmur3HashLong(34), 2017239379);
  EXPECT_EQ(Murmur3HashDecimal(1420), -500754589);  // 14.20
  EXPECT_EQ(Murmur3HashDate(17486), -653330422);    // 2017-11-16
  const int64_t time_micros = (22LL * 3600 + 31 * 60 + 8) * 1000000;
  EXPECT_EQ(Murmur3HashTime(time_micros), -662762989);                // 22:31:08
  const int64_t ts_micros = 17486LL * 86400 * 1000000 + time_micros;  // 2017-11-16T22:31:08
  EXPECT_EQ(Murmur3HashTimestamp(ts_micros), -2047944441);
  EXPECT_EQ(Murmur3HashTimestamp(ts_micros + 1), -1207196810);
  // timestamptz 2017-11-16T14:31:08-08:00 is the same instant.
  EXPECT_EQ(Murmur3HashTimestamp(ts_micros), -2047944441);
  EXPECT_EQ(Murmur3HashTimestampNs(ts_micros * 1000), -2047944441);
  EXPECT_EQ(Murmur3HashTimestampNs(ts_micros * 1000 + 1001), -1207196810);  // .000001001
  EXPECT_EQ(Murmur3HashString("iceberg"), 1210000089);
  const std::string uuid = "\xF7\x9C\x3E\x09\x67\x7C\x4B\xBD\xA4\x79\x3F\x34\x9C\xB7\x85\xE7";
  EXPECT_EQ(Murmur3HashUuid(uuid), 1488055340);
  const std::string bytes("\x00\x01\x02\x03", 4);
  EXPECT_EQ(Murmur3HashFixed(bytes), -188683207);
  EXPECT_EQ(Murmur3HashBinary(bytes), -188683207);
  EXPECT_EQ(Murmur3HashBoolean(true), 1392991556);
  EXPECT_EQ(Murmur3HashFloat(1.0f), -142385009);
  EXPECT_EQ(Murmur3HashFloat(0.0f), 1669671676);
  EXPECT_EQ(Murmur3HashFloat(-0.0f), 1669671676);
  EXPECT_EQ(Murmur3HashDouble(1.0), -142385009);
  EXPECT_EQ(Murmur3HashDouble(0.0), 1669671676);
  EXPECT_EQ(Murmur3HashDouble(-0.0), 1669671676);
}

TEST(Murmur3Test, NegativeNanosRoundTowardNegativeInfinity) {
  // -1 ns is within the microsecond -1, not 0.
  EXPECT_EQ(Murmur3HashTimestampNs(-1), Murmur3HashTimestamp(-1));
  EXPECT_EQ(Murmur3HashTimestampNs(-1000), Murmur3HashTimestamp(-1));
  EXPECT_EQ(Murmur3HashTimestampNs(-1001), Murmur3HashTimestamp(-2));
}

TEST(Murmur3Test, DecimalUsesShortestTwosComplement) {
  // 0 is one zero byte; 128 needs a leading 0x00; -1 is 0xff; -129 is ff 7f.
  EXPECT_EQ(Murmur3HashDecimal(0), Murmur3HashBytes(std::string(1, '\0')));
  EXPECT_EQ(Murmur3HashDecimal(128), Murmur3HashBytes(std::string("\x00\x80", 2)));
  EXPECT_EQ(Murmur3HashDecimal(-1), Murmur3HashBytes("\xff"));
  EXPECT_EQ(Murmur3HashDecimal(-128), Murmur3HashBytes("\x80"));
  EXPECT_EQ(Murmur3HashDecimal(-129), Murmur3HashBytes("\xff\x7f"));
  EXPECT_EQ(Murmur3HashDecimal(1420), Murmur3HashBytes("\x05\x8c"));
}

TEST(Murmur3Test, NaNIsCanonical) {
  const double quiet = std::numeric_limits<double>::quiet_NaN();
  const double other = std::bit_cast<double>(uint64_t{0x7ff0000000000001});
  EXPECT_EQ(Murmur3HashDouble(quiet), Murmur3HashDouble(other));
  EXPECT_EQ(Murmur3HashDouble(-quiet), Murmur3HashDouble(quiet));
  EXPECT_EQ(Murmur3HashFloat(std::numeric_limits<float>::quiet_NaN()), Murmur3HashDouble(quiet));
  EXPECT_EQ(Murmur3HashDouble(quiet), Murmur3HashLong(0x7ff8000000000000LL));
}

}  // namespace
}  // namespace floe
