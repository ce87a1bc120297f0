#pragma once

// Row hashes over some columns of a batch, for hash exchanges (equal keys must land in the same
// subtask). Equal values hash alike within one type: integers by their 64-bit value, floats by
// their bits with -0.0 as 0.0 and every NaN alike, strings and binaries by their bytes, nested
// values by their JSON text (slow, but keys are rarely nested). A null hashes to a fixed value. The
// hash is XXH64 and is not stable across floe versions: never persist it.

#include <cstdint>
#include <span>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

namespace floe {

// Sets hashes[row] (resized to num_rows) to the combined hash of `columns` (indices) in that order.
// Fails on a column index outside the batch.
Status HashRows(const RecordBatch& batch, std::span<const int> columns,
                std::vector<uint64_t>& hashes);

}  // namespace floe
