// SigV4 against the values AWS publishes: its Signature Version 4 test suite (credentials
// AKIDEXAMPLE, region us-east-1, service "service", 2015-08-30T12:36:00Z) and the example GET of
// the S3 API reference ("Signature calculations for the Authorization header").

#include "floe/io/http/sigv4.h"

#include <gtest/gtest.h>

namespace floe::io::http {
namespace {

const AwsCredentials kSuiteCredentials{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                       ""};

Request SuiteRequest(std::string method, std::string url, std::vector<Header> extra = {}) {
  Request request;
  request.method = std::move(method);
  request.url = std::move(url);
  request.headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
  for (Header& header : extra) request.headers.push_back(std::move(header));
  return request;
}

std::string SuiteAuthorization(const Request& request) {
  return ComputeSigV4(request, kSuiteCredentials, "us-east-1", "service", kEmptySha256)
      .authorization;
}

TEST(SigV4Test, Sha256OfNothingAndOfText) {
  EXPECT_EQ(Sha256Hex(std::string_view()), kEmptySha256);
  // FIPS 180-2's example message "abc".
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(SigV4Test, GetVanilla) {
  SigV4Signature signature = ComputeSigV4(SuiteRequest("GET", "https://example.amazonaws.com/"),
                                          kSuiteCredentials, "us-east-1", "service", kEmptySha256);
  EXPECT_EQ(signature.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n" +
                std::string(kEmptySha256));
  EXPECT_EQ(signature.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, PostVanilla) {
  EXPECT_EQ(SuiteAuthorization(SuiteRequest("POST", "https://example.amazonaws.com/")),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

TEST(SigV4Test, GetVanillaEmptyQueryKey) {
  EXPECT_EQ(SuiteAuthorization(SuiteRequest("GET", "https://example.amazonaws.com/?Param1=value1")),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb");
}

// A ListObjectsV2-style query whose values hold '/' and ' ' (sent as %2F and %20): the names sort,
// the encoding stays. Expected values computed with botocore 1.43's SigV4Auth for the same request.
TEST(SigV4Test, EncodedQueryValuesAreSignedAsSent) {
  SigV4Signature signature = ComputeSigV4(
      SuiteRequest("GET",
                   "https://example.amazonaws.com/?prefix=wh%2Fdb%20x%2F&list-type=2&delimiter=%2F"),
      kSuiteCredentials, "us-east-1", "service", kEmptySha256);
  EXPECT_EQ(signature.canonical_request,
            "GET\n/\ndelimiter=%2F&list-type=2&prefix=wh%2Fdb%20x%2F\nhost:example.amazonaws.com\n"
            "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
                std::string(kEmptySha256));
  EXPECT_EQ(signature.signature,
            "b29933035c164dba0c33c2067296b9527236369e593f9fd030638027ddf5c772");
}

TEST(SigV4Test, GetHeaderValueTrim) {
  Request request = SuiteRequest("GET", "https://example.amazonaws.com/",
                                 {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}});
  SigV4Signature signature =
      ComputeSigV4(request, kSuiteCredentials, "us-east-1", "service", kEmptySha256);
  EXPECT_NE(signature.canonical_request.find("my-header1:value1\nmy-header2:\"a b c\"\n"),
            std::string::npos)
      << signature.canonical_request;
  EXPECT_EQ(signature.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;my-header1;my-header2;x-amz-date, "
            "Signature=acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");
}

TEST(SigV4Test, GetHeaderKeyDuplicate) {
  Request request =
      SuiteRequest("GET", "https://example.amazonaws.com/",
                   {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}});
  EXPECT_EQ(SuiteAuthorization(request),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;my-header1;x-amz-date, "
            "Signature=c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea");
}

TEST(SigV4Test, S3GetObjectExample) {
  Request request;
  request.url = "https://examplebucket.s3.amazonaws.com/test.txt";
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"Range", "bytes=0-9"},
                     {"x-amz-content-sha256", std::string(kEmptySha256)},
                     {"x-amz-date", "20130524T000000Z"}};
  AwsCredentials credentials{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                             ""};
  SigV4Signature signature = ComputeSigV4(request, credentials, "us-east-1", "s3", kEmptySha256);
  EXPECT_EQ(signature.signature,
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_NE(signature.authorization.find(
                "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"),
            std::string::npos)
      << signature.authorization;
}

TEST(SigV4Test, SignV4AddsHeadersAndKeepsTheSecretOut) {
  Request request;
  request.method = "PUT";
  request.url = "http://127.0.0.1:9000/bucket/a%20b.json?uploadId=x&partNumber=2";
  AwsCredentials credentials{"AKID", "very-secret", "session-token"};
  auto now = std::chrono::sys_days{std::chrono::year{2015} / 8 / 30} + std::chrono::hours{12} +
             std::chrono::minutes{36};
  SignV4(request, credentials, {"us-east-1", "s3", true}, kEmptySha256, now);
  auto value = [&](std::string_view name) {
    for (const Header& h : request.headers) {
      if (h.name == name) return h.value;
    }
    return std::string();
  };
  EXPECT_EQ(value("Host"), "127.0.0.1:9000");
  EXPECT_EQ(value("x-amz-date"), "20150830T123600Z");
  EXPECT_EQ(value("x-amz-security-token"), "session-token");
  EXPECT_EQ(value("x-amz-content-sha256"), kEmptySha256);
  std::string authorization = value("Authorization");
  EXPECT_TRUE(authorization.starts_with(
      "AWS4-HMAC-SHA256 Credential=AKID/20150830/us-east-1/s3/aws4_request, SignedHeaders=host;"
      "x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature="))
      << authorization;
  for (const Header& h : request.headers) EXPECT_EQ(h.value.find("very-secret"), std::string::npos);

  // Signing again (a retry) replaces the headers instead of adding a second set.
  size_t count = request.headers.size();
  SignV4(request, credentials, {"us-east-1", "s3", true}, kEmptySha256, now);
  EXPECT_EQ(request.headers.size(), count);
  EXPECT_EQ(value("Authorization"), authorization);
}

}  // namespace
}  // namespace floe::io::http
