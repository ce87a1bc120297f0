#pragma once

// Python rows as a batch, for write_rows: a sequence of dicts, the columns named by the keys of
// the first row, in their order. Each column's type comes from its first non-null value: bool
// BOOLEAN, int BIGINT, float DOUBLE, str STRING, bytes VARBINARY, decimal.Decimal
// DECIMAL(38, s) with s the largest exponent's scale of the column, datetime.datetime
// TIMESTAMP (TIMESTAMP_LTZ when it has a tzinfo: stored as UTC), datetime.date DATE,
// datetime.time TIME, uuid.UUID BINARY(16) (Flink's form of Iceberg's uuid), list ARRAY of
// the first element's type, dict MAP of the first entry's types, a named tuple (floe.Row(x=...,
// y=...), collections.namedtuple) ROW of its fields, each typed from the column's values.
//
// Needs the GIL. kInvalidArgument names the row and column of a value that does not fit its
// column's type, a row that is not a dict or has other keys than the first, a column with only
// nulls (its type cannot be told).

#include <Python.h>

#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe::python {

Result<RecordBatch> RowsToBatch(PyObject* rows);

}  // namespace floe::python
