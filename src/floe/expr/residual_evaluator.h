#pragma once

// Residual filters (spec "Scan Planning"; the reference implementation's ResidualEvaluator): the
// part of a row filter that still has to be applied to the rows of a file, given the file's
// partition tuple. Predicates the partition decides become true or false and fold away; for an
// identity partition on the filtered column the residual is usually true or false outright.

#include <span>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/spec/partition_spec.h"

namespace floe::expr {

class ResidualEvaluator {
 public:
  // filter must be bound (Bind) to the table schema; spec is the data file's spec, copied.
  static ResidualEvaluator Make(ExprPtr filter, const PartitionSpec& spec);

  // partition: the file's partition tuple, one value per spec field (null Literals for nulls).
  // Errors when the tuple's size differs from the spec or a transform cannot project.
  Result<ExprPtr> ResidualFor(std::span<const Literal> partition) const;

 private:
  ResidualEvaluator(ExprPtr filter, std::vector<PartitionField> fields)
      : filter_(std::move(filter)), fields_(std::move(fields)) {}
  Result<ExprPtr> Residual(const ExprPtr& e, std::span<const Literal> partition) const;

  ExprPtr filter_;
  std::vector<PartitionField> fields_;
};

}  // namespace floe::expr
