#pragma once

// Joins arrays or batches of one type end to end into one, copying their rows once: how a writer
// that receives many small slices for one destination hands the layers below it a few large
// batches. Offsets of sliced inputs are honoured; lists and maps join the child rows their entries
// use; structs join field by field.
//
// What can go wrong (kInvalidArgument, nothing built): inputs of different types or schemas, and
// joined string/list data that would overflow 32-bit offsets.

#include <span>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe {

// At least one array; all of the first one's type.
Result<Array> ConcatArrays(std::span<const Array> arrays);
// At least one batch; all with equal schemas. Row kinds are kept: when some batches have them,
// rows of the others are inserts.
Result<RecordBatch> ConcatBatches(std::span<const RecordBatch> batches);

}  // namespace floe
