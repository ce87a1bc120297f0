#include "floe/batch/make_batch.h"

namespace floe {

Result<RecordBatch> MakeBatch(BatchSchemaPtr schema, const std::vector<std::vector<Value>>& columns,
                              std::optional<Buffer> row_kinds) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return InvalidArgument("make batch: {} columns of values for ({})", columns.size(),
                           schema->ToString());
  }
  std::vector<Array> arrays;
  arrays.reserve(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    FLOE_ASSIGN_OR_RETURN(Array array,
                          MakeArray(schema->field(static_cast<int>(c)).type, columns[c]));
    arrays.push_back(std::move(array));
  }
  const int64_t rows = columns.empty() ? 0 : static_cast<int64_t>(columns[0].size());
  return RecordBatch::Make(std::move(schema), std::move(arrays), rows, std::move(row_kinds));
}

}  // namespace floe
