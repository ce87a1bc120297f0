#pragma once

// Projection and filtering on the stream runtime: an operator that keeps the rows where a
// predicate holds and computes one output column per expression, batch by batch. Row kinds pass
// through untouched, so it works on change streams. Evaluation errors (division by zero, a failed
// CAST) fail the job with the expression's message.

#include <string>
#include <vector>

#include "floe/sql/scalar/scalar_expr.h"
#include "floe/stream/data_stream.h"

namespace floe::sql::plan {

struct Projection {
  ScalarExprPtr filter;  // null: every row
  std::vector<ScalarExprPtr> columns;
  std::vector<std::string> names;  // one per column
};

// The output schema: one field per column, typed and nullable as its expression.
BatchSchemaPtr ProjectionSchema(const Projection& projection);

// A Calc operator reading `input` at its parallelism (forward exchange).
stream::DataStream Project(const stream::DataStream& input, Projection projection,
                           const std::string& name);

}  // namespace floe::sql::plan
