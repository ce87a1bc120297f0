#include "floe/expr/residual_evaluator.h"

#include "floe/expr/evaluator.h"
#include "floe/expr/projection.h"

namespace floe::expr {

ResidualEvaluator ResidualEvaluator::Make(ExprPtr filter, const PartitionSpec& spec) {
  std::vector<PartitionField> fields(spec.fields().begin(), spec.fields().end());
  return ResidualEvaluator(RewriteNot(filter), std::move(fields));
}

Result<ExprPtr> ResidualEvaluator::ResidualFor(std::span<const Literal> partition) const {
  if (partition.size() != fields_.size()) {
    return InvalidArgument("partition tuple has {} values, the spec has {} fields",
                           partition.size(), fields_.size());
  }
  return Residual(filter_, partition);
}

Result<ExprPtr> ResidualEvaluator::Residual(const ExprPtr& e,
                                            std::span<const Literal> partition) const {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse:
      return e;
    case Op::kAnd:
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(auto l, Residual(e->left(), partition));
      FLOE_ASSIGN_OR_RETURN(auto r, Residual(e->right(), partition));
      return e->op() == Op::kAnd ? And(l, r) : Or(l, r);
    }
    default:
      break;
  }
  if (!e->is_bound()) return InvalidArgument("residual: {} is not bound", e->ToString());
  for (size_t i = 0; i < fields_.size(); ++i) {
    const PartitionField& field = fields_[i];
    if (field.source_ids.size() != 1 || field.source_id() != e->field_id()) continue;
    auto value = [&](int32_t id) -> const Literal* {
      return id == field.field_id ? &partition[i] : nullptr;
    };
    // All rows of the partition match: the predicate is settled.
    FLOE_ASSIGN_OR_RETURN(auto strict, ProjectPredicate(*e, field, true));
    if (strict != nullptr && Evaluate(*strict, value)) return True();
    // No row of the partition can match.
    FLOE_ASSIGN_OR_RETURN(auto inclusive, ProjectPredicate(*e, field, false));
    if (inclusive != nullptr && !Evaluate(*inclusive, value)) return False();
  }
  return e;
}

}  // namespace floe::expr
