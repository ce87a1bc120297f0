#pragma once

// Projection of a row filter onto a partition spec (spec "Scan Planning"; the reference
// implementation's Projections). The projected expression is bound to the partition tuple: its
// predicates name partition fields by id and carry literals of the transform's result type.
//
// Inclusive: true for every partition that may hold a matching row (used to prune partitions and
// manifests). Strict: true only for partitions whose rows all match (used for residuals and
// metadata-only deletes). Year, month, day and hour projections are widened for values before
// 1970 because old writers of the reference implementation rounded those toward zero.
// Unknown transforms, void, and predicates a transform cannot express project to nothing: true
// inclusively, false strictly.

#include "floe/expr/expression.h"

namespace floe {
class PartitionSpec;
struct PartitionField;
}  // namespace floe

namespace floe::expr {

// filter must be bound to schema (Bind). Errors when a transform cannot be applied to a literal.
Result<ExprPtr> ProjectInclusive(const ExprPtr& filter, const Schema& schema,
                                 const PartitionSpec& spec);
Result<ExprPtr> ProjectStrict(const ExprPtr& filter, const Schema& schema,
                              const PartitionSpec& spec);

// One bound predicate projected through one partition field (whose source is the predicate's
// column); nullptr when the transform cannot express it.
Result<ExprPtr> ProjectPredicate(const Expression& predicate, const PartitionField& field,
                                 bool strict);

}  // namespace floe::expr
