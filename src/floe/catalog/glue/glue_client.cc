#include <fmt/format.h>

#include <chrono>

#include "floe/catalog/glue/glue_client_internal.h"
#include "floe/io/s3/s3_options.h"

namespace floe::catalog::glue {
namespace {

std::string_view Property(const StringMap& properties, std::string_view key) {
  auto it = properties.find(key);
  return it == properties.end() ? std::string_view() : std::string_view(it->second);
}

// "com.amazonaws.glue#EntityNotFoundException" and "EntityNotFoundException:..." both name
// EntityNotFoundException.
std::string_view BareType(std::string_view type) {
  if (size_t hash = type.rfind('#'); hash != std::string_view::npos) type.remove_prefix(hash + 1);
  if (size_t colon = type.find(':'); colon != std::string_view::npos) type = type.substr(0, colon);
  return type;
}

// A refusal's Glue error type, bare: the body's `__type`, else the x-amzn-ErrorType header.
std::string ErrorType(const io::http::Response& response) {
  auto json = Json::Parse(response.body);
  if (json && json->is_object()) {
    if (const Json* t = json->Find("__type"); t != nullptr && t->is_string()) {
      return std::string(BareType(t->as_string()));
    }
  }
  return std::string(BareType(response.header("x-amzn-errortype")));
}

}  // namespace

Result<GlueClientOptions> GlueClientOptionsFrom(const StringMap& properties) {
  FLOE_ASSIGN_OR_RETURN(io::S3Options s3, io::S3OptionsFrom(properties));
  GlueClientOptions options;
  options.region = s3.region;
  options.credentials = s3.credentials;
  options.catalog_id = Property(properties, "glue.id");
  options.endpoint = Property(properties, "glue.endpoint");
  while (options.endpoint.ends_with('/')) options.endpoint.pop_back();
  if (options.endpoint.empty()) {
    options.endpoint = fmt::format("https://glue.{}.amazonaws.com", options.region);
  } else if (!options.endpoint.starts_with("http://") &&
             !options.endpoint.starts_with("https://")) {
    return InvalidArgument("property glue.endpoint: '{}' is not an http:// or https:// URL",
                           options.endpoint);
  }
  return options;
}

Error GlueError(std::string_view operation, std::string_view type, std::string_view message) {
  std::string_view bare = BareType(type);
  std::string text = fmt::format("Glue {}: {}: {}", operation, bare, message);
  if (bare == "EntityNotFoundException") return Error(ErrorKind::kNotFound, std::move(text));
  if (bare == "AlreadyExistsException") return Error(ErrorKind::kAlreadyExists, std::move(text));
  if (bare == "ConcurrentModificationException") {
    return Error(ErrorKind::kCommitFailed, std::move(text), /*retryable=*/true);
  }
  if (bare == "InvalidInputException" || bare == "ValidationException") {
    return Error(ErrorKind::kInvalidArgument, std::move(text));
  }
  return Error(ErrorKind::kIO, std::move(text));
}

GlueClient::GlueClient(GlueClientOptions options)
    : options_(std::move(options)), http_(options_.http) {}

Result<Json> GlueClient::Call(std::string_view operation, Json request, bool idempotent) {
  if (!options_.catalog_id.empty()) request.Set("CatalogId", options_.catalog_id);
  std::string body = request.Dump();
  std::string payload_hash = io::http::Sha256Hex(body);
  io::http::Request http_request;
  http_request.method = "POST";
  http_request.url = options_.endpoint + "/";
  http_request.headers = {{"Content-Type", "application/x-amz-json-1.1"},
                          {"X-Amz-Target", fmt::format("AWSGlue.{}", operation)}};
  http_request.body = std::as_bytes(std::span(body));
  http_request.idempotent = idempotent;
  http_request.throttled = [](const io::http::Response& response) {
    return response.status == 400 && ErrorType(response) == "ThrottlingException";
  };
  auto sign = [&](io::http::Request& attempt) -> Status {
    if (options_.credentials.access_key_id.empty()) return {};
    io::http::SignV4(attempt, options_.credentials, {options_.region, "glue", false}, payload_hash,
                     std::chrono::system_clock::now());
    return {};
  };
  auto response = http_.Send(http_request, sign);
  if (!response) {
    return std::unexpected(
        std::move(response.error().AddContext(fmt::format("Glue {}", operation))));
  }
  auto json =
      response->body.empty() ? Result<Json>(Json::MakeObject()) : Json::Parse(response->body);
  if (response->status == 200) {
    if (!json) {
      return CorruptData("Glue {}: the response is not JSON ({}): {}", operation,
                         json.error().message(), response->body.substr(0, 200));
    }
    return json;
  }
  std::string type = ErrorType(*response);
  std::string message;
  if (json && json->is_object()) {
    for (std::string_view key : {"message", "Message"}) {
      if (const Json* m = json->Find(key); m != nullptr && m->is_string()) message = m->as_string();
    }
  }
  if (type.empty()) type = fmt::format("HTTP {}", response->status);
  if (message.empty()) message = response->body.substr(0, 200);
  return std::unexpected(GlueError(operation, type, message));
}

}  // namespace floe::catalog::glue
