#pragma once

// Random (version 4) UUIDs for table uuids and unique file names.

#include <string>

namespace floe {

// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", lower case, from a per-thread generator seeded by the
// operating system, so that concurrent writers in many processes do not collide.
std::string NewUuidV4();

}  // namespace floe
