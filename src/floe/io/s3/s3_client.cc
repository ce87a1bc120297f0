#include "floe/io/s3/s3_client.h"

#include <openssl/evp.h>

#include <chrono>

#include "floe/io/http/sigv4.h"
#include "floe/io/s3/s3_xml_internal.h"
#include "floe/util/url_encode.h"

namespace floe::io {
namespace {

constexpr size_t kDeleteBatch = 1000;

std::string Md5Base64(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_md5(), nullptr);
  unsigned char encoded[64];
  int n = EVP_EncodeBlock(encoded, digest, static_cast<int>(length));
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<size_t>(n));
}

std::span<const std::byte> Bytes(std::string_view text) { return std::as_bytes(std::span(text)); }

std::string Query(std::initializer_list<std::pair<std::string_view, std::string_view>> params) {
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name;
    out += '=';
    out += PercentEncode(value, false);
  }
  return out;
}

}  // namespace

// What a request is for, for its error messages.
struct S3Client::Call {
  std::string_view operation;
  std::string_view bucket;
  std::string_view key;

  std::string Describe() const { return fmt::format("S3 {} s3://{}/{}", operation, bucket, key); }

  std::unexpected<Error> Fail(const http::Response& response) const {
    std::string code = s3_xml::Text(response.body, "Code");
    std::string message = s3_xml::Text(response.body, "Message");
    if (code.empty()) {
      switch (response.status) {
        case 403:
          code = "AccessDenied";
          break;
        case 404:
          code = key.empty() ? "NoSuchBucket" : "NoSuchKey";
          break;
        case 412:
          code = "PreconditionFailed";
          break;
        default:
          code = "HTTP error";
      }
    }
    ErrorKind kind = ErrorKind::kIO;
    if (response.status == 404) kind = ErrorKind::kNotFound;
    if (response.status == 412) kind = ErrorKind::kAlreadyExists;
    std::string text = fmt::format("{}: {} (HTTP {})", Describe(), code, response.status);
    if (!message.empty()) text += ": " + message;
    if (response.attempts > 1) text += fmt::format(" (after {} attempts)", response.attempts);
    return std::unexpected(Error(kind, std::move(text)));
  }
};

S3Client::S3Client(S3Options options) : options_(std::move(options)), http_(options_.http) {}

std::string S3Client::Url(std::string_view bucket, std::string_view key,
                          std::string_view query) const {
  std::string endpoint = options_.endpoint.empty()
                             ? fmt::format("https://s3.{}.amazonaws.com", options_.region)
                             : options_.endpoint;
  std::string url;
  if (options_.path_style) {
    url = fmt::format("{}/{}", endpoint, bucket);
    if (!key.empty()) {
      url += '/';
      url += PercentEncode(key, true);
    }
  } else {
    size_t host = endpoint.find("://") + 3;
    url = fmt::format("{}{}.{}/{}", endpoint.substr(0, host), bucket, endpoint.substr(host),
                      PercentEncode(key, true));
  }
  if (!query.empty()) {
    url += '?';
    url += query;
  }
  return url;
}

Result<http::Response> S3Client::Send(http::Request request, const Call& call) {
  std::string payload_hash = http::Sha256Hex(request.body);
  http::Client::Prepare sign;
  if (!options_.credentials.access_key_id.empty()) {
    sign = [this, &payload_hash](http::Request& r) {
      http::SignV4(r, options_.credentials, {options_.region, "s3", true}, payload_hash,
                   std::chrono::system_clock::now());
      return Ok();
    };
  }
  auto response = http_.Send(request, sign);
  if (!response) return std::unexpected(std::move(response.error().AddContext(call.Describe())));
  return response;
}

Result<S3ObjectInfo> S3Client::Head(std::string_view bucket, std::string_view key) {
  Call call{"HeadObject", bucket, key};
  http::Request request{.method = "HEAD", .url = Url(bucket, key, "")};
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status != 200) return call.Fail(response);
  S3ObjectInfo info;
  std::string_view length = response.header("content-length");
  info.size = std::strtoll(std::string(length).c_str(), nullptr, 10);
  info.etag = std::string(response.header("etag"));
  return info;
}

Status S3Client::GetRange(std::string_view bucket, std::string_view key, int64_t offset,
                          std::span<std::byte> out) {
  if (out.empty()) return Ok();
  Call call{"GetObject", bucket, key};
  http::Request request{.url = Url(bucket, key, "")};
  request.headers.push_back(
      {"Range", fmt::format("bytes={}-{}", offset, offset + static_cast<int64_t>(out.size()) - 1)});
  request.body_into = out;
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status != 206 && response.status != 200) return call.Fail(response);
  if (response.body_into_size != out.size()) {
    return CorruptData("{}: wanted {} bytes at offset {}, got {}", call.Describe(), out.size(),
                       offset, response.body_into_size);
  }
  return Ok();
}

Result<std::string> S3Client::Get(std::string_view bucket, std::string_view key) {
  Call call{"GetObject", bucket, key};
  FLOE_ASSIGN_OR_RETURN(http::Response response,
                        Send(http::Request{.url = Url(bucket, key, "")}, call));
  if (response.status != 200) return call.Fail(response);
  return std::move(response.body);
}

Status S3Client::Put(std::string_view bucket, std::string_view key, std::span<const std::byte> body,
                     bool if_none_match) {
  Call call{"PutObject", bucket, key};
  http::Request request{.method = "PUT", .url = Url(bucket, key, ""), .body = body};
  if (if_none_match) request.headers.push_back({"If-None-Match", "*"});
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status == 200) return Ok();
  if (if_none_match && (response.status == 412 || response.status == 409) &&
      response.unanswered_attempts > 0) {
    // An earlier attempt may have landed and lost its answer: then the object holds our bytes.
    auto stored = Get(bucket, key);
    if (stored && stored->size() == body.size() &&
        std::equal(body.begin(), body.end(), Bytes(*stored).begin())) {
      return Ok();
    }
  }
  if (response.status == 409) {
    // A concurrent conditional write to the same key is in progress: it wins or has won.
    return AlreadyExists("{}: another writer is creating the same object (HTTP 409)",
                         call.Describe());
  }
  return call.Fail(response);
}

Status S3Client::Delete(std::string_view bucket, std::string_view key) {
  Call call{"DeleteObject", bucket, key};
  FLOE_ASSIGN_OR_RETURN(http::Response response,
                        Send(http::Request{.method = "DELETE", .url = Url(bucket, key, "")}, call));
  if (response.status == 204 || response.status == 200 || response.status == 404) return Ok();
  return call.Fail(response);
}

Status S3Client::DeleteMany(std::string_view bucket, std::span<const std::string> keys) {
  for (size_t start = 0; start < keys.size(); start += kDeleteBatch) {
    size_t end = std::min(keys.size(), start + kDeleteBatch);
    std::string body = "<Delete><Quiet>true</Quiet>";
    for (size_t i = start; i < end; ++i) {
      body += "<Object><Key>" + s3_xml::Escape(keys[i]) + "</Key></Object>";
    }
    body += "</Delete>";
    Call call{"DeleteObjects", bucket, keys[start]};
    http::Request request{.method = "POST", .url = Url(bucket, "", "delete="), .body = Bytes(body)};
    request.headers.push_back({"Content-MD5", Md5Base64(body)});
    request.headers.push_back({"Content-Type", "application/xml"});
    FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
    if (response.status != 200) return call.Fail(response);
    for (std::string_view error : s3_xml::Elements(response.body, "Error")) {
      std::string code = s3_xml::Text(error, "Code");
      if (code == "NoSuchKey") continue;
      return IOError("S3 DeleteObjects s3://{}/{}: {}: {}", bucket, s3_xml::Text(error, "Key"),
                     code, s3_xml::Text(error, "Message"));
    }
  }
  return Ok();
}

Result<S3Listing> S3Client::List(std::string_view bucket, std::string_view prefix,
                                 std::string_view delimiter, int max_keys) {
  Call call{"ListObjectsV2", bucket, prefix};
  S3Listing listing;
  std::string token;
  // Each page holds at least one entry, so a listing ends; the bound guards against a store
  // that keeps answering with the same token.
  for (int page = 0; page < 10'000'000; ++page) {
    std::string max = std::to_string(max_keys > 0 ? std::min(max_keys, 1000) : 1000);
    std::string query;
    if (!token.empty()) query = Query({{"continuation-token", token}}) + "&";
    if (!delimiter.empty()) query += Query({{"delimiter", delimiter}}) + "&";
    query += Query({{"list-type", "2"}, {"max-keys", max}, {"prefix", prefix}});
    FLOE_ASSIGN_OR_RETURN(http::Response response,
                          Send(http::Request{.url = Url(bucket, "", query)}, call));
    if (response.status != 200) return call.Fail(response);
    for (std::string_view contents : s3_xml::Elements(response.body, "Contents")) {
      S3Listing::Object object;
      object.key = s3_xml::Text(contents, "Key");
      object.size = std::strtoll(s3_xml::Text(contents, "Size").c_str(), nullptr, 10);
      object.modified_ms = s3_xml::IsoMillis(s3_xml::Text(contents, "LastModified"));
      listing.objects.push_back(std::move(object));
    }
    for (std::string_view common : s3_xml::Elements(response.body, "CommonPrefixes")) {
      listing.prefixes.push_back(s3_xml::Text(common, "Prefix"));
    }
    if (max_keys > 0 &&
        listing.objects.size() + listing.prefixes.size() >= static_cast<size_t>(max_keys)) {
      break;
    }
    if (s3_xml::Text(response.body, "IsTruncated") != "true") break;
    std::string next = s3_xml::Text(response.body, "NextContinuationToken");
    if (next.empty() || next == token) {
      return IOError("{}: the store said the listing goes on but gave no new continuation token",
                     call.Describe());
    }
    token = std::move(next);
  }
  return listing;
}

Status S3Client::Copy(std::string_view bucket, std::string_view from_key, std::string_view to_key) {
  Call call{"CopyObject", bucket, to_key};
  http::Request request{.method = "PUT", .url = Url(bucket, to_key, "")};
  request.headers.push_back(
      {"x-amz-copy-source", fmt::format("/{}/{}", bucket, PercentEncode(from_key, true))});
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  // A copy can fail after the 200 has been sent: the error is then in the body.
  if (response.status != 200 || response.body.find("<Error>") != std::string::npos) {
    if (response.status == 200) response.status = 500;
    return call.Fail(response);
  }
  return Ok();
}

Status S3Client::CreateBucket(std::string_view bucket) {
  Call call{"CreateBucket", bucket, ""};
  std::string body;
  if (options_.region != "us-east-1") {
    body = "<CreateBucketConfiguration><LocationConstraint>" + s3_xml::Escape(options_.region) +
           "</LocationConstraint></CreateBucketConfiguration>";
  }
  http::Request request{.method = "PUT", .url = Url(bucket, "", ""), .body = Bytes(body)};
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status == 200) return Ok();
  return call.Fail(response);
}

Result<std::string> S3Client::CreateMultipartUpload(std::string_view bucket, std::string_view key) {
  Call call{"CreateMultipartUpload", bucket, key};
  // Retrying may leave an upload nobody completes: harmless, and swept by the bucket's
  // abort-incomplete-multipart-upload rule.
  http::Request request{.method = "POST", .url = Url(bucket, key, "uploads=")};
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status != 200) return call.Fail(response);
  std::string upload_id = s3_xml::Text(response.body, "UploadId");
  if (upload_id.empty()) return IOError("{}: the answer has no UploadId", call.Describe());
  return upload_id;
}

Result<std::string> S3Client::UploadPart(std::string_view bucket, std::string_view key,
                                         std::string_view upload_id, int part_number,
                                         std::span<const std::byte> body) {
  Call call{"UploadPart", bucket, key};
  std::string number = std::to_string(part_number);
  http::Request request{
      .method = "PUT",
      .url = Url(bucket, key, Query({{"partNumber", number}, {"uploadId", upload_id}})),
      .body = body};
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status != 200) return call.Fail(response);
  std::string etag(response.header("etag"));
  if (etag.empty()) return IOError("{}: part {} has no ETag", call.Describe(), part_number);
  return etag;
}

Status S3Client::CompleteMultipartUpload(std::string_view bucket, std::string_view key,
                                         std::string_view upload_id,
                                         const std::vector<std::string>& etags,
                                         bool if_none_match) {
  Call call{"CompleteMultipartUpload", bucket, key};
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < etags.size(); ++i) {
    body += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>{}</ETag></Part>", i + 1,
                        s3_xml::Escape(etags[i]));
  }
  body += "</CompleteMultipartUpload>";
  http::Request request{.method = "POST",
                        .url = Url(bucket, key, Query({{"uploadId", upload_id}})),
                        .body = Bytes(body)};
  request.headers.push_back({"Content-Type", "application/xml"});
  if (if_none_match) request.headers.push_back({"If-None-Match", "*"});
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  // The store may fail the completion after its 200: the error is then in the body.
  bool failed = response.status != 200 || response.body.find("<Error>") != std::string::npos;
  if (!failed) return Ok();
  if (response.attempts > 1 && (response.status == 404 || response.status == 412)) {
    // An earlier attempt completed the upload and lost its answer: the object is there with as
    // many parts as ours (a multipart ETag ends in "-<parts>").
    auto info = Head(bucket, key);
    if (info && info->etag.find(fmt::format("-{}", etags.size())) != std::string::npos) {
      return Ok();
    }
  }
  if (response.status == 200) response.status = 500;
  return call.Fail(response);
}

Status S3Client::AbortMultipartUpload(std::string_view bucket, std::string_view key,
                                      std::string_view upload_id) {
  Call call{"AbortMultipartUpload", bucket, key};
  http::Request request{.method = "DELETE",
                        .url = Url(bucket, key, Query({{"uploadId", upload_id}}))};
  FLOE_ASSIGN_OR_RETURN(http::Response response, Send(std::move(request), call));
  if (response.status == 204 || response.status == 200 || response.status == 404) return Ok();
  return call.Fail(response);
}

}  // namespace floe::io
