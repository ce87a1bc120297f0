#pragma once

// File pruning by column metrics (spec "Scan Planning", manifest "data_file" metrics; the
// reference implementation's InclusiveMetricsEvaluator and StrictMetricsEvaluator).
//
// Metrics may be missing or partial: a missing count or bound means "unknown" and never prunes.
// Bounds exclude nulls and NaN; string and binary bounds may be truncated (the lower bound a
// prefix of the true minimum, the upper bound at least the true maximum), which both evaluators
// allow for. A bound that does not decode for the column type is an error naming the field.

#include <cstdint>
#include <string>
#include <unordered_map>

#include "floe/expr/expression.h"

namespace floe::expr {

// The metrics of one data file, by field id, as a manifest entry stores them.
struct DataFileMetrics {
  int64_t record_count = -1;                          // negative: unknown
  std::unordered_map<int32_t, int64_t> value_counts;  // nulls and NaNs included
  std::unordered_map<int32_t, int64_t> null_value_counts;
  std::unordered_map<int32_t, int64_t> nan_value_counts;
  std::unordered_map<int32_t, std::string> lower_bounds;  // binary single-value form
  std::unordered_map<int32_t, std::string> upper_bounds;
};

// Whether a file may contain a row matching the filter (false = it surely holds none).
class InclusiveMetricsEvaluator {
 public:
  // filter must be bound (Bind) to the table schema.
  explicit InclusiveMetricsEvaluator(ExprPtr filter) : filter_(std::move(filter)) {}
  Result<bool> MightMatch(const DataFileMetrics& metrics) const;

 private:
  ExprPtr filter_;
};

// Whether every row of a file matches the filter (false = some row may not).
class StrictMetricsEvaluator {
 public:
  explicit StrictMetricsEvaluator(ExprPtr filter) : filter_(std::move(filter)) {}
  Result<bool> AllMatch(const DataFileMetrics& metrics) const;

 private:
  ExprPtr filter_;
};

}  // namespace floe::expr
