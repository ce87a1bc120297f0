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

}  // namespace
}  // namespace floe
