#pragma once

// AWS Signature Version 4 (AWS4-HMAC-SHA256) for http::Request, with OpenSSL's SHA-256 and HMAC.
// Written for S3, Glue and any AWS-style endpoint: the canonical URI is the request's path exactly
// as it is in the URL (S3's rule: paths are percent-encoded once, by the caller), and the query's
// names and values must already be percent-encoded the way SigV4 wants (RFC 3986 unreserved
// characters left alone, everything else %XX); they are sorted here.
//
// Every header of the request is signed. The secret never leaves this file: the Authorization
// header carries only the access key id, the scope and the signature.

#include <chrono>
#include <span>
#include <string>
#include <string_view>

#include "floe/io/http/http_client.h"

namespace floe::io::http {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty for long-term keys
};

// The SHA-256 of no bytes, in hex: the payload hash of a request without a body.
inline constexpr std::string_view kEmptySha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// Lowercase hex SHA-256 of the bytes.
std::string Sha256Hex(std::span<const std::byte> bytes);
std::string Sha256Hex(std::string_view text);

// ISO 8601 basic format in UTC, as x-amz-date wants it: "20150830T123600Z".
std::string AmzDate(std::chrono::system_clock::time_point time);

// The intermediate values of a signature, for tests against the published test suite.
struct SigV4Signature {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;      // hex
  std::string authorization;  // the Authorization header's value
};

// Signs request as it stands; its headers must already hold Host and x-amz-date (SignV4 adds
// them). payload_hash is the hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
SigV4Signature ComputeSigV4(const Request& request, const AwsCredentials& credentials,
                            std::string_view region, std::string_view service,
                            std::string_view payload_hash);

struct SigV4Options {
  std::string region;
  std::string service;
  // S3 wants the payload hash as a header, x-amz-content-sha256; other services do not.
  bool content_sha256_header = false;
};

// Adds Host (from the URL), x-amz-date, x-amz-security-token (with a session token),
// x-amz-content-sha256 (when asked) and Authorization to request. Existing Host and x-amz-date
// headers are replaced.
void SignV4(Request& request, const AwsCredentials& credentials, const SigV4Options& options,
            std::string_view payload_hash, std::chrono::system_clock::time_point now);

}  // namespace floe::io::http
