#pragma once

// JSON pieces that partition fields and sort fields share (spec Appendix C): the "transform"
// string and the source column(s), written as "source-id" for single-argument transforms and as
// "source-ids" for multi-argument ones. Errors are kCorruptData naming the member.

#include <cstdint>
#include <span>
#include <vector>

#include "floe/spec/transform.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

// Reads "source-ids" when present, else "source-id"; when both are present they must agree.
Result<std::vector<int32_t>> SourceIdsFromJson(const Json& field);
// Sets "source-id" for one id, "source-ids" for several.
void SetSourceIdsJson(Json& field, std::span<const int32_t> source_ids);

Result<Transform> TransformFromJson(const Json& field);

// A required member that must be a 32-bit integer.
Result<int32_t> GetInt32(const Json& object, std::string_view key);

}  // namespace floe
