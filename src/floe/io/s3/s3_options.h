#pragma once

// How to reach an S3 (or S3-compatible) store, from the properties Iceberg's S3FileIO reads
// (catalog properties, table properties, `--catalog k=v`), then the standard AWS environment
// variables, then the shared AWS files (~/.aws/credentials and ~/.aws/config, profile
// $AWS_PROFILE or "default"). A property wins over the environment, the environment over the
// files; the access key, secret and session token are taken together from the first of the three
// that has an access key.
//
// Errors: kInvalidArgument naming the property whose value is not a number or a boolean, or out
// of range. The secret and the session token never appear in a message.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/io/http/http_client.h"
#include "floe/io/http/sigv4.h"
#include "floe/util/error.h"

namespace floe::io {

// Properties as the catalogs hold them (the same type as floe::StringMap).
using Properties = std::map<std::string, std::string, std::less<>>;

struct S3Options {
  // "http://127.0.0.1:9000" for a local store; empty for AWS (https://s3.<region>.amazonaws.com).
  std::string endpoint;
  // Buckets in the path (endpoint/bucket/key) instead of the host name (bucket.endpoint/key).
  bool path_style = false;
  std::string region = "us-east-1";
  http::AwsCredentials credentials;  // no access key: requests go unsigned
  int64_t part_size = 32 << 20;      // s3.multipart.part-size-bytes, at least 5 MiB
  double multipart_threshold = 1.5;  // files above part_size × this go multipart
  int parts_in_flight = 4;           // s3.multipart.num-threads: per writer
  http::Client::Options http;
};

// Reads one environment variable; std::getenv by default, a map in tests.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;
EnvironmentLookup ProcessEnvironment();

Result<S3Options> S3OptionsFrom(const Properties& properties,
                                const EnvironmentLookup& environment = ProcessEnvironment());

// Whether a property configures S3 and must be kept from output (the secret, the session token).
bool IsSecretProperty(std::string_view key);

// kInvalidArgument naming the first secret property in properties, for properties that are stored
// where every reader sees them (a table's properties are written into its metadata files).
Status RefuseStoredSecrets(const Properties& properties);

}  // namespace floe::io
