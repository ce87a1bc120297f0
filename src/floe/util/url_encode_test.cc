#include "floe/util/url_encode.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(UrlEncodeTest, EscapesAsJavaUrlEncoderDoes) {
  EXPECT_EQ(UrlEncodeForm("abcXYZ019.-*_"), "abcXYZ019.-*_");
  EXPECT_EQ(UrlEncodeForm("a/b"), "a%2Fb");
  EXPECT_EQ(UrlEncodeForm("a b+c"), "a+b%2Bc");
  EXPECT_EQ(UrlEncodeForm("~!'()"), "%7E%21%27%28%29");
  EXPECT_EQ(UrlEncodeForm("é"), "%C3%A9");
  EXPECT_EQ(UrlEncodeForm(""), "");
  // Partition directories that Iceberg Java wrote into the shared test data.
  EXPECT_EQ(UrlEncodeForm("2023-05-15T14:30:45+00:00"), "2023-05-15T14%3A30%3A45%2B00%3A00");
  EXPECT_EQ(UrlEncodeForm("Zml4ZWQgdmFsdWU="), "Zml4ZWQgdmFsdWU%3D");
}

// java.net.URLDecoder's reading: '+' a space, %XX of either case a byte; a malformed escape kept
// or refused.
TEST(UrlEncodeTest, FormDecodingReversesFormEncoding) {
  EXPECT_EQ(UrlDecodeForm("a+b%2Bc%c3%A9", false), "a b+c\xC3\xA9");
  EXPECT_EQ(UrlDecodeForm(UrlEncodeForm("~!'() é/"), false), "~!'() é/");
  EXPECT_EQ(UrlDecodeForm("100%", false), std::nullopt);
  EXPECT_EQ(UrlDecodeForm("%4g", false), std::nullopt);
  EXPECT_EQ(UrlDecodeForm("100%+%4g%41", true), "100% %4gA");
}

TEST(UrlEncodeTest, PercentEncodesAsRfc3986AndSigV4Want) {
  EXPECT_EQ(PercentEncode("abcXYZ019-._~", false), "abcXYZ019-._~");
  EXPECT_EQ(PercentEncode("db/t/data/x=1 2.parquet", true), "db/t/data/x%3D1%202.parquet");
  EXPECT_EQ(PercentEncode("a/b", false), "a%2Fb");
  EXPECT_EQ(PercentEncode("*+é", false), "%2A%2B%C3%A9");
  EXPECT_EQ(PercentEncode("", true), "");
}

}  // namespace
}  // namespace floe
