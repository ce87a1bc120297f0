#pragma once

// The S3 REST operations floe uses, over the shared HTTP client and SigV4: objects (HEAD, ranged
// GET, PUT with an optional If-None-Match: *, DELETE, copy), ListObjectsV2 with every page,
// DeleteObjects in batches, and multipart uploads. Requests are retried by the HTTP client when
// they are idempotent; a conditional PUT is retried too, and a 412 on a retry whose first attempt
// may have landed is resolved by comparing the stored bytes.
//
// Errors name the operation, the object (s3://bucket/key) and the store's error code and message:
// "S3 GetObject s3://b/k: AccessDenied (HTTP 403): Access Denied". kNotFound for 404 (NoSuchKey,
// NoSuchBucket, NoSuchUpload), kAlreadyExists for a failed If-None-Match, kIO for the rest.
// Thread-safe.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/io/http/http_client.h"
#include "floe/io/s3/s3_options.h"
#include "floe/util/error.h"

namespace floe::io {

struct S3ObjectInfo {
  int64_t size = 0;
  std::string etag;
};

struct S3Listing {
  struct Object {
    std::string key;
    int64_t size = 0;
    int64_t modified_ms = 0;  // LastModified; 0 when absent or unreadable
  };
  std::vector<Object> objects;        // in key order
  std::vector<std::string> prefixes;  // the common prefixes, with their trailing delimiter
};

class S3Client {
 public:
  explicit S3Client(S3Options options);

  const S3Options& options() const { return options_; }

  Result<S3ObjectInfo> Head(std::string_view bucket, std::string_view key);
  // Reads exactly out.size() bytes at offset.
  Status GetRange(std::string_view bucket, std::string_view key, int64_t offset,
                  std::span<std::byte> out);
  Result<std::string> Get(std::string_view bucket, std::string_view key);
  // if_none_match: kAlreadyExists when an object is already at key (the store must honour it).
  Status Put(std::string_view bucket, std::string_view key, std::span<const std::byte> body,
             bool if_none_match);
  Status Delete(std::string_view bucket, std::string_view key);
  // DeleteObjects, up to 1000 keys a request; keys already gone are not errors.
  Status DeleteMany(std::string_view bucket, std::span<const std::string> keys);
  // The objects below prefix (and, with a delimiter, the common prefixes), every page read;
  // max_keys > 0 stops after that many entries.
  Result<S3Listing> List(std::string_view bucket, std::string_view prefix,
                         std::string_view delimiter, int max_keys = 0);
  Status Copy(std::string_view bucket, std::string_view from_key, std::string_view to_key);
  Status CreateBucket(std::string_view bucket);

  Result<std::string> CreateMultipartUpload(std::string_view bucket, std::string_view key);
  // The part's ETag.
  Result<std::string> UploadPart(std::string_view bucket, std::string_view key,
                                 std::string_view upload_id, int part_number,
                                 std::span<const std::byte> body);
  Status CompleteMultipartUpload(std::string_view bucket, std::string_view key,
                                 std::string_view upload_id, const std::vector<std::string>& etags,
                                 bool if_none_match);
  Status AbortMultipartUpload(std::string_view bucket, std::string_view key,
                              std::string_view upload_id);

 private:
  struct Call;
  std::string Url(std::string_view bucket, std::string_view key, std::string_view query) const;
  Result<http::Response> Send(http::Request request, const Call& call);

  S3Options options_;
  http::Client http_;
};

}  // namespace floe::io
