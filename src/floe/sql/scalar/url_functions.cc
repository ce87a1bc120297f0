// URL functions with Flink's semantics. URL_ENCODE writes the string's UTF-8 bytes as Java's
// URLEncoder does for "application/x-www-form-urlencoded" (util/url_encode.h: letters, digits and
// . - * _ as they are, a space as '+', every other byte as %XX). URL_DECODE reverses it; a
// malformed escape, or bytes that are not UTF-8, give NULL. PARSE_URL(url,
// part [, key]) takes a part of scheme://[userinfo@]host[:port][/path][?query][#ref] as Java's URL
// names them: PROTOCOL, AUTHORITY ([userinfo@]host[:port]), USERINFO, HOST, PATH, QUERY, FILE
// (path and ?query) and REF; with a key, QUERY gives the value of its first key=value pair. A part
// the URL lacks, an unknown part name, or a string that is not such a URL give NULL.

#include <optional>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/util/url_encode.h"
#include "floe/util/utf8.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

// The parts of scheme://authority[/path][?query][#ref].
struct UrlParts {
  std::string_view protocol, authority, path;
  std::optional<std::string_view> query, ref, userinfo;
  std::string_view host;
};

std::optional<UrlParts> ParseUrl(std::string_view url) {
  UrlParts parts;
  const size_t colon = url.find("://");
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  parts.protocol = url.substr(0, colon);
  for (size_t i = 0; i < parts.protocol.size(); ++i) {
    const char c = parts.protocol[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) {
      return std::nullopt;
    }
  }
  std::string_view rest = url.substr(colon + 3);
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos) {
    parts.ref = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  if (const size_t question = rest.find('?'); question != std::string_view::npos) {
    parts.query = rest.substr(question + 1);
    rest = rest.substr(0, question);
  }
  const size_t slash = rest.find('/');
  parts.authority = rest.substr(0, slash);
  parts.path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  std::string_view host = parts.authority;
  if (const size_t at = host.rfind('@'); at != std::string_view::npos) {
    parts.userinfo = host.substr(0, at);
    host = host.substr(at + 1);
  }
  // The port, unless the colon is inside an IPv6 literal's brackets.
  if (const size_t port = host.rfind(':');
      port != std::string_view::npos && host.find(']', port) == std::string_view::npos) {
    host = host.substr(0, port);
  }
  parts.host = host;
  return parts;
}

// The value of the first `key=value` pair of a query, as Hive's parse_url finds it.
std::optional<std::string_view> QueryValue(std::string_view query, std::string_view key) {
  for (size_t start = 0; start <= query.size();) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    std::string_view pair = query.substr(start, end - start);
    if (pair.size() > key.size() && pair.starts_with(key) && pair[key.size()] == '=') {
      return pair.substr(key.size() + 1);
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string_view> UrlPart(const UrlParts& url, std::string_view part) {
  if (part == "PROTOCOL") return url.protocol;
  if (part == "AUTHORITY") return url.authority;
  if (part == "USERINFO") return url.userinfo;
  if (part == "HOST") return url.host;
  if (part == "PATH") return url.path;
  if (part == "QUERY") return url.query;
  if (part == "REF") return url.ref;
  return std::nullopt;
}

Result<ScalarExprPtr> BindUrlCoding(const Expr& call, Args args, bool encode) {
  FLOE_ASSIGN_OR_RETURN(args[0], StringArg(call, std::move(args[0]), 0));
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [encode](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      if (encode) {
                        out = UrlEncodeForm(a[0].GetView(i));
                        return true;
                      }
                      std::optional<std::string> decoded =
                          UrlDecodeForm(a[0].GetView(i), /*keep_malformed=*/false);
                      if (!decoded || !IsUtf8(*decoded)) return false;
                      out = std::move(*decoded);
                      return true;
                    });
                  });
}

Result<ScalarExprPtr> BindParseUrl(const Expr& call, Args args) {
  for (size_t k = 0; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], StringArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), true, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      std::optional<UrlParts> url = ParseUrl(a[0].GetView(i));
                      if (!url) return false;
                      const std::string_view part = a[1].GetView(i);
                      std::optional<std::string_view> value;
                      if (part == "FILE") {
                        out.assign(url->path);
                        if (url->query) out.append("?").append(*url->query);
                        return true;
                      }
                      value = UrlPart(*url, part);
                      if (value && a.size() == 3) {
                        value =
                            part == "QUERY" ? QueryValue(*value, a[2].GetView(i)) : std::nullopt;
                      }
                      if (!value) return false;
                      out.assign(*value);
                      return true;
                    });
                  });
}

constexpr FunctionDef kUrlFunctions[] = {
    {"URL_ENCODE", 1, 1,
     [](const Expr& call, Args args) { return BindUrlCoding(call, std::move(args), true); }},
    {"URL_DECODE", 1, 1,
     [](const Expr& call, Args args) { return BindUrlCoding(call, std::move(args), false); }},
    {"PARSE_URL", 2, 3, BindParseUrl},
};

}  // namespace

std::span<const FunctionDef> UrlFunctions() { return kUrlFunctions; }

}  // namespace floe::sql::scalar
