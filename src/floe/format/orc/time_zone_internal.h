#pragma once

// The UTC offsets of an IANA time zone, from the system's compiled zone files (TZif, under
// /usr/share/zoneinfo): what an ORC reader needs to turn a TIMESTAMP of a stripe written in a zone
// back into the writer's wall clock. Times after the file's last transition keep its last offset
// (the zone files of Debian list transitions up to 2037).

#include <cstdint>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::orc {

class TimeZone {
 public:
  // "UTC", "GMT", "Etc/UTC", "Z" and "" are UTC without a file. kUnsupported for a zone the
  // system does not know, kCorruptData for a zone file that does not parse.
  static Result<TimeZone> Load(const std::string& name);

  bool is_utc() const { return transitions_.empty() && initial_offset_ == 0; }
  // Seconds east of UTC at the instant (seconds since 1970 UTC).
  int64_t OffsetAt(int64_t utc_seconds) const;

 private:
  std::vector<int64_t> transitions_;  // sorted instants
  std::vector<int32_t> offsets_;      // the offset from each transition on
  int32_t initial_offset_ = 0;        // before the first transition
};

}  // namespace floe::orc
