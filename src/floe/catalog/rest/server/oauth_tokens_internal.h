#pragma once

// The tokens `floe serve --credential` issues (RestServer): the OAuth2 client-credentials grant
// of POST /v1/oauth/tokens, and the check of each request's bearer token. Thread-safe.

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "floe/catalog/rest/rest_messages.h"

namespace floe::catalog::rest {

class OAuthTokens {
 public:
  OAuthTokens(std::vector<std::string> credentials, int64_t lifetime_s);

  bool enabled() const { return !credentials_.empty(); }

  // The token for a form-encoded grant request body; the ErrorModel (400 invalid_request /
  // unsupported_grant_type, 401 invalid_client) when the grant is refused.
  Result<OAuthToken> Grant(std::string_view form_body);

  // 0 when the Authorization header value carries a valid token; else the status to answer
  // (401 unknown or missing, 419 expired).
  int Check(std::string_view authorization);

 private:
  std::vector<std::string> credentials_;
  std::chrono::seconds lifetime_;
  std::mutex mu_;
  std::map<std::string, std::chrono::steady_clock::time_point, std::less<>> tokens_;
};

// The decoded key/value pairs of an application/x-www-form-urlencoded body.
std::multimap<std::string, std::string> ParseForm(std::string_view body);

}  // namespace floe::catalog::rest
