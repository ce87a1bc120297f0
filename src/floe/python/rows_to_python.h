#pragma once

// Batches as Python rows, for TableResult.collect(): one conversion per column (dispatching on
// the type once per column, not per value), then one row object per row. Values become Python's
// own: int, float, bool, decimal.Decimal, str, bytes, datetime.date / time / datetime (naive for
// TIMESTAMP, UTC-aware for TIMESTAMP_LTZ; nanoseconds are cut to Python's microseconds), lists,
// dicts for maps, named rows for rows (made by the package's row factory), None for nulls.
//
// Every function needs the GIL. Failures (a date outside Python's years 1..9999, a map key Python
// cannot hash) leave a Python exception set and return false / nullptr.

#include <Python.h>

#include "floe/batch/record_batch.h"

namespace floe::python {

// Imports what the conversion uses (datetime's C API, decimal.Decimal); once, at module import.
bool InitRowConversion();

// The package's factory of ROW values: factory(names, values), two tuples, returns the row.
void SetRowFactory(PyObject* factory);

// Appends one row per row of `batch` to `out` (a list). Rows are instances of the tuple subclass
// row_classes[kind] (a tuple of four classes, one per RowKind, made by the Python package) with
// the columns' values as items.
bool AppendRows(const RecordBatch& batch, PyObject* row_classes, PyObject* out);

}  // namespace floe::python
