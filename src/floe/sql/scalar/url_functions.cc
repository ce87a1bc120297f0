// URL functions with Flink's semantics. URL_ENCODE writes the string's UTF-8 bytes as Java's
// URLEncoder does for "application/x-www-form-urlencoded": letters, digits and . - * _ as they are,
// a space as '+', every other byte as %XX (upper-case hex). URL_DECODE reverses it: '+' is a
// space, %XX a byte; a malformed escape, or bytes that are not UTF-8, give NULL. PARSE_URL(url,
// part [, key]) takes a part of scheme://[userinfo@]host[:port][/path][?query][#ref] as Java's URL
// names them: PROTOCOL, AUTHORITY ([userinfo@]host[:port]), USERINFO, HOST, PATH, QUERY, FILE
// (path and ?query) and REF; with a key, QUERY gives the value of its first key=value pair. A part
// the URL lacks, an unknown part name, or a string that is not such a URL give NULL.

#include <optional>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether bytes are well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool IsUtf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    const size_t length = lead < 0x80           ? 1
                          : (lead >> 5) == 0x6  ? 2
                          : (lead >> 4) == 0xE  ? 3
                          : (lead >> 3) == 0x1E ? 4
                                                : 0;
    if (length == 0 || i + length > bytes.size()) return false;
    uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(bytes[i + k]);
      if ((next >> 6) != 0x2) return false;
      code = (code << 6) | (next & 0x3F);
    }
    constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

void UrlEncode(std::string_view text, std::string& out) {
  constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '*' || c == '_') {
      out.push_back(c);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xF]);
    }
  }
}

bool UrlDecode(std::string_view text, std::string& out) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] != '%') {
      out.push_back(text[i]);
    } else {
      if (i + 2 >= text.size()) return false;
      const int high = HexDigit(text[i + 1]);
      const int low = HexDigit(text[i + 2]);
      if (high < 0 || low < 0) return false;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    }
  }
  return IsUtf8(out);
}

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
                        UrlEncode(a[0].GetView(i), out);
                        return true;
                      }
                      return UrlDecode(a[0].GetView(i), out);
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
