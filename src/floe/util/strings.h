#pragma once

// Small text helpers every layer needs: ASCII case folding and whitespace trimming, for property
// values, type names and command-line input (never for user data, whose case is meaningful).

#include <string>
#include <string_view>

namespace floe {

// The text with A-Z folded to a-z; other bytes, UTF-8 included, unchanged.
std::string AsciiLower(std::string_view text);

// The text with a-z folded to A-Z; other bytes unchanged.
std::string AsciiUpper(std::string_view text);

// Whether a and b are equal with A-Z and a-z taken as the same.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// The text without leading and trailing ASCII whitespace.
std::string_view TrimWhitespace(std::string_view text);

}  // namespace floe
