#pragma once

// The text of one result cell as Flink's SQL client shows it: NULL as <NULL> (NULL inside a
// collection or row, as Flink's CAST to STRING writes it), booleans TRUE and
// FALSE, floating point numbers as Java prints them (1.0, 1.5E10), timestamps
// "2024-01-02 10:30:00.123456" (TIMESTAMP_LTZ in UTC), binary as x'0a0b', arrays [1, 2], maps
// {k=v}, rows (1, a). The client's tableau and changelog views and the SQL script tests use it.

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

std::string FormatCell(const Array& column, int64_t row, std::string_view null_text = kNullText);

}  // namespace floe::sql
