#pragma once

// Random (version 4) UUIDs, for names that must be unique across processes and machines: table
// uuids, manifest and manifest-list file names, commit ids. The generator is seeded once per
// thread (and again in a forked child) from std::random_device; it is not meant for secrets.

#include <cstdint>
#include <string>

namespace floe {

// A canonical lower-case UUID string: "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".
std::string RandomUuid();

// A uniformly random 64-bit value from the same per-thread generator.
uint64_t RandomU64();

}  // namespace floe
