#pragma once

// The REST client's connection to its server (rest_catalog.h): base URI and prefix, the headers
// every request carries (`header.*`, the bearer token), and OAuth2 client-credentials tokens
// fetched from the token endpoint and fetched again before they expire or when the server says
// they did (401/419, once per request). Paths are built here: namespaces joined by the unit
// separator 0x1F and percent-encoded, as the OpenAPI document says. With `rest.sigv4-enabled`
// every request is signed with AWS SigV4 (io/http/sigv4.h) for `rest.signing-region` and
// `rest.signing-name` (default "execute-api"), with `rest.access-key-id`/`rest.secret-access-key`/
// `rest.session-token` or the AWS environment and profile as the S3 FileIO reads them; a bearer
// token then travels as Original-Authorization, as Iceberg's Java client sends it. Thread-safe.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/io/http/http_client.h"
#include "floe/io/http/sigv4.h"
#include "floe/util/json.h"

namespace floe::catalog::rest {

// The outcome of one call: its status and body.
struct CallResult {
  long status = 0;
  std::string body;
  std::string etag;  // the ETag header, "" when absent
};

class RestSession {
 public:
  // properties: the client's (before the config merge; uri, credential, token, header.*,
  // oauth2-server-uri, scope).
  static Result<std::unique_ptr<RestSession>> Make(const StringMap& properties);

  // After GET /v1/config: the merged properties may set prefix, token or headers anew.
  Status Configure(const StringMap& merged);

  // Sends one request; path below the base URI ("/v1/config"), query already encoded
  // ("parent=a%1Fb"). body empty: none. An HTTP error status is a CallResult, a transport
  // failure an error (kIO). Only idempotent requests are retried by the HTTP client.
  // if_none_match: sent as If-None-Match when not empty.
  Result<CallResult> Call(std::string_view method, std::string_view path, std::string_view query,
                          const std::string& body, bool idempotent,
                          std::string_view if_none_match = {});

  // "/v1/<prefix>" (no trailing slash).
  std::string Root() const;
  const std::string& uri() const { return uri_; }

 private:
  RestSession(std::string uri, io::http::Client::Options options);
  // The Authorization header value: the static token, a client-credentials token (fetched when
  // missing or about to expire, or always when refresh), or "" for none.
  Result<std::string> Authorization(bool refresh);
  Result<std::string> FetchToken();
  Result<CallResult> Send(std::string_view method, std::string_view path, std::string_view query,
                          const std::string& body, bool idempotent, std::string_view if_none_match,
                          bool refresh);

  std::string uri_;
  std::string prefix_;
  std::vector<io::http::Header> headers_;
  std::string static_token_;
  std::string credential_;  // "id:secret"
  std::string token_endpoint_;
  std::string scope_;
  bool sigv4_ = false;
  io::http::AwsCredentials aws_credentials_;
  io::http::SigV4Options sigv4_options_;
  io::http::Client http_;

  std::mutex mu_;
  std::string token_;
  std::chrono::steady_clock::time_point token_expiry_;
};

// Path segments of the REST routes.
std::string NamespacePath(const Namespace& ns);  // "a%1Fb"
std::string EncodePathPart(std::string_view part);

}  // namespace floe::catalog::rest
