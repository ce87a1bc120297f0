#pragma once

// Random (version 4) UUIDs for table uuids and unique file names. Drawn from the operating
// system's random source, so two processes never share a sequence. Cannot fail.

#include <string>

namespace floe {

// "f47ac10b-58cc-4372-a567-0e02b2c3d479": lower-case, canonical 8-4-4-4-12 form.
std::string NewUuidV4();

}  // namespace floe
