#pragma once

// How `floe sql` shows the rows of a statement, in the three result modes of Flink's SQL client
// (`sql-client.execution.result-mode`):
//   tableau   — Flink's boxed table, every cell right-aligned. A bounded result is held until
//               its end so that column widths fit the content (capped by
//               `sql-client.display.max-column-width`, longer cells end in "..."), then closes
//               with "N rows in set" or "Empty set". A change stream (StatementResult::changelog)
//               prints each row as it arrives under an `op` column (+I/-U/+U/-D); widths then
//               come from the column types, since later rows are unknown, and it closes with
//               "Received a total of N rows" (or "Query terminated, ..." when cancelled).
//   changelog — one line per row in the form of Flink's Row text: `+I[1, a]`, nulls `null`.
//   jsonl     — one JSON object per row by column name (batch/value.h's JSON, times and
//               timestamps with their column's precision), with "op" first for a change stream.
// Nothing here fails: cells always have a text.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/sql/session_config.h"

namespace floe::cli {

struct PrintOptions {
  sql::ResultMode mode = sql::ResultMode::kTableau;
  int max_column_width = 30;
};

// Terminal columns a UTF-8 text takes: East Asian wide and fullwidth characters count two.
int DisplayWidth(std::string_view text);

// Widths of a streaming tableau from the column types, as Flink derives them: the name's length
// or the widest value of the type (INT 11, BIGINT 20, DECIMAL(p, s) p + 2, BOOLEAN 5, DATE 10,
// TIME and TIMESTAMP by precision, anything else the maximum width), at least the width of
// <NULL>; with `row_kind`, a first column as wide as "op".
std::vector<int> WidthsFromTypes(const BatchSchema& schema, int max_column_width, bool row_kind);

class ResultPrinter {
 public:
  ResultPrinter(std::FILE* out, BatchSchemaPtr schema, bool changelog, PrintOptions options);

  // Before the first batch: a streaming tableau prints its header.
  void Begin();
  void Add(const RecordBatch& batch);
  // After the last batch; `cancelled` when the user stopped the query early.
  void End(bool cancelled);

  int64_t rows() const { return rows_; }

 private:
  std::vector<std::string> RowCells(const RecordBatch& batch, int64_t row) const;
  void PrintBorder(const std::vector<int>& widths);
  void PrintCells(const std::vector<int>& widths, const std::vector<std::string>& cells);
  bool Buffered() const { return options_.mode == sql::ResultMode::kTableau && !changelog_; }

  std::FILE* out_;
  BatchSchemaPtr schema_;
  bool changelog_;
  PrintOptions options_;
  std::vector<std::string> names_;              // with "op" first for a change stream
  std::vector<int> widths_;                     // streaming tableau
  std::vector<std::vector<std::string>> held_;  // bounded tableau: every row's cells
  int64_t rows_ = 0;
};

}  // namespace floe::cli
