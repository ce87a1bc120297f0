#include <fmt/core.h>

#include <charconv>
#include <cstdint>

#include "floe/io/s3/s3_xml_internal.h"
#include "floe/util/calendar.h"

namespace floe::io::s3_xml {

std::vector<std::string_view> Elements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  std::string open = fmt::format("<{}>", tag);
  std::string close = fmt::format("</{}>", tag);
  size_t at = 0;
  while (true) {
    size_t start = xml.find(open, at);
    if (start == std::string_view::npos) break;
    start += open.size();
    size_t end = xml.find(close, start);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(start, end - start));
    at = end + close.size();
  }
  return out;
}

std::string Text(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> found = Elements(xml, tag);
  return found.empty() ? std::string() : Decode(found.front());
}

namespace {

void AppendUtf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

std::string Decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    size_t semicolon = text.find(';', i);
    if (semicolon == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    std::string_view entity = text.substr(i + 1, semicolon - i - 1);
    if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.starts_with('#') && entity.size() > 1) {
      bool hex = entity[1] == 'x' || entity[1] == 'X';
      std::string_view digits = entity.substr(hex ? 2 : 1);
      uint32_t code = 0;
      auto [end, error] =
          std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
      if (error != std::errc() || end != digits.data() + digits.size() || code > 0x10FFFF) {
        out += text.substr(i, semicolon - i + 1);
      } else {
        AppendUtf8(out, code);
      }
    } else {
      out += text.substr(i, semicolon - i + 1);
    }
    i = semicolon;
  }
  return out;
}

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

int64_t IsoMillis(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS, then an optional fraction, then Z.
  auto number = [&](size_t at, size_t digits, int& out) {
    if (at + digits > text.size()) return false;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + digits, out);
    return ec == std::errc() && end == text.data() + at + digits;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || !number(0, 4, year) || !number(5, 2, month) || !number(8, 2, day) ||
      !number(11, 2, hour) || !number(14, 2, minute) || !number(17, 2, second) || month < 1 ||
      month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 || minute > 59 ||
      second > 60) {
    return 0;
  }
  int64_t millis = 0;
  size_t at = 19;
  if (text[at] == '.') {
    int64_t scale = 100;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10) {
      millis += (text[at] - '0') * scale;
    }
  }
  if (at + 1 != text.size() || text[at] != 'Z') return 0;
  int64_t seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return seconds * 1000 + millis;
}

}  // namespace floe::io::s3_xml
