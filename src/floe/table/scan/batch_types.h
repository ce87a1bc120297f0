#pragma once

// How Iceberg values are laid out in batches: the batch type of each Iceberg type (uuid and fixed
// as fixed-size binary, time and timestamps in micro- or nanoseconds, timestamptz as UTC
// timestamps, unknown as the null type) and Literal -> batch Value for constants such as field
// defaults and identity partition values. Variant, geometry and geography have no batch form here
// (kUnsupported naming the type).

#include "floe/batch/data_type.h"
#include "floe/batch/value.h"
#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe::table {

Result<DataTypePtr> ToBatchType(const Type& type);
// A field of the schema as a batch field: its name, id, batch type, and nullable unless required.
Result<Field> ToBatchField(const NestedField& field);
// The top-level fields of the schema.
Result<std::vector<Field>> ToBatchFields(const Schema& schema);

// The inverse, for tables created from data (a Parquet file's columns): the Iceberg type whose
// batch type is `type`, with nested ids drawn from *next_id. Batch types with no Iceberg type of
// the same layout (small and unsigned integers, half floats, large offsets) are kUnsupported,
// naming the type, rather than silently widened.
Result<TypePtr> FromBatchType(const DataType& type, int32_t* next_id);
// A schema from batch fields: ids 1.. in Iceberg's order are assigned by the table anyway, so
// these are placeholders; required where the batch field is not nullable.
Result<SchemaPtr> SchemaFromBatchFields(const std::vector<Field>& fields);

// The literal as a batch value of ToBatchType(literal.type()).
Value LiteralToValue(const Literal& literal);

}  // namespace floe::table
