#pragma once

// Keeps the rows of an array or batch selected by a mask (one byte per row, non-zero = keep), in
// order: the step after a predicate or a delete check has decided which rows survive. Flat columns
// are copied with typed loops; lists and maps keep the child rows of their kept entries; structs
// filter each field. Fails only when the mask is shorter than the rows.

#include <cstdint>
#include <span>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe {

Result<Array> FilterArray(const Array& array, std::span<const uint8_t> keep);
// Row kinds, when the batch has them, are filtered alike.
Result<RecordBatch> FilterBatch(const RecordBatch& batch, std::span<const uint8_t> keep);

}  // namespace floe
