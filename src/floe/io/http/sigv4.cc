#include "floe/io/http/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <utility>
#include <vector>

#include "floe/util/strings.h"

namespace floe::io::http {
namespace {

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0xf];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &length);
  return std::string(reinterpret_cast<const char*>(out), length);
}

struct UrlParts {
  std::string_view authority;  // host[:port]
  std::string_view path;       // "/..." or ""
  std::string_view query;      // after '?', or ""
};

UrlParts SplitUrl(std::string_view url) {
  UrlParts parts;
  size_t scheme_end = url.find("://");
  std::string_view rest = scheme_end == std::string_view::npos ? url : url.substr(scheme_end + 3);
  size_t path_start = rest.find_first_of("/?");
  parts.authority = rest.substr(0, path_start);
  if (path_start == std::string_view::npos) return parts;
  rest = rest.substr(path_start);
  size_t question = rest.find('?');
  parts.path = rest.substr(0, question);
  if (question != std::string_view::npos) parts.query = rest.substr(question + 1);
  return parts;
}

std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string_view, std::string_view>> params;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (param.empty()) continue;
    size_t equals = param.find('=');
    if (equals == std::string_view::npos) {
      params.emplace_back(param, "");
    } else {
      params.emplace_back(param.substr(0, equals), param.substr(equals + 1));
    }
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += name;
    out += '=';
    out += value;
  }
  return out;
}

// A header value with its ends trimmed and inner runs of spaces collapsed to one.
std::string CanonicalValue(std::string_view value) {
  value = TrimWhitespace(value);
  std::string out;
  bool in_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      in_space = true;
      continue;
    }
    if (in_space && !out.empty()) out += ' ';
    in_space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::span<const std::byte> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  return Hex(digest, length);
}

std::string Sha256Hex(std::string_view text) { return Sha256Hex(std::as_bytes(std::span(text))); }

std::string AmzDate(std::chrono::system_clock::time_point time) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y%m%dT%H%M%SZ", &utc);
  return buffer;
}

SigV4Signature ComputeSigV4(const Request& request, const AwsCredentials& credentials,
                            std::string_view region, std::string_view service,
                            std::string_view payload_hash) {
  // Headers by lowercase name; repeated names keep their values in order, joined by commas.
  std::map<std::string, std::string> headers;
  std::string amz_date;
  for (const Header& header : request.headers) {
    std::string name = AsciiLower(header.name);
    if (name == "authorization") continue;
    std::string value = CanonicalValue(header.value);
    if (name == "x-amz-date") amz_date = value;
    auto [it, inserted] = headers.emplace(name, value);
    if (!inserted) it->second += "," + value;
  }
  std::string canonical_headers;
  std::string signed_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += name;
  }
  UrlParts url = SplitUrl(request.url);

  SigV4Signature out;
  out.canonical_request =
      fmt::format("{}\n{}\n{}\n{}\n{}\n{}", request.method, url.path.empty() ? "/" : url.path,
                  CanonicalQuery(url.query), canonical_headers, signed_headers, payload_hash);
  std::string date = amz_date.substr(0, 8);
  std::string scope = fmt::format("{}/{}/{}/aws4_request", date, region, service);
  out.string_to_sign = fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", amz_date, scope,
                                   Sha256Hex(out.canonical_request));
  std::string key = Hmac("AWS4" + credentials.secret_access_key, date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  std::string signature = Hmac(key, out.string_to_sign);
  out.signature = Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
  out.authorization =
      fmt::format("AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={}, Signature={}",
                  credentials.access_key_id, scope, signed_headers, out.signature);
  return out;
}

void SignV4(Request& request, const AwsCredentials& credentials, const SigV4Options& options,
            std::string_view payload_hash, std::chrono::system_clock::time_point now) {
  std::erase_if(request.headers, [](const Header& h) {
    return EqualsIgnoreCase(h.name, "host") || EqualsIgnoreCase(h.name, "x-amz-date") ||
           EqualsIgnoreCase(h.name, "authorization") ||
           EqualsIgnoreCase(h.name, "x-amz-security-token") ||
           EqualsIgnoreCase(h.name, "x-amz-content-sha256");
  });
  request.headers.push_back({"Host", std::string(SplitUrl(request.url).authority)});
  request.headers.push_back({"x-amz-date", AmzDate(now)});
  if (!credentials.session_token.empty()) {
    request.headers.push_back({"x-amz-security-token", credentials.session_token});
  }
  if (options.content_sha256_header) {
    request.headers.push_back({"x-amz-content-sha256", std::string(payload_hash)});
  }
  SigV4Signature signature =
      ComputeSigV4(request, credentials, options.region, options.service, payload_hash);
  request.headers.push_back({"Authorization", std::move(signature.authorization)});
}

}  // namespace floe::io::http
