#pragma once

// The partition spec of a PARTITIONED BY clause for a schema (transforms as ddl_schema.h reads
// them), with Iceberg's usual partition field names (c, c_bucket, c_trunc, c_year, c_month, c_day,
// c_hour). Errors name the column or the transform: an unknown column or transform, a bad
// argument, a transform the column's type does not allow.

#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/sql/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

Result<PartitionSpecPtr> BuildPartitionSpec(const std::vector<PartitionField>& fields,
                                            const Schema& schema);

}  // namespace floe::sql
