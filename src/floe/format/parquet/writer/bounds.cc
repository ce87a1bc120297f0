#include <vector>

#include "floe/format/parquet/writer/bounds_internal.h"

namespace floe::parquet {
namespace {

// Byte offsets where each UTF-8 code point starts (continuation bytes are 10xxxxxx).
std::vector<size_t> CodePointStarts(std::string_view value) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < value.size(); ++i) {
    if ((static_cast<unsigned char>(value[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

uint32_t DecodeCodePoint(std::string_view bytes) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])); };
  if (bytes.size() == 1) return b(0);
  if (bytes.size() == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (bytes.size() == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

void AppendCodePoint(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

std::string TruncateLowerBound(std::string_view value, int32_t length, bool utf8) {
  size_t n = static_cast<size_t>(length);
  if (!utf8) return std::string(value.substr(0, n));
  std::vector<size_t> starts = CodePointStarts(value);
  if (starts.size() <= n) return std::string(value);
  return std::string(value.substr(0, starts[n]));
}

std::optional<std::string> TruncateUpperBound(std::string_view value, int32_t length, bool utf8) {
  size_t n = static_cast<size_t>(length);
  if (!utf8) {
    if (value.size() <= n) return std::string(value);
    std::string prefix(value.substr(0, n));
    while (!prefix.empty()) {
      auto last = static_cast<unsigned char>(prefix.back());
      if (last != 0xFF) {
        prefix.back() = static_cast<char>(last + 1);
        return prefix;
      }
      prefix.pop_back();
    }
    return std::nullopt;
  }
  std::vector<size_t> starts = CodePointStarts(value);
  if (starts.size() <= n) return std::string(value);
  for (size_t i = n; i-- > 0;) {
    uint32_t next = DecodeCodePoint(value.substr(starts[i], starts[i + 1] - starts[i])) + 1;
    if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;  // surrogates are not code points
    if (next <= 0x10FFFF) {
      std::string out(value.substr(0, starts[i]));
      AppendCodePoint(next, out);
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace floe::parquet
