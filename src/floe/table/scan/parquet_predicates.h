#pragma once

// Turns a scan's bound filter into the column predicates the Parquet reader skips row groups and
// pages with (parquet::ReadOptions::predicates). Only the top-level AND conjuncts that compare one
// column of the file with literals map; each becomes predicates in the file column's physical
// representation that every matching row satisfies, so the reader returns a superset of the
// matching rows and the caller must still apply the whole filter. A conjunct maps only when the
// file's column is decoded the way the table type expects (Iceberg spec, Parquet appendix and type
// promotion): anything else (INT96 or finer-unit timestamps, decimals of another scale or stored
// as bytes, uuid, fixed, booleans, columns the file lacks) is left out, never guessed.
//
// Floating-point columns follow Iceberg's order, where NaN is above every value and -0 below +0,
// while Parquet statistics leave NaN out and compare zeros as equal: > and >= map only when the
// data file's metrics record no NaN in the column, and strict comparisons with a zero literal are
// widened to their non-strict form.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/expr/expression.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/reader/schema_mapping.h"

namespace floe::table {

// One top-level leaf column of a Parquet file, as the batch reader selects and decodes it.
struct ParquetColumn {
  std::string name;                 // the file's column name
  std::optional<int32_t> field_id;  // the file's own field id; unset when ids come from a mapping
  parquet::LeafConversion conversion = parquet::LeafConversion::kNull;
  DataTypePtr type;       // the batch type the reader decodes it to
  bool nan_free = false;  // the data file's metrics count no NaN in it
};

// The predicates for `filter` (bound to the table schema) over a file whose top-level leaf
// columns are `columns`, keyed by Iceberg field id.
std::vector<parquet::ColumnPredicate> ToParquetPredicates(
    const expr::Expression& filter, const std::unordered_map<int32_t, ParquetColumn>& columns);

}  // namespace floe::table
