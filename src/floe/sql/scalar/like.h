#pragma once

// SQL's LIKE on one value, for statements that filter names (SHOW TABLES LIKE 'x%'): '%' matches
// any run of characters, '_' one character, everything else itself (no escape character). The
// same matcher as the LIKE predicate's.

#include <string_view>

#include "floe/util/error.h"

namespace floe::sql::scalar {

Result<bool> MatchesLike(std::string_view value, std::string_view pattern);

}  // namespace floe::sql::scalar
