#pragma once

// Partition specs in their JSON form (spec Appendix C, "Partition Specs"):
//   {"spec-id": 0, "fields": [{"source-id": 4, "field-id": 1000, "name": "ts_day",
//                              "transform": "day"}]}
// and the bare field list of v1's deprecated "partition-spec" member. v1 fields may lack
// "field-id": they get ids counting up from 1000 (after any explicit id before them), as the
// reference implementation assigned them. Errors are kCorruptData naming the spec and field.

#include "floe/spec/partition_spec.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

Json PartitionSpecToJson(const PartitionSpec& spec);
// Just the "fields" array.
Json PartitionFieldsToJson(const PartitionSpec& spec);

// Unknown transforms are kept; nothing is checked against a schema (see PartitionSpec::Validate*).
Result<PartitionSpecPtr> PartitionSpecFromJson(const Json& json);
// A bare field list, as v1's "partition-spec"; the spec gets spec_id.
Result<PartitionSpecPtr> PartitionSpecFromFieldsJson(const Json& fields, int32_t spec_id);

}  // namespace floe
