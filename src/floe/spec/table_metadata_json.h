#pragma once

// Table metadata JSON (spec Appendix C, "Table Metadata Fields"), read and written as the table's
// format version says.
//
// Reading tolerates unknown fields and accepts the v1 legacy forms: a single `schema` instead of
// `schemas` + `current-schema-id`, a `partition-spec` field list instead of `partition-specs` +
// `default-spec-id`, no `last-partition-id` or sort orders (derived), no `refs` (the main branch is
// derived from `current-snapshot-id`, where -1 means none). The result is validated by
// TableMetadataBuilder. Errors are kCorruptData naming the field (and the list entry), kUnsupported
// for a format version above 3.
//
// Writing emits every field the version requires and the optional ones that carry information;
// fields the version leaves blank (last-sequence-number, sequence numbers, refs of a v1 table
// holding only the derived main branch, v3 snapshot fields before v3) are omitted. A v1 table also
// gets the deprecated `schema` and `partition-spec` that v1 requires.

#include <string>
#include <string_view>

#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

Result<TableMetadataPtr> TableMetadataFromJson(const Json& json);
// Parses text (plain JSON) into metadata.
Result<TableMetadataPtr> TableMetadataFromJsonString(std::string_view text);

Json TableMetadataToJson(const TableMetadata& metadata);
std::string TableMetadataToJsonString(const TableMetadata& metadata, bool pretty = false);

}  // namespace floe
