#include "floe/stream/source_offsets.h"

#include <fmt/format.h>

#include <charconv>

namespace floe::stream {
namespace {

std::optional<int64_t> ParseOffset(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// Calls `item` for each comma-separated item of text.
template <typename F>
Status ForEachItem(std::string_view text, F item) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    FLOE_RETURN_IF_ERROR(item(text.substr(0, comma)));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return Ok();
}

std::string Describe(const std::optional<int64_t>& offset) {
  return offset ? std::to_string(*offset) : std::string("none");
}

}  // namespace

std::string EncodeOffsets(const NamedOffsets& offsets) {
  std::string text;
  for (const auto& [name, offset] : offsets) {
    if (!text.empty()) text += ',';
    text += fmt::format("{}:{}", name, offset);
  }
  return text;
}

Result<NamedOffsets> ParseOffsets(std::string_view text) {
  NamedOffsets offsets;
  FLOE_RETURN_IF_ERROR(ForEachItem(text, [&](std::string_view item) -> Status {
    size_t colon = item.rfind(':');
    std::optional<int64_t> offset;
    if (colon != std::string_view::npos && colon > 0) offset = ParseOffset(item.substr(colon + 1));
    if (!offset) return CorruptData("'{}' is not a map of offsets", text);
    offsets[std::string(item.substr(0, colon))] = *offset;
    return Ok();
  }));
  return offsets;
}

std::string EncodeRanges(const OffsetRanges& ranges) {
  std::string text(kOffsetRangesPrefix);
  bool first = true;
  for (const auto& [name, range] : ranges) {
    if (!first) text += ',';
    first = false;
    text += fmt::format("{}={}..{}", name, range.from ? std::to_string(*range.from) : "", range.to);
  }
  return text;
}

bool IsRanges(std::string_view text) { return text.starts_with(kOffsetRangesPrefix); }

Result<OffsetRanges> ParseRanges(std::string_view text) {
  auto bad = [&] { return CorruptData("'{}' is not a position of offset ranges", text); };
  if (!IsRanges(text)) return bad();
  OffsetRanges ranges;
  FLOE_RETURN_IF_ERROR(
      ForEachItem(text.substr(kOffsetRangesPrefix.size()), [&](std::string_view item) -> Status {
        size_t equals = item.rfind('=');
        size_t dots = item.rfind("..");
        if (equals == std::string_view::npos || equals == 0 || dots == std::string_view::npos ||
            dots < equals) {
          return bad();
        }
        OffsetRange range;
        std::string_view from = item.substr(equals + 1, dots - equals - 1);
        if (!from.empty()) {
          range.from = ParseOffset(from);
          if (!range.from) return bad();
        }
        std::optional<int64_t> to = ParseOffset(item.substr(dots + 2));
        if (!to) return bad();
        range.to = *to;
        ranges[std::string(item.substr(0, equals))] = range;
        return Ok();
      }));
  return ranges;
}

Status ChainRanges(OffsetRanges& ranges, const OffsetRanges& later, std::string_view source) {
  for (const auto& [name, range] : later) {
    auto [at, added] = ranges.emplace(name, range);
    if (added) continue;
    OffsetRange& earlier = at->second;
    if (range.from && *range.from == earlier.to) {
      earlier.to = range.to;
    } else if (earlier.from && *earlier.from == range.to) {
      earlier.from = range.from;
    } else {
      return std::unexpected(Error(
          ErrorKind::kCommitFailed,
          fmt::format("source {} partition {}: read twice, from {} to {} and from {} to {}", source,
                      name, Describe(earlier.from), earlier.to, Describe(range.from), range.to)));
    }
  }
  return Ok();
}

Status ApplyRanges(NamedOffsets& committed, const OffsetRanges& ranges, std::string_view source) {
  for (const auto& [name, range] : ranges) {
    auto at = committed.find(name);
    std::optional<int64_t> current;
    if (at != committed.end()) current = at->second;
    if (current != range.from) {
      return std::unexpected(Error(
          ErrorKind::kCommitFailed,
          fmt::format("fenced: source {} partition {} is committed up to offset {}, but this "
                      "commit read it from offset {} (another process committed it meanwhile)",
                      source, name, Describe(current), Describe(range.from))));
    }
  }
  for (const auto& [name, range] : ranges) committed[name] = range.to;
  return Ok();
}

}  // namespace floe::stream
