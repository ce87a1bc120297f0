#pragma once

// Generic reading and writing of Avro values as Datums: decoding through a ReadPlan (which applies
// schema resolution), skipping a value by its writer schema, and encoding a Datum by its schema.
// Decoding errors are kCorruptData with the byte offset; nesting is limited (kMaxNesting) and
// element counts are checked against the bytes that remain, so hostile data cannot exhaust stack or
// memory. Encoding checks that the Datum has the shape the schema asks for (kInvalidArgument
// otherwise).

#include "floe/format/avro/datum.h"
#include "floe/format/avro/encoding.h"
#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {

inline constexpr int kMaxNesting = 200;

Status ReadDatum(const ReadPlan& plan, Decoder& decoder, Datum& out);
Status SkipValue(const Node& writer, Decoder& decoder);
Status WriteDatum(const Node& node, const Datum& datum, Encoder& encoder);

// Reads a collection block header (Avro arrays and maps): the item count, which is negative when a
// byte size follows. Returns 0 at the end of the collection. Counts are checked against the bytes
// that remain when each item needs at least min_item_size bytes, and against max_zero_size_items
// (a running budget) otherwise.
Result<int64_t> ReadBlockCount(Decoder& decoder, size_t min_item_size, int64_t& zero_size_budget);

}  // namespace floe::avro
