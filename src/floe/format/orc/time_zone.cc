#include <algorithm>
#include <fstream>
#include <iterator>

#include "floe/format/orc/time_zone_internal.h"

namespace floe::orc {
namespace {

int64_t BigEndian(const std::string& bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) value = value << 8 | static_cast<uint8_t>(bytes[at + i]);
  // Sign-extend 4-byte values.
  if (width == 4) return static_cast<int32_t>(static_cast<uint32_t>(value));
  return static_cast<int64_t>(value);
}

}  // namespace

Result<TimeZone> TimeZone::Load(const std::string& name) {
  TimeZone zone;
  if (name.empty() || name == "UTC" || name == "GMT" || name == "Etc/UTC" || name == "Z") {
    return zone;
  }
  if (name.find("..") != std::string::npos || name.front() == '/') {
    return Unsupported("unknown time zone '{}'", name);
  }
  std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
  if (!in) return Unsupported("unknown time zone '{}' (no zone file on this system)", name);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The header: "TZif", a version, 15 reserved bytes, six counts; version 2 and later repeat
  // header and data with 8-byte times after the 4-byte ones.
  constexpr size_t kHeader = 44;
  auto corrupt = [&] { return CorruptData("the zone file of '{}' does not parse", name); };
  if (bytes.size() < kHeader || bytes.compare(0, 4, "TZif") != 0) return corrupt();
  size_t at = 0;
  int time_width = 4;
  for (int pass = 0; pass < 2; ++pass) {
    if (bytes.size() - at < kHeader) return corrupt();
    const int64_t isut = BigEndian(bytes, at + 20, 4), isstd = BigEndian(bytes, at + 24, 4),
                  leap = BigEndian(bytes, at + 28, 4), times = BigEndian(bytes, at + 32, 4),
                  types = BigEndian(bytes, at + 36, 4), chars = BigEndian(bytes, at + 40, 4);
    if (isut < 0 || isstd < 0 || leap < 0 || times < 0 || types <= 0 || chars < 0 ||
        times > 100000 || types > 256) {
      return corrupt();
    }
    const size_t data =
        times * time_width + times + types * 6 + chars + leap * (time_width + 4) + isstd + isut;
    if (bytes.size() - at - kHeader < data) return corrupt();
    if (pass == 0 && bytes[at + 4] >= '2') {
      at += kHeader + data;
      time_width = 8;
      continue;
    }
    const size_t base = at + kHeader;
    const size_t index_at = base + times * time_width;
    const size_t types_at = index_at + times;
    auto offset_of = [&](int64_t type) {
      return static_cast<int32_t>(BigEndian(bytes, types_at + type * 6, 4));
    };
    // Before the first transition: the first standard-time type, as zic writes it first.
    zone.initial_offset_ = offset_of(0);
    for (int64_t i = 0; i < times; ++i) {
      const auto type = static_cast<uint8_t>(bytes[index_at + i]);
      if (type >= types) return corrupt();
      zone.transitions_.push_back(BigEndian(bytes, base + i * time_width, time_width));
      zone.offsets_.push_back(offset_of(type));
    }
    if (!std::is_sorted(zone.transitions_.begin(), zone.transitions_.end())) return corrupt();
    break;
  }
  return zone;
}

int64_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  if (it == transitions_.begin()) return initial_offset_;
  return offsets_[it - transitions_.begin() - 1];
}

}  // namespace floe::orc
