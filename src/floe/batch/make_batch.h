#pragma once

// A record batch from columns of Values (MakeArray per column): for tests and small literal
// inputs, where building arrays by hand would hide what the rows are. Fails as MakeArray does (a
// value that does not fit its column's type), or when the columns' lengths differ.

#include <optional>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/batch/value.h"

namespace floe {

Result<RecordBatch> MakeBatch(BatchSchemaPtr schema, const std::vector<std::vector<Value>>& columns,
                              std::optional<Buffer> row_kinds = std::nullopt);

}  // namespace floe
