#include <algorithm>

#include "floe/catalog/rest/server/oauth_tokens_internal.h"
#include "floe/util/url_encode.h"
#include "floe/util/uuid.h"

namespace floe::catalog::rest {
namespace {

std::string_view FormValue(const std::multimap<std::string, std::string>& form,
                           std::string_view key) {
  auto it = form.find(std::string(key));
  return it == form.end() ? std::string_view() : std::string_view(it->second);
}

}  // namespace

std::multimap<std::string, std::string> ParseForm(std::string_view body) {
  std::multimap<std::string, std::string> out;
  while (!body.empty()) {
    size_t end = body.find('&');
    std::string_view pair = body.substr(0, end);
    size_t eq = pair.find('=');
    if (!pair.empty()) {
      out.emplace(*UrlDecodeForm(pair.substr(0, eq), /*keep_malformed=*/true),
                  eq == std::string_view::npos
                      ? ""
                      : *UrlDecodeForm(pair.substr(eq + 1), /*keep_malformed=*/true));
    }
    if (end == std::string_view::npos) break;
    body.remove_prefix(end + 1);
  }
  return out;
}

OAuthTokens::OAuthTokens(std::vector<std::string> credentials, int64_t lifetime_s)
    : credentials_(std::move(credentials)), lifetime_(lifetime_s) {}

Result<OAuthToken> OAuthTokens::Grant(std::string_view form_body) {
  auto form = ParseForm(form_body);
  if (FormValue(form, "grant_type") != "client_credentials") {
    return InvalidArgument("unsupported_grant_type: only client_credentials is supported");
  }
  std::string credential = std::string(FormValue(form, "client_id")) + ":" +
                           std::string(FormValue(form, "client_secret"));
  if (std::ranges::find(credentials_, credential) == credentials_.end()) {
    return NotFound("invalid_client: unknown client id or wrong secret");
  }
  OAuthToken token;
  token.access_token = RandomUuid();
  token.expires_in_s = lifetime_.count();
  std::lock_guard lock(mu_);
  auto now = std::chrono::steady_clock::now();
  // Expired tokens are kept for one more lifetime, so that their use is told apart (419).
  std::erase_if(tokens_, [&](const auto& entry) { return entry.second + lifetime_ < now; });
  tokens_[token.access_token] = now + lifetime_;
  return token;
}

int OAuthTokens::Check(std::string_view authorization) {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.substr(0, kBearer.size()) != kBearer) return 401;
  std::string_view token = authorization.substr(kBearer.size());
  std::lock_guard lock(mu_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return 401;
  if (it->second < std::chrono::steady_clock::now()) return 419;
  return 0;
}

}  // namespace floe::catalog::rest
