#include "floe/util/utf8.h"

#include <simdjson.h>

namespace floe {

bool IsUtf8(std::string_view bytes) { return simdjson::validate_utf8(bytes.data(), bytes.size()); }

}  // namespace floe
