// URL_ENCODE, URL_DECODE and PARSE_URL against Flink's documented examples, Java's URLEncoder
// rules (letters, digits and . - * _ kept, space as '+', other bytes %XX; Python's quote_plus with
// safe='*' gives the same for the text below apart from '~', which Java encodes) and the parts
// Python's urllib.parse.urlsplit finds in the same URLs.

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;

TEST(UrlFunctionsTest, EncodeAndDecodeAsJava) {
  EXPECT_EQ(EvalOne("URL_ENCODE('a b&c=d/é*~')"), "a+b%26c%3Dd%2F%C3%A9*%7E");
  EXPECT_EQ(EvalOne("URL_DECODE('a+b%26c%3Dd%2F%C3%A9*%7E')"), "a b&c=d/é*~");
  EXPECT_EQ(EvalOne("URL_DECODE('%c3%a9')"), "é");
  EXPECT_EQ(EvalOne("URL_ENCODE(CAST(NULL AS STRING))"), "NULL");
  // Malformed escapes, and bytes that are not UTF-8: NULL, as Flink documents.
  EXPECT_EQ(EvalOne("URL_DECODE('100%')"), "NULL");
  EXPECT_EQ(EvalOne("URL_DECODE('%4')"), "NULL");
  EXPECT_EQ(EvalOne("URL_DECODE('%zz')"), "NULL");
  EXPECT_EQ(EvalOne("URL_DECODE('%C3')"), "NULL");
  EXPECT_EQ(EvalOne("URL_DECODE('%ED%A0%80')"), "NULL");  // a surrogate
}

TEST(UrlFunctionsTest, ParseUrlPartsAsJavasUrl) {
  const std::string url = "'http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1'";
  auto part = [&](const std::string& name) {
    return EvalOne("PARSE_URL(" + url + ", '" + name + "')");
  };
  // Flink's documented examples.
  EXPECT_EQ(part("HOST"), "facebook.com");
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'QUERY', 'k1')"), "v1");
  // The rest as urlsplit splits it (FILE is Java's path with ?query).
  EXPECT_EQ(part("PROTOCOL"), "http");
  EXPECT_EQ(part("AUTHORITY"), "facebook.com");
  EXPECT_EQ(part("PATH"), "/path1/p.php");
  EXPECT_EQ(part("QUERY"), "k1=v1&k2=v2");
  EXPECT_EQ(part("REF"), "Ref1");
  EXPECT_EQ(part("FILE"), "/path1/p.php?k1=v1&k2=v2");
  EXPECT_EQ(part("USERINFO"), "NULL");
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'QUERY', 'k2')"), "v2");
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'QUERY', 'k')"), "NULL");
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'HOST', 'k1')"), "NULL");

  const std::string full = "'https://user:pw@example.com:8080/a?x=1&y=2'";
  EXPECT_EQ(EvalOne("PARSE_URL(" + full + ", 'HOST')"), "example.com");
  EXPECT_EQ(EvalOne("PARSE_URL(" + full + ", 'AUTHORITY')"), "user:pw@example.com:8080");
  EXPECT_EQ(EvalOne("PARSE_URL(" + full + ", 'USERINFO')"), "user:pw");
  EXPECT_EQ(EvalOne("PARSE_URL(" + full + ", 'REF')"), "NULL");
  EXPECT_EQ(EvalOne("PARSE_URL('http://example.com', 'PATH')"), "");

  EXPECT_EQ(EvalOne("PARSE_URL('not a url', 'HOST')"), "NULL");
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'host')"), "NULL");  // part names are upper case
  EXPECT_EQ(EvalOne("PARSE_URL(" + url + ", 'PORT')"), "NULL");
}

}  // namespace
}  // namespace floe::sql::scalar
