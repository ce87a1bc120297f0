#pragma once

// The text forms of Literal::FromJson, for callers that parse many cells: a date YYYY-MM-DD as days
// since the epoch; a timestamp YYYY-MM-DDTHH:MM[:SS[.fraction]] in units of 10^-digits seconds,
// with a required zone offset (Z or +-HH:MM, adjusted to UTC) when with_zone and none otherwise; a
// decimal [+-]digits[.digits][e[+-]digits] as its unscaled value and scale. Bad text fails with
// kInvalidArgument quoting it.

#include <cstdint>
#include <string_view>
#include <utility>

#include "floe/util/error.h"

namespace floe {

Result<int64_t> ParseDate(std::string_view text);
Result<int64_t> ParseTimestamp(std::string_view text, int digits, bool with_zone);
Result<std::pair<__int128, int>> ParseDecimal(std::string_view text);

}  // namespace floe
