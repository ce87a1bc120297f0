#pragma once

// Gathers rows of an array or batch by index, in the order given (repeats allowed): how writers
// regroup a batch's rows by partition with one pass instead of one per partition. Flat columns
// are copied with typed loops; lists and maps gather the child rows of their entries; structs
// gather each field. Indices must lie in [0, length): a bad index fails (kInvalidArgument) before
// anything is copied.

#include <cstdint>
#include <span>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe {

Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices);
// Row kinds, when the batch has them, are gathered alike.
Result<RecordBatch> TakeBatch(const RecordBatch& batch, std::span<const int64_t> indices);

}  // namespace floe
