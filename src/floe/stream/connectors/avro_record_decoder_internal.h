#pragma once

// The `avro` record format of record_decoder.h: a record is the plain Avro binary encoding (no
// container, no schema id) of one record of the table's columns, as Flink's avro format writes
// it: nullable columns (and nested fields) as ["null", T] unions, BOOLEAN, INT, BIGINT, FLOAT,
// DOUBLE, STRING, BYTES as themselves, DATE as int date, TIMESTAMP(4..6) (and _LTZ) as long
// timestamp-micros, DECIMAL as bytes decimal, ARRAY as array, MAP<STRING, T> as map, ROW as a
// nested record. Other column types fail Make naming the column. Columns named in `not_null` are
// written without the null union (record_decoder.h).

#include <memory>

#include "floe/stream/connectors/record_decoder.h"

namespace floe::stream {

Result<std::unique_ptr<RecordDecoder>> MakeAvroDecoder(BatchSchemaPtr schema,
                                                       const std::vector<std::string>& not_null,
                                                       bool ignore_errors);

}  // namespace floe::stream
