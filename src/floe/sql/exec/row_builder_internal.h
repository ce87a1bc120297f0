#pragma once

// Assembles output batches row by row from cells of other batches (and encoded cells), with a
// row kind per row: how joins, sorts and aggregates build what they emit.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/record_batch.h"

namespace floe::sql::exec {

class RowBuilder {
 public:
  explicit RowBuilder(BatchSchemaPtr schema);

  int64_t num_rows() const { return static_cast<int64_t>(kinds_.size()); }
  ArrayBuilder& column(int i) { return *builders_[i]; }
  // Copies every column of `batch`'s row into columns [first_column, ...).
  Status AppendCells(const RecordBatch& batch, int64_t row, int first_column);
  // Nulls into `count` columns from `first_column`.
  void AppendNulls(int first_column, int count);
  // Ends a row whose cells were appended to every column.
  void EndRow(RowKind kind = RowKind::kInsert);
  // The rows so far as a batch (row kinds stored only when some row is not an insert); resets.
  Result<RecordBatch> Finish();

 private:
  BatchSchemaPtr schema_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  std::string kinds_;
  bool all_inserts_ = true;
};

}  // namespace floe::sql::exec
