#pragma once

// For the S3 tests: options that reach the test server, and a fresh bucket on it.

#include <string>

#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_options.h"
#include "floe/testing/s3_server.h"
#include "floe/util/uuid.h"

namespace floe::io {

inline S3Options TestS3Options() {
  S3Options options;
  options.endpoint = floe::testing::S3Server::Get().endpoint();
  options.path_style = true;
  options.credentials = {"test-key", "test-secret", ""};
  return options;
}

// A new bucket named "<prefix>-<uuid>".
inline Result<std::string> NewTestBucket(S3Client& client, std::string_view prefix) {
  std::string bucket = std::string(prefix) + "-" + RandomUuid();
  FLOE_RETURN_IF_ERROR(client.CreateBucket(bucket));
  return bucket;
}

}  // namespace floe::io
