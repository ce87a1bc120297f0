#pragma once

// Packs the values of some columns of each row into a byte string, so that rows with equal values
// (nulls equal to nulls) get equal keys: what the delta writer uses to find the earlier insert of
// a key. Each column is encoded in one typed loop. Keys are only compared for equality; they are
// not ordered and not stable across floe versions.

#include <string>
#include <vector>

#include "floe/batch/record_batch.h"

namespace floe::table {

// keys[i] gets row i's key appended, for the given columns of the batch (nested and
// floating-point columns encode their raw bytes; callers use primitive identifier columns).
void AppendRowKeys(const RecordBatch& batch, const std::vector<int>& columns,
                   std::vector<std::string>& keys);

}  // namespace floe::table
