#include <fmt/format.h>

#include <algorithm>

#include "floe/batch/filter.h"
#include "floe/stream/connectors/text_rows_internal.h"

namespace floe::stream {

Result<TextBatchBuilder> TextBatchBuilder::Make(BatchSchemaPtr schema) {
  TextBatchBuilder builder;
  std::vector<Field> nullable;
  for (const Field& field : schema->fields()) {
    auto type = TextColumnType::FromDataType(*field.type);
    if (!type) return InvalidArgument("column {}: {}", field.name, type.error().message());
    builder.types_.push_back(*type);
    builder.builders_.push_back(MakeBuilder(field.type));
    nullable.push_back(field);
    nullable.back().nullable = true;
  }
  builder.schema_ = std::move(schema);
  builder.nullable_schema_ = std::make_shared<BatchSchema>(std::move(nullable));
  return builder;
}

Status TextBatchBuilder::Add(std::span<const std::string_view> cells, RowKind kind) {
  Status status;
  size_t c = 0;
  for (; c < cells.size(); ++c) {
    ArrayBuilder& builder = *builders_[c];
    if (cells[c].data() == nullptr) {
      if (!schema_->field(static_cast<int>(c)).nullable) {
        status = InvalidArgument("column {} is null, but not nullable",
                                 schema_->field(static_cast<int>(c)).name);
        break;
      }
      builder.AppendNull();
      continue;
    }
    Status appended = types_[c].Append(cells[c], builder);
    if (!appended) {
      status = InvalidArgument("column {}: {}", schema_->field(static_cast<int>(c)).name,
                               appended.error().message());
      break;
    }
  }
  // A row left out still takes its place in every column, as nulls, until Finish drops it.
  for (; c < builders_.size(); ++c) builders_[c]->AppendNull();
  kinds_.push_back(static_cast<uint8_t>(kind));
  keep_.push_back(status ? 1 : 0);
  kept_ += status ? 1 : 0;
  any_left_out_ |= !status;
  any_change_ |= kind != RowKind::kInsert;
  ++rows_;
  return status;
}

Result<std::optional<RecordBatch>> TextBatchBuilder::Finish() {
  if (rows_ == 0) return std::optional<RecordBatch>();
  std::vector<Array> columns;
  for (auto& builder : builders_) {
    FLOE_ASSIGN_OR_RETURN(Array array, builder->Finish());
    columns.push_back(std::move(array));
  }
  std::optional<Buffer> kinds;
  if (any_change_) kinds = Buffer::CopyOf(kinds_.data(), std::ssize(kinds_));
  int64_t rows = rows_;
  if (any_left_out_) {
    FLOE_ASSIGN_OR_RETURN(RecordBatch all,
                          RecordBatch::Make(nullable_schema_, std::move(columns), rows_, kinds));
    FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterBatch(all, keep_));
    columns.clear();
    for (int i = 0; i < kept.num_columns(); ++i) columns.push_back(kept.column(i));
    rows = kept.num_rows();
    if (any_change_) kinds = Buffer::CopyOf(kept.row_kinds().data(), rows);
  }
  kinds_.clear();
  keep_.clear();
  any_left_out_ = any_change_ = false;
  rows_ = kept_ = 0;
  if (rows == 0) return std::optional<RecordBatch>();
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                        RecordBatch::Make(schema_, std::move(columns), rows, std::move(kinds)));
  return std::optional<RecordBatch>(std::move(batch));
}

Status JsonObjectCells(const Json& object, const BatchSchema& schema, bool fail_on_missing,
                       std::vector<std::string>& text, std::vector<std::string_view>& cells) {
  JsonCells row(schema, fail_on_missing, text, cells);
  for (const auto& [key, value] : object.as_object()) FLOE_RETURN_IF_ERROR(row.Add(key, value));
  return row.Finish();
}

JsonCells::JsonCells(const BatchSchema& schema, bool fail_on_missing,
                     std::vector<std::string>& text, std::vector<std::string_view>& cells)
    : schema_(schema),
      text_(text),
      cells_(cells),
      seen_(fail_on_missing ? schema.num_fields() : 0, false) {
  text_.resize(schema.num_fields());
  cells_.assign(schema.num_fields(), std::string_view());
}

Status JsonCells::Add(std::string_view key, const Json& value) {
  int column = schema_.FindFieldIndex(key);
  if (column < 0) return Ok();
  if (!seen_.empty()) seen_[column] = true;
  std::string& cell = text_[column];
  switch (value.kind()) {
    case Json::Kind::kNull:
      return Ok();
    case Json::Kind::kBool:
      cell = value.as_bool() ? "true" : "false";
      break;
    case Json::Kind::kInt:
      cell = std::to_string(value.as_int());
      break;
    case Json::Kind::kDouble:
      cell = fmt::format("{}", value.as_double());
      break;
    case Json::Kind::kString:
      cell = value.as_string();
      break;
    default:
      return InvalidArgument("key '{}' holds a nested value", key);
  }
  // An empty string is a value, not a null: point at the (non-null) buffer.
  cells_[column] = std::string_view(cell.data(), cell.size());
  return Ok();
}

Status JsonCells::Finish() const {
  auto missing = std::ranges::find(seen_, false);
  if (missing != seen_.end()) {
    return InvalidArgument("field '{}' is missing",
                           schema_.field(static_cast<int>(missing - seen_.begin())).name);
  }
  return Ok();
}

}  // namespace floe::stream
