#pragma once

// The columnar fast path: decodes Avro records straight into batch builders, walking the compiled
// ReadPlan, with no per-value Datum tree. ToBatchType maps the reader schema to the batch types the
// builders are made for: records to structs, ["null", T] unions to a nullable T, arrays to lists,
// maps to maps with string keys, enums to strings, fixed to fixed-size binary, and logical types to
// their batch counterparts (date32, time64[us], timestamp[us|ns] with or without UTC, decimal128
// for decimals of up to 38 digits). Other unions have no columnar form (kUnsupported).

#include <cstdint>

#include "floe/batch/builder.h"
#include "floe/batch/data_type.h"
#include "floe/format/avro/encoding.h"
#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {

// The batch type of a reader schema node; nullable is set for ["null", T] unions.
Result<DataTypePtr> ToBatchType(const Node& node, bool* nullable = nullptr);

// Decodes count records (as written, resolved by plan) from decoder into builder, which must have
// been made (MakeBuilder) for ToBatchType(plan.reader). Errors are kCorruptData with byte offsets;
// on error the builder holds a partial row and should be discarded.
Status DecodeToBuilder(const ReadPlan& plan, Decoder& decoder, int64_t count,
                       ArrayBuilder& builder);

}  // namespace floe::avro
