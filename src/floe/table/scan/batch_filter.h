#pragma once

// Evaluates a bound Iceberg filter on a whole batch at once (the residual of a scan task), with the
// semantics of expr/evaluator.h: a null fails every comparison, in and starts_with and passes !=,
// not in and not starts_with; NaN sorts above every number and equals only itself; -0 < 0.
// Predicates are typed loops over the column (one dispatch per predicate per batch), not per-row
// Literal comparisons.
//
// The batch holds columns of the schema's types by field id (as the task reader produces them);
// predicates may name fields nested in structs (a null struct makes its fields null). Fails with
// kInvalidArgument when a predicate's column is not in the batch.

#include <cstdint>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/expr/expression.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::table {

// One byte per row: 1 when the row matches.
Result<std::vector<uint8_t>> EvaluateFilter(const expr::Expression& bound, const RecordBatch& batch,
                                            const Schema& schema);

// A column found by field id through structs: the leaf array and the structs on the way, whose
// nulls make the leaf null.
struct ColumnPath {
  Array leaf;
  std::vector<Array> parents;
  bool IsNull(int64_t i) const {
    for (const Array& p : parents) {
      if (p.IsNull(i)) return true;
    }
    return leaf.IsNull(i);
  }
};
Result<ColumnPath> FindColumn(const RecordBatch& batch, const Schema& schema, int32_t field_id);

}  // namespace floe::table
