#include "floe/util/strings.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(StringsTest, FoldsAsciiOnlyAndTrims) {
  EXPECT_EQ(AsciiLower("GZip-É"), "gzip-É");
  EXPECT_EQ(AsciiUpper("GZip-é"), "GZIP-é");
  EXPECT_EQ(TrimWhitespace(" \t a b \n"), "a b");
  EXPECT_EQ(TrimWhitespace("   "), "");
}

TEST(StringsTest, ComparesIgnoringAsciiCase) {
  EXPECT_TRUE(EqualsIgnoreCase("Streaming", "STREAMING"));
  EXPECT_FALSE(EqualsIgnoreCase("batch", "batches"));
  EXPECT_FALSE(EqualsIgnoreCase("É", "é"));
  EXPECT_TRUE(EqualsIgnoreCase("", ""));
}

}  // namespace
}  // namespace floe
