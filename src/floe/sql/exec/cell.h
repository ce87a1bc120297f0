#pragma once

// Cells of flat columns as the relational operators need them: a byte encoding in which equal
// SQL values (of one type) have equal bytes, so that it can key hash tables (GROUP BY keys,
// DISTINCT sets, join keys) and be decoded back into a column; a total order for MIN/MAX and
// ORDER BY; and copying one cell into a builder. Floats encode -0.0 as 0.0 and every NaN alike;
// NaN sorts above every number (as Java's Double.compare does for Flink).
//
// Flat types are booleans, integers, floats, decimals, dates, times, timestamps, strings and
// binaries. Nested values (lists, structs, maps) encode as their JSON text: good for equality,
// but they can neither be decoded nor ordered (IsOrderable/IsDecodable say so up front).

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/batch/array.h"
#include "floe/batch/builder.h"
#include "floe/util/error.h"

namespace floe::sql::exec {

bool IsOrderable(const DataType& type);
bool IsDecodable(const DataType& type);

// Appends row `row` of `array` (a null too) to `out`.
void EncodeCell(const Array& array, int64_t row, std::string& out);
// Reads one cell that EncodeCell wrote from the front of `in` (advancing it) into `builder`,
// which builds `type`. kCorruptData when the bytes end early.
Status DecodeCell(const DataType& type, std::string_view& in, ArrayBuilder& builder);
// Compares two encodings of one orderable type (nulls first).
int CompareEncoded(const DataType& type, std::string_view a, std::string_view b);
// Compares non-null cells of two arrays of the same orderable type.
int CompareCells(const Array& a, int64_t i, const Array& b, int64_t j);
// Appends row `row` of `array` to a builder of the same type.
Status AppendCell(ArrayBuilder& builder, const Array& array, int64_t row);

}  // namespace floe::sql::exec
