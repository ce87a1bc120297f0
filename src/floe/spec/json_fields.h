#pragma once

// Checked readers for the field shapes that Iceberg's JSON forms share (32-bit ids, string maps,
// id lists), so that every spec object reports a bad field the same way: the error names the field.
// Json's own getters cover strings, longs and arrays.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "floe/spec/snapshot.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe::json_fields {

// A JSON integer that must fit an Iceberg `int`.
Result<int32_t> GetInt32(const Json& object, std::string_view key);
Result<std::optional<int32_t>> GetOptionalInt32(const Json& object, std::string_view key);
// A long that may be absent or null.
Result<std::optional<int64_t>> GetOptionalLong(const Json& object, std::string_view key);
// An object of string values; absent or null reads as empty.
Result<StringMap> GetStringMap(const Json& object, std::string_view key);
// A list of ints; absent or null reads as empty.
Result<std::vector<int32_t>> GetInt32List(const Json& object, std::string_view key);
// A list of strings; absent or null reads as empty.
Result<std::vector<std::string>> GetStringList(const Json& object, std::string_view key);
// An array that may be absent or null (then nullptr).
Result<const Json::Array*> GetOptionalArray(const Json& object, std::string_view key);

Json StringMapToJson(const StringMap& map);

}  // namespace floe::json_fields
