#pragma once

// Turns columns read from a data file into columns of the table's schema, matching fields by id
// (spec "Column Projection" and "Schema Evolution"): renamed fields are found by their id, fields
// the file lacks become their initial-default (or null), fields the table dropped are not asked
// for, and promoted types are widened (int -> long, float -> double, decimal to a wider precision,
// date -> timestamp / timestamp_ns in v3). Structs, lists and maps are projected recursively; list
// and map offsets are shared, not copied. Also accepts the representation differences of
// writers: strings stored as plain binary, INT96 or millisecond timestamps (already micros),
// narrow integers, timestamps without the UTC flag.
//
// Errors name the field: a type the file holds that cannot become the table's type
// (kInvalidArgument), a required field that is missing without a default (kInvalidArgument).

#include <cstdint>
#include <span>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/spec/literal.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::table {

// How a struct's fields in the source are found for the target's fields: by field id (the
// columns of a data file), or by name (rows from outside a table, such as WriteRows' input,
// whose nested fields carry ids of their own or none).
enum class FieldMatch { kById, kByName };

// source (of the file field source_field) as the target field's batch type.
Result<Array> ProjectArray(const Array& source, const Field& source_field,
                           const NestedField& target, FieldMatch match = FieldMatch::kById);

// The column of a field the file does not hold: constant (an identity partition value) when
// given, else the field's initial-default, else nulls. Structs with a default are built from their
// fields' defaults.
Result<Array> MissingArray(const NestedField& target, int64_t rows,
                           const Literal* constant = nullptr);

// A column of rows copies of one value of the target's type.
Result<Array> ConstantArray(const NestedField& target, const Literal& value, int64_t rows);

}  // namespace floe::table
