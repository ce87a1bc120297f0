#include "floe/sql/statement_result.h"

#include "floe/batch/builder.h"

namespace floe::sql {

Result<std::optional<RecordBatch>> InMemoryRows::Next() {
  if (next_ == batches_.size()) return std::optional<RecordBatch>();
  return std::optional<RecordBatch>(std::move(batches_[next_++]));
}

StatementResult StatementResult::Message(std::string text) {
  StatementResult result;
  result.message = std::move(text);
  return result;
}

StatementResult StatementResult::Rows(BatchSchemaPtr schema, std::unique_ptr<RowStream> rows,
                                      bool changelog) {
  StatementResult result;
  result.kind = Kind::kRows;
  result.schema = std::move(schema);
  result.rows = std::move(rows);
  result.changelog = changelog;
  return result;
}

Result<StatementResult> StatementResult::StringTable(
    const std::vector<std::string>& columns, const std::vector<std::vector<std::string>>& rows) {
  std::vector<Field> fields;
  std::vector<Array> arrays;
  for (size_t c = 0; c < columns.size(); ++c) {
    fields.push_back(Field{.name = columns[c], .type = DataType::String()});
    StringBuilder builder(DataType::String());
    for (const auto& row : rows) {
      if (row.size() != columns.size()) {
        return InternalError("a result row has {} values for {} columns", row.size(),
                             columns.size());
      }
      builder.Append(row[c]);
    }
    FLOE_ASSIGN_OR_RETURN(Array array, builder.Finish());
    arrays.push_back(std::move(array));
  }
  auto schema = std::make_shared<BatchSchema>(std::move(fields));
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, std::move(arrays)));
  std::vector<RecordBatch> batches;
  batches.push_back(std::move(batch));
  return Rows(std::move(schema), std::make_unique<InMemoryRows>(std::move(batches)));
}

}  // namespace floe::sql
