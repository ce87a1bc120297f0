#pragma once

// Rows of text cells into batches of a schema: what the file source's CSV and JSON readers
// (file_batch_reader.cc) and the record decoders (record_decoder.h) share. A cell with a null
// data() is a null; an empty cell with a non-null data() is an empty string.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/record_batch.h"
#include "floe/stream/connectors/text_columns.h"
#include "floe/util/json.h"

namespace floe::stream {

class TextBatchBuilder {
 public:
  // kInvalidArgument naming the column when a column type has no text form.
  static Result<TextBatchBuilder> Make(BatchSchemaPtr schema);

  // Appends one row of num_columns() cells. On an error (a null in a non-nullable column, a cell
  // that does not parse, naming the column) the row is left out of the batch.
  Status Add(std::span<const std::string_view> cells, RowKind kind = RowKind::kInsert);

  // Leaves row `row` (counted from the last Finish) out of the batch: one half of an update
  // whose other half failed.
  void LeaveOut(int64_t row) {
    kept_ -= keep_[row];
    keep_[row] = 0;
    any_left_out_ = true;
  }

  // Rows added since the last Finish, left-out ones included.
  int64_t rows() const { return rows_; }
  // Rows added since the last Finish and not left out: those Finish gives.
  int64_t kept() const { return kept_; }
  int num_columns() const { return static_cast<int>(types_.size()); }
  const BatchSchema& schema() const { return *schema_; }

  // The rows added since the last Finish (with row kinds when one is not +I); nullopt for none.
  Result<std::optional<RecordBatch>> Finish();

 private:
  BatchSchemaPtr schema_;
  BatchSchemaPtr nullable_schema_;  // the schema with every column nullable: left-out rows' nulls
  std::vector<TextColumnType> types_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  std::vector<uint8_t> kinds_;
  std::vector<uint8_t> keep_;
  bool any_left_out_ = false;
  bool any_change_ = false;
  int64_t rows_ = 0;
  int64_t kept_ = 0;
};

// The cells of a JSON object's members by the schema's column names (other members are ignored;
// an absent member or a JSON null is a null cell). `text` holds the cells' bytes. kInvalidArgument
// for a nested value, and with `fail_on_missing`, for an absent member (naming it).
Status JsonObjectCells(const Json& object, const BatchSchema& schema, bool fail_on_missing,
                       std::vector<std::string>& text, std::vector<std::string_view>& cells);

// The same member by member, for objects that are never built (JsonParser::ForEachMember): made
// for one object, given its members, then Finish.
class JsonCells {
 public:
  JsonCells(const BatchSchema& schema, bool fail_on_missing, std::vector<std::string>& text,
            std::vector<std::string_view>& cells);
  Status Add(std::string_view key, const Json& value);
  Status Finish() const;

 private:
  const BatchSchema& schema_;
  std::vector<std::string>& text_;
  std::vector<std::string_view>& cells_;
  std::vector<bool> seen_;  // by column, with fail_on_missing
};

}  // namespace floe::stream
