#pragma once

// The wall clock as Iceberg records it: milliseconds since the Unix epoch (last-updated-ms,
// snapshot timestamps, log entries, expiry cut-offs).

#include <cstdint>

namespace floe {

int64_t NowMs();

}  // namespace floe
