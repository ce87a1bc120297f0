#pragma once

// A RecordBatch is a set of equally long columns with their schema: the unit that decoders emit,
// operators transform and writers consume. In change streams each row also has a RowKind; a batch
// of inserts only stores none.
//
// RecordBatch is an immutable value: copies share all buffers (a copy costs one shared-pointer bump
// per column), moves are cheap, and Slice/Select never copy data. Make() checks that the columns
// match the schema, so a RecordBatch is always consistent.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe {

// The change a row describes, as in Flink: +I, -U (the row before an update), +U (after), -D.
enum class RowKind : uint8_t { kInsert = 0, kUpdateBefore = 1, kUpdateAfter = 2, kDelete = 3 };

// "+I", "-U", "+U", "-D".
std::string_view RowKindSymbol(RowKind kind);
Result<RowKind> ParseRowKind(std::string_view symbol);

// The fields of a batch, with lookups by name and by field id.
class BatchSchema {
 public:
  explicit BatchSchema(std::vector<Field> fields);

  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(int i) const { return fields_[i]; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  // Index of the first field with this name or field id, or -1.
  int FindFieldIndex(std::string_view name) const;
  int FindFieldIndexById(int32_t field_id) const;

  bool Equals(const BatchSchema& other) const { return fields_ == other.fields_; }
  friend bool operator==(const BatchSchema& a, const BatchSchema& b) { return a.Equals(b); }
  // One "name: type" per field, comma separated.
  std::string ToString() const;

 private:
  std::vector<Field> fields_;
};

using BatchSchemaPtr = std::shared_ptr<const BatchSchema>;

class RecordBatch {
 public:
  // An empty batch with no columns.
  RecordBatch();

  // Fails unless there is one column per field, each of the field's type and num_rows long, with no
  // nulls in non-nullable fields, and row_kinds (if given) has num_rows bytes of valid RowKinds.
  static Result<RecordBatch> Make(BatchSchemaPtr schema, std::vector<Array> columns,
                                  int64_t num_rows, std::optional<Buffer> row_kinds = std::nullopt);
  // Same, with num_rows taken from the first column (0 without columns).
  static Result<RecordBatch> Make(BatchSchemaPtr schema, std::vector<Array> columns);

  const BatchSchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Array& column(int i) const { return columns_[i]; }
  const std::vector<Array>& columns() const { return columns_; }
  const Field& field(int i) const { return schema_->field(i); }
  // The column with this name, or nullptr.
  const Array* GetColumnByName(std::string_view name) const;

  // Row kinds: without stored kinds every row is an insert.
  bool has_row_kinds() const { return row_kinds_.has_value(); }
  RowKind row_kind(int64_t row) const {
    return row_kinds_ ? static_cast<RowKind>(row_kinds_->data()[row]) : RowKind::kInsert;
  }
  // num_rows() kinds, or empty when all rows are inserts.
  std::span<const RowKind> row_kinds() const;
  // This batch with the given kinds (num_rows() bytes), or with none (all inserts).
  Result<RecordBatch> WithRowKinds(std::optional<Buffer> row_kinds) const;

  // Rows [offset, offset + length), clamped to the batch.
  RecordBatch Slice(int64_t offset, int64_t length) const;
  // The listed columns in the listed order (repeats allowed); fails on an unknown index/name/id.
  Result<RecordBatch> SelectColumns(std::span<const int> indices) const;
  Result<RecordBatch> SelectColumnsByName(std::span<const std::string> names) const;
  Result<RecordBatch> SelectColumnsByFieldId(std::span<const int32_t> field_ids) const;

 private:
  BatchSchemaPtr schema_;
  std::vector<Array> columns_;
  int64_t num_rows_ = 0;
  std::optional<Buffer> row_kinds_;
};

}  // namespace floe
