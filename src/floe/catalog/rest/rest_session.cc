#include <fmt/format.h>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_session_internal.h"
#include "floe/io/s3/s3_options.h"
#include "floe/util/url_encode.h"

namespace floe::catalog::rest {
namespace {

constexpr std::string_view kHeaderPrefix = "header.";
// A token is fetched again this long before it expires.
constexpr std::chrono::seconds kRefreshMargin{30};

std::string_view Property(const StringMap& properties, std::string_view key) {
  auto it = properties.find(key);
  return it == properties.end() ? std::string_view() : std::string_view(it->second);
}

std::string TrimSlashes(std::string_view text) {
  while (!text.empty() && text.back() == '/') text.remove_suffix(1);
  while (!text.empty() && text.front() == '/') text.remove_prefix(1);
  return std::string(text);
}

}  // namespace

std::string EncodePathPart(std::string_view part) { return PercentEncode(part, false); }

std::string NamespacePath(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.levels.size(); ++i) {
    if (i > 0) joined.push_back('\x1F');
    joined += ns.levels[i];
  }
  return EncodePathPart(joined);
}

RestSession::RestSession(std::string uri, io::http::Client::Options options)
    : uri_(std::move(uri)), http_(options) {}

Result<std::unique_ptr<RestSession>> RestSession::Make(const StringMap& properties) {
  std::string uri(Property(properties, "uri"));
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  if (uri.empty()) return InvalidArgument("the rest catalog needs `uri`, the server's base URI");
  if (uri.starts_with("http://") == false && uri.starts_with("https://") == false) {
    return InvalidArgument("rest catalog uri '{}' must start with http:// or https://", uri);
  }
  // The Java client's base URI may end in /v1: the routes add it themselves.
  if (uri.ends_with("/v1")) uri.resize(uri.size() - 3);
  io::http::Client::Options options;
  auto session = std::unique_ptr<RestSession>(new RestSession(uri, options));
  session->credential_ = Property(properties, "credential");
  if (!session->credential_.empty() && session->credential_.find(':') == std::string::npos) {
    return InvalidArgument("rest catalog credential must be client_id:client_secret");
  }
  session->scope_ = Property(properties, "scope");
  if (session->scope_.empty()) session->scope_ = "catalog";
  session->token_endpoint_ = Property(properties, "oauth2-server-uri");
  if (session->token_endpoint_.empty()) session->token_endpoint_ = uri + "/v1/oauth/tokens";
  FLOE_RETURN_IF_ERROR(session->Configure(properties));
  std::string_view sigv4 = Property(properties, "rest.sigv4-enabled");
  if (!sigv4.empty() && sigv4 != "true" && sigv4 != "false") {
    return InvalidArgument("rest.sigv4-enabled must be true or false, not '{}'", sigv4);
  }
  if (sigv4 == "true") {
    // The credential chain of the S3 FileIO (properties, environment, profile), fed the rest.*
    // keys.
    io::Properties aws;
    for (auto [from, to] : {std::pair{"rest.access-key-id", "s3.access-key-id"},
                            {"rest.secret-access-key", "s3.secret-access-key"},
                            {"rest.session-token", "s3.session-token"},
                            {"client.region", "client.region"}}) {
      if (auto value = Property(properties, from); !value.empty()) aws[to] = value;
    }
    auto resolved = io::S3OptionsFrom(aws);
    if (!resolved) {
      return InvalidArgument("rest.sigv4-enabled: {}", resolved.error().message());
    }
    if (resolved->credentials.access_key_id.empty()) {
      return InvalidArgument(
          "rest.sigv4-enabled: no AWS credentials (rest.access-key-id and "
          "rest.secret-access-key, or the AWS environment or profile)");
    }
    session->sigv4_ = true;
    session->aws_credentials_ = resolved->credentials;
    std::string_view region = Property(properties, "rest.signing-region");
    session->sigv4_options_.region = region.empty() ? resolved->region : std::string(region);
    std::string_view name = Property(properties, "rest.signing-name");
    session->sigv4_options_.service = name.empty() ? "execute-api" : std::string(name);
  }
  return session;
}

Status RestSession::Configure(const StringMap& merged) {
  prefix_ = TrimSlashes(Property(merged, "prefix"));
  static_token_ = Property(merged, "token");
  headers_.clear();
  for (const auto& [key, value] : merged) {
    if (key.starts_with(kHeaderPrefix) && key.size() > kHeaderPrefix.size()) {
      headers_.push_back({key.substr(kHeaderPrefix.size()), value});
    }
  }
  return {};
}

std::string RestSession::Root() const {
  return prefix_.empty() ? "/v1" : "/v1/" + EncodePathPart(prefix_);
}

Result<std::string> RestSession::FetchToken() {
  size_t colon = credential_.find(':');
  std::string body =
      fmt::format("grant_type=client_credentials&client_id={}&client_secret={}&scope={}",
                  UrlEncodeForm(credential_.substr(0, colon)),
                  UrlEncodeForm(credential_.substr(colon + 1)), UrlEncodeForm(scope_));
  io::http::Request request;
  request.method = "POST";
  request.url = token_endpoint_;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Accept", "application/json"}};
  request.body = std::as_bytes(std::span(body));
  FLOE_ASSIGN_OR_RETURN(io::http::Response response, http_.Send(request));
  if (response.status != 200) {
    return InvalidArgument("rest catalog: the token endpoint {} refused the credential: HTTP {} {}",
                           token_endpoint_, response.status, response.body);
  }
  FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(response.body));
  FLOE_ASSIGN_OR_RETURN(OAuthToken token, OAuthTokenFromJson(json));
  token_ = token.access_token;
  token_expiry_ = token.expires_in_s
                      ? std::chrono::steady_clock::now() + std::chrono::seconds(*token.expires_in_s)
                      : std::chrono::steady_clock::time_point::max();
  return token_;
}

Result<std::string> RestSession::Authorization(bool refresh) {
  if (credential_.empty()) {
    return static_token_.empty() ? std::string() : "Bearer " + static_token_;
  }
  std::lock_guard lock(mu_);
  bool expiring = token_expiry_ != std::chrono::steady_clock::time_point::max() &&
                  std::chrono::steady_clock::now() + kRefreshMargin >= token_expiry_;
  if (refresh || token_.empty() || expiring) {
    FLOE_ASSIGN_OR_RETURN(token_, FetchToken());
  }
  return "Bearer " + token_;
}

Result<CallResult> RestSession::Send(std::string_view method, std::string_view path,
                                     std::string_view query, const std::string& body,
                                     bool idempotent, std::string_view if_none_match,
                                     bool refresh) {
  io::http::Request request;
  request.method = std::string(method);
  request.url = uri_;
  request.url += path;
  if (!query.empty()) {
    request.url += '?';
    request.url += query;
  }
  request.headers = headers_;
  request.headers.push_back({"Accept", "application/json"});
  request.headers.push_back({"X-Client-Version", "floe"});
  if (!if_none_match.empty()) {
    request.headers.push_back({"If-None-Match", std::string(if_none_match)});
  }
  if (!body.empty()) {
    request.headers.push_back({"Content-Type", "application/json"});
    request.body = std::as_bytes(std::span(body));
  }
  FLOE_ASSIGN_OR_RETURN(std::string authorization, Authorization(refresh));
  if (!authorization.empty()) {
    request.headers.push_back(
        {sigv4_ ? "Original-Authorization" : "Authorization", std::move(authorization)});
  }
  if (sigv4_) {
    io::http::SignV4(request, aws_credentials_, sigv4_options_, io::http::Sha256Hex(body),
                     std::chrono::system_clock::now());
  }
  request.idempotent = idempotent;
  FLOE_ASSIGN_OR_RETURN(io::http::Response response, http_.Send(request));
  return CallResult{response.status, std::move(response.body),
                    std::string(response.header("etag"))};
}

Result<CallResult> RestSession::Call(std::string_view method, std::string_view path,
                                     std::string_view query, const std::string& body,
                                     bool idempotent, std::string_view if_none_match) {
  FLOE_ASSIGN_OR_RETURN(CallResult result,
                        Send(method, path, query, body, idempotent, if_none_match, false));
  // A token the server no longer takes: fetch a new one and send again (the server refused the
  // request unread, so even a commit is safe to resend).
  if ((result.status == 401 || result.status == 419) && !credential_.empty()) {
    return Send(method, path, query, body, idempotent, if_none_match, true);
  }
  return result;
}

}  // namespace floe::catalog::rest
