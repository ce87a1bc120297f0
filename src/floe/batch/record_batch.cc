#include "floe/batch/record_batch.h"

#include <algorithm>

namespace floe {

std::string_view RowKindSymbol(RowKind kind) {
  switch (kind) {
    case RowKind::kInsert:
      return "+I";
    case RowKind::kUpdateBefore:
      return "-U";
    case RowKind::kUpdateAfter:
      return "+U";
    case RowKind::kDelete:
      return "-D";
  }
  return "?";
}

Result<RowKind> ParseRowKind(std::string_view symbol) {
  for (RowKind kind :
       {RowKind::kInsert, RowKind::kUpdateBefore, RowKind::kUpdateAfter, RowKind::kDelete}) {
    if (symbol == RowKindSymbol(kind)) return kind;
  }
  return InvalidArgument("unknown row kind '{}', expected +I, -U, +U or -D", symbol);
}

BatchSchema::BatchSchema(std::vector<Field> fields) : fields_(std::move(fields)) {}

int BatchSchema::FindFieldIndex(std::string_view name) const {
  for (int i = 0; i < num_fields(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return -1;
}

int BatchSchema::FindFieldIndexById(int32_t field_id) const {
  for (int i = 0; i < num_fields(); ++i) {
    if (fields_[i].field_id == field_id) return i;
  }
  return -1;
}

std::string BatchSchema::ToString() const {
  std::string out;
  for (int i = 0; i < num_fields(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].ToString();
  }
  return out;
}

RecordBatch::RecordBatch() : schema_(std::make_shared<BatchSchema>(std::vector<Field>{})) {}

namespace {

Status CheckRowKinds(const Buffer& kinds, int64_t num_rows) {
  if (kinds.size() != num_rows) {
    return InvalidArgument("{} row kinds for {} rows", kinds.size(), num_rows);
  }
  for (int64_t i = 0; i < num_rows; ++i) {
    if (kinds.data()[i] > static_cast<uint8_t>(RowKind::kDelete)) {
      return InvalidArgument("row {}: invalid row kind {}", i, kinds.data()[i]);
    }
  }
  return Ok();
}

}  // namespace

Result<RecordBatch> RecordBatch::Make(BatchSchemaPtr schema, std::vector<Array> columns,
                                      int64_t num_rows, std::optional<Buffer> row_kinds) {
  if (!schema) return InvalidArgument("record batch without a schema");
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return InvalidArgument("record batch with {} columns for {} fields", columns.size(),
                           schema->num_fields());
  }
  for (int i = 0; i < schema->num_fields(); ++i) {
    const Field& field = schema->field(i);
    const Array& column = columns[i];
    if (!column.type() || !column.type()->Equals(*field.type)) {
      return InvalidArgument("column {} ({}) is {}, the schema says {}", i, field.name,
                             column.type() ? column.type()->ToString() : "untyped",
                             field.type->ToString());
    }
    if (column.length() != num_rows) {
      return InvalidArgument("column {} ({}) has {} rows, the batch {}", i, field.name,
                             column.length(), num_rows);
    }
    if (!field.nullable && column.null_count() != 0) {
      return InvalidArgument("column {} ({}) is required but has {} nulls", i, field.name,
                             column.null_count());
    }
  }
  if (row_kinds) FLOE_RETURN_IF_ERROR(CheckRowKinds(*row_kinds, num_rows));
  RecordBatch batch;
  batch.schema_ = std::move(schema);
  batch.columns_ = std::move(columns);
  batch.num_rows_ = num_rows;
  batch.row_kinds_ = std::move(row_kinds);
  return batch;
}

Result<RecordBatch> RecordBatch::Make(BatchSchemaPtr schema, std::vector<Array> columns) {
  int64_t num_rows = columns.empty() ? 0 : columns[0].length();
  return Make(std::move(schema), std::move(columns), num_rows);
}

const Array* RecordBatch::GetColumnByName(std::string_view name) const {
  int index = schema_->FindFieldIndex(name);
  return index < 0 ? nullptr : &columns_[index];
}

std::span<const RowKind> RecordBatch::row_kinds() const {
  if (!row_kinds_) return {};
  return {reinterpret_cast<const RowKind*>(row_kinds_->data()), static_cast<size_t>(num_rows_)};
}

Result<RecordBatch> RecordBatch::WithRowKinds(std::optional<Buffer> row_kinds) const {
  if (row_kinds) FLOE_RETURN_IF_ERROR(CheckRowKinds(*row_kinds, num_rows_));
  RecordBatch out = *this;
  out.row_kinds_ = std::move(row_kinds);
  return out;
}

RecordBatch RecordBatch::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, num_rows_);
  length = std::clamp<int64_t>(length, 0, num_rows_ - offset);
  RecordBatch out;
  out.schema_ = schema_;
  out.num_rows_ = length;
  out.columns_.reserve(columns_.size());
  for (const Array& column : columns_) out.columns_.push_back(column.Slice(offset, length));
  if (row_kinds_) out.row_kinds_ = row_kinds_->Slice(offset, length);
  return out;
}

Result<RecordBatch> RecordBatch::SelectColumns(std::span<const int> indices) const {
  std::vector<Field> fields;
  std::vector<Array> columns;
  for (int index : indices) {
    if (index < 0 || index >= num_columns()) {
      return InvalidArgument("column index {} out of range [0, {})", index, num_columns());
    }
    fields.push_back(schema_->field(index));
    columns.push_back(columns_[index]);
  }
  RecordBatch out;
  out.schema_ = std::make_shared<BatchSchema>(std::move(fields));
  out.columns_ = std::move(columns);
  out.num_rows_ = num_rows_;
  out.row_kinds_ = row_kinds_;
  return out;
}

Result<RecordBatch> RecordBatch::SelectColumnsByName(std::span<const std::string> names) const {
  std::vector<int> indices;
  for (const std::string& name : names) {
    int index = schema_->FindFieldIndex(name);
    if (index < 0) return NotFound("no column named '{}' in [{}]", name, schema_->ToString());
    indices.push_back(index);
  }
  return SelectColumns(indices);
}

Result<RecordBatch> RecordBatch::SelectColumnsByFieldId(std::span<const int32_t> field_ids) const {
  std::vector<int> indices;
  for (int32_t id : field_ids) {
    int index = schema_->FindFieldIndexById(id);
    if (index < 0) return NotFound("no column with field id {} in [{}]", id, schema_->ToString());
    indices.push_back(index);
  }
  return SelectColumns(indices);
}

}  // namespace floe
