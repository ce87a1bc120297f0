#pragma once

// The Avro form of Iceberg table schemas, for data files written with write-format 'avro' (spec
// Appendix A): field ids on record fields, element-id on arrays, key-id/value-id on string-keyed
// maps, other maps as arrays of key/value records with logicalType "map", optional values as
// ["null", T] unions, decimals as fixed of the fewest bytes, uuid as fixed(16), timestamps with
// adjust-to-utc. Names that Avro does not allow are rewritten as Iceberg Java does ("a b" ->
// "a_x20b"), the original kept in "iceberg-field-name".
//
// Errors: kUnsupported for variant columns and for nested defaults; kInvalidArgument for an Avro
// schema without the field ids or structure Iceberg needs.

#include <memory>
#include <string_view>

#include "floe/batch/record_batch.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::avro {
class Schema;
}  // namespace floe::avro

namespace floe::manifest {

// The Avro schema of rows of this Iceberg schema; the root record is named record_name ("table"
// in Iceberg Java's data files).
Result<std::shared_ptr<const avro::Schema>> ToAvroDataSchema(
    const Schema& schema, std::string_view record_name = "table");

// The Iceberg schema an Avro data file schema describes (ids from its field-id, element-id,
// key-id and value-id attributes). Avro defaults are not carried over.
Result<SchemaPtr> FromAvroDataSchema(const avro::Schema& schema);

// The batch schema of rows of this Iceberg schema, as AvroDataReader produces them and
// AvroDataWriter takes them.
Result<BatchSchemaPtr> AvroBatchSchema(const Schema& schema);

}  // namespace floe::manifest
