#include "floe/util/xxhash64.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace floe {
namespace {

// The first four are xxHash's published vectors; the others were computed by ClickHouse's
// xxHash64() (an independent implementation), covering the 32-byte stripes and every tail length.
TEST(XxHash64Test, ReferenceVectors) {
  EXPECT_EQ(XxHash64(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(XxHash64("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(XxHash64("abc"), 0x44BC2CF5AD770999ULL);
  EXPECT_EQ(XxHash64("Nobody inspects the spammish repetition"), 0xFBCEA83C8A378BF1ULL);
  EXPECT_EQ(XxHash64("The quick brown fox jumps over the lazy dog and keeps running far"),
            0x10E777739C224C4BULL);
  std::string hundred;
  for (int i = 0; i < 10; ++i) hundred += "0123456789";
  EXPECT_EQ(XxHash64(hundred), 0xF80E7B96315AFFFAULL);
}

TEST(XxHash64Test, FixedWidthMatchesBytes) {
  uint64_t v8 = 0x8877665544332211ULL;
  uint32_t v4 = 0x44332211U;
  EXPECT_EQ(XxHash64Fixed8(v8), 0xC8858779AC125635ULL);
  EXPECT_EQ(XxHash64Fixed4(v4), 0x1957D726844DCB98ULL);
  char bytes[8];
  std::memcpy(bytes, &v8, 8);
  EXPECT_EQ(XxHash64(std::string_view(bytes, 8)), XxHash64Fixed8(v8));
  std::memcpy(bytes, &v4, 4);
  EXPECT_EQ(XxHash64(std::string_view(bytes, 4)), XxHash64Fixed4(v4));
}

}  // namespace
}  // namespace floe
