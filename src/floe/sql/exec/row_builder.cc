#include <utility>

#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/row_builder_internal.h"

namespace floe::sql::exec {

RowBuilder::RowBuilder(BatchSchemaPtr schema) : schema_(std::move(schema)) {
  for (const Field& field : schema_->fields()) builders_.push_back(MakeBuilder(field.type));
}

Status RowBuilder::AppendCells(const RecordBatch& batch, int64_t row, int first_column) {
  for (int c = 0; c < batch.num_columns(); ++c) {
    FLOE_RETURN_IF_ERROR(AppendCell(*builders_[first_column + c], batch.column(c), row));
  }
  return {};
}

void RowBuilder::AppendNulls(int first_column, int count) {
  for (int c = first_column; c < first_column + count; ++c) builders_[c]->AppendNull();
}

void RowBuilder::EndRow(RowKind kind) {
  kinds_.push_back(static_cast<char>(kind));
  all_inserts_ = all_inserts_ && kind == RowKind::kInsert;
}

Result<RecordBatch> RowBuilder::Finish() {
  std::vector<Array> columns;
  columns.reserve(builders_.size());
  for (auto& builder : builders_) {
    FLOE_ASSIGN_OR_RETURN(Array column, builder->Finish());
    columns.push_back(std::move(column));
  }
  int64_t rows = num_rows();
  std::optional<Buffer> kinds;
  if (!all_inserts_) kinds = Buffer::CopyOf(kinds_);
  kinds_.clear();
  all_inserts_ = true;
  return RecordBatch::Make(schema_, std::move(columns), rows, std::move(kinds));
}

}  // namespace floe::sql::exec
