#include "floe/util/utf8.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

// The Unicode standard's well-formed byte sequences (Table 3-7).
TEST(Utf8Test, TellsWellFormedUtf8) {
  EXPECT_TRUE(IsUtf8("plain, é, \xE2\x82\xAC, \xF0\x9F\x98\x80"));
  EXPECT_TRUE(IsUtf8(""));
  EXPECT_FALSE(IsUtf8("\xC3"));              // cut short
  EXPECT_FALSE(IsUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsUtf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(IsUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsUtf8("\x80"));              // a lone continuation byte
}

}  // namespace
}  // namespace floe
