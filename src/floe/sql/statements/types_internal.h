#pragma once

// Conversions between Flink SQL types (as parsed, ast.h) and Iceberg types (spec/type.h), following
// the Flink connector's two conversion tables. One deliberate reading: the connector
// documentation's Flink-to-Iceberg table lists binary -> binary and varbinary -> fixed, which
// contradicts its own Iceberg-to-Flink table (fixed(N) -> binary(N), binary -> varbinary) and the
// connector's behaviour; floe maps BINARY(n) -> fixed[n] and VARBINARY/BYTES -> binary so that both
// directions agree. Types the connector cannot store (TIMESTAMP WITH TIME ZONE, NULL) are
// Unsupported errors that name the column; Iceberg types Flink has no type for (variant, geometry,
// nanosecond timestamps...) are Unsupported the other way.

#include <cstdint>
#include <vector>

#include "floe/spec/type.h"
#include "floe/sql/syntax/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

// The Iceberg fields of a CREATE TABLE column list. Field ids are provisional (1, 2, ... for the
// top-level columns, then the nested fields); the catalog renumbers them when it creates the table.
// Columns of `primary_key` become required, as Flink makes key columns NOT NULL.
Result<std::vector<NestedField>> ToIcebergFields(const std::vector<ColumnDef>& columns,
                                                 const std::vector<std::string>& primary_key = {});

// One Flink type; nested field ids are taken from *next_id, which is advanced.
Result<TypePtr> ToIcebergType(const SqlType& type, int32_t* next_id);

// The Flink type of an Iceberg type, nullable unless `required`.
Result<SqlType> ToFlinkType(const Type& type, bool required = false);

}  // namespace floe::sql
