#pragma once

// How the rows of an INSERT's query become rows of the table it writes: each table column takes
// a query column (by position, or by the INSERT's column list), implicitly cast when the types
// differ; a static PARTITION value (a constant); or null when a column list leaves it out. The
// projection runs as one operator between the query and the IcebergSink.
//
// What can go wrong: a column count that does not match, an unknown or repeated column in the
// list, a type that cannot be cast (the error names the column and both types), a NOT NULL column
// the statement gives no value, and at run time a null for a NOT NULL column (the error names it,
// as Flink's not-null enforcer does).

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/sql/scalar/scalar_expr.h"
#include "floe/stream/data_stream.h"

namespace floe::sql {

struct InsertMapping {
  BatchSchemaPtr output;  // the table's columns
  // One per output column, evaluated over the query's rows; null: the column is all nulls.
  std::vector<ScalarExprPtr> values;
};

// `table_name` for messages; `columns` is the written column list (empty: every column that has
// no static value, in table order); `static_values` are the PARTITION (c = constant) values.
Result<InsertMapping> MapInsertColumns(
    const std::string& table_name, const BatchSchemaPtr& table_columns, const BatchSchema& query,
    const std::vector<std::string>& columns,
    const std::vector<std::pair<std::string, ScalarExprPtr>>& static_values);

// Per-subtask metric of the rows the projection has passed to the sink, for progress displays.
inline constexpr std::string_view kInsertedRowsMetric = "insertedRows";

// The query's stream turned into the table's columns. Each row that passes adds one to *rows
// (for the statement's message) and to the kInsertedRowsMetric; row kinds pass through unchanged.
stream::DataStream ProjectToTable(const stream::DataStream& input, InsertMapping mapping,
                                  std::shared_ptr<std::atomic<int64_t>> rows);

}  // namespace floe::sql
