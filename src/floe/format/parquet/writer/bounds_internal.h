#pragma once

// Truncation of string and binary bounds for Iceberg's truncate(N) metrics mode: the lower bound
// is a prefix (never above the true minimum), the upper bound a prefix with its last incrementable
// unit raised (never below the true maximum), or absent when no such prefix exists.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floe::parquet {

// Strings truncate at code points (UTF-8), binaries at bytes.
std::string TruncateLowerBound(std::string_view value, int32_t length, bool utf8);
std::optional<std::string> TruncateUpperBound(std::string_view value, int32_t length, bool utf8);

}  // namespace floe::parquet
