#include "floe/util/url_encode.h"

#include "floe/util/hex.h"

namespace floe {

std::string UrlEncodeForm(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                      (byte >= '0' && byte <= '9') || byte == '.' || byte == '-' || byte == '*' ||
                      byte == '_';
    if (keep) {
      out += c;
    } else if (byte == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

std::optional<std::string> UrlDecodeForm(std::string_view text, bool keep_malformed) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] != '%') {
      out.push_back(text[i]);
    } else {
      const int high = i + 2 < text.size() ? HexDigitValue(text[i + 1]) : -1;
      const int low = high >= 0 ? HexDigitValue(text[i + 2]) : -1;
      if (low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
      } else if (keep_malformed) {
        out.push_back('%');
      } else {
        return std::nullopt;
      }
    }
  }
  return out;
}

std::string PercentEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                      (byte >= '0' && byte <= '9') || byte == '-' || byte == '.' || byte == '_' ||
                      byte == '~' || (keep_slash && byte == '/');
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

}  // namespace floe
