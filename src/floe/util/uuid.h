#pragma once

// Random (version 4) UUIDs, for names that must be unique across processes and machines: table
// uuids, manifest and manifest-list file names, commit ids. The generator is seeded per thread
// from std::random_device, and again in a forked child; it is not meant for secrets.

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace floe {

// A canonical lower-case UUID string: "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".
std::string RandomUuid();

// The canonical text of a UUID's 16 bytes (big-endian, as Iceberg stores them):
// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case. Other lengths are printed as plain hex.
std::string UuidToString(std::string_view bytes);

// The 16 bytes (big-endian) of a UUID in its canonical text, 8-4-4-4-12 hex digits of either case:
// the form Iceberg's JSON and Avro's uuid strings hold. Anything else is an InvalidArgument.
Result<std::string> ParseUuid(std::string_view text);

// A uniformly random 64-bit value from the same per-thread generator.
uint64_t RandomU64();

}  // namespace floe
