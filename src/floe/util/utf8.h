#pragma once

// UTF-8 validation, by simdjson's SIMD validator.

#include <string_view>

namespace floe {

// Whether the bytes are well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool IsUtf8(std::string_view bytes);

}  // namespace floe
