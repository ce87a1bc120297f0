#pragma once

// The text of one result cell as Flink's SQL client shows it: NULL as <NULL> (NULL inside a
// collection or row, as Flink's CAST to STRING writes it), booleans TRUE and
// FALSE, floating point numbers as Java prints them (1.0, 1.5E10), timestamps
// "2024-01-02 10:30:00.123" (as many fraction digits as the type's precision; TIMESTAMP_LTZ in
// UTC), binary as x'0a0b', arrays [1, 2], maps {k=v}, rows (1, a); and one row as a JSON line.
// CAST to STRING, the client's tableau, changelog and jsonl views and the SQL script tests use it.

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/batch/array.h"
#include "floe/batch/record_batch.h"

namespace floe::sql {

inline constexpr std::string_view kNullText = "<NULL>";
// A null inside an array, map or row in the tableau: `[a, NULL]`, `{k=NULL}`, `(NULL, 1)`.
inline constexpr std::string_view kNestedNullText = "NULL";
// Flink's Row text (Row#toString, `+I[1, null]`) writes nulls as Java does.
inline constexpr std::string_view kRowTextNull = "null";

// `type` is the column's declared type (a result schema's), whose precision says how many fraction
// digits a TIME(p) or TIMESTAMP(p) shows: p, and digits past p only where they are not zero, as
// Flink's CAST to STRING writes them ("10:30:00" for TIMESTAMP(0), "10:30:00.000" for (3)).
// Arrays may carry an equal type without the declared precision, so callers pass the schema's.
std::string FormatCell(const Array& column, int64_t row, const floe::DataType& type,
                       std::string_view null_text = kNullText);
// The array's own type as the declared one.
std::string FormatCell(const Array& column, int64_t row, std::string_view null_text = kNullText);

// One row of the jsonl mode: a JSON object by the schema's column names, "op" first with
// `row_kind`; times and timestamps with the fraction digits of their column's type (FormatCell).
std::string JsonLine(const BatchSchema& schema, const RecordBatch& batch, int64_t row,
                     bool row_kind);

}  // namespace floe::sql
