#include "floe/batch/filter.h"
#include "floe/batch/take.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/node_internal.h"

namespace floe::sql::scalar {

const Node& AsNode(const ScalarExpr& expr) { return static_cast<const Node&>(expr); }

Result<Array> ColumnNode::Evaluate(const RecordBatch& input) const {
  if (index_ >= input.num_columns()) {
    return InvalidArgument("{}: the input has {} columns, no column {}", ToString(),
                           input.num_columns(), index_);
  }
  const Array& column = input.column(index_);
  if (!column.type()->Equals(*type())) {
    return InvalidArgument("{}: column {} is {}, not {} as bound", ToString(), index_,
                           column.type()->ToString(), type()->ToString());
  }
  return column;
}

Result<Array> LiteralNode::Evaluate(const RecordBatch& input) const {
  return ConstantArray(value_, type(), input.num_rows());
}

Result<std::vector<Array>> EvaluateAll(const std::vector<ScalarExprPtr>& children,
                                       const RecordBatch& input) {
  std::vector<Array> args;
  args.reserve(children.size());
  for (const ScalarExprPtr& child : children) {
    FLOE_ASSIGN_OR_RETURN(Array arg, child->Evaluate(input));
    args.push_back(std::move(arg));
  }
  return args;
}

Result<Array> CallNode::Evaluate(const RecordBatch& input) const {
  std::vector<Array> args;
  args.reserve(children().size());
  for (const ScalarExprPtr& child : children()) {
    if (options_.scalar_constants && AsNode(*child).kind() == NodeKind::kLiteral) {
      const auto& literal = static_cast<const LiteralNode&>(*child);
      FLOE_ASSIGN_OR_RETURN(Array one, ConstantArray(literal.value(), literal.type(), 1));
      args.push_back(std::move(one));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(Array arg, child->Evaluate(input));
    args.push_back(std::move(arg));
  }
  FLOE_ASSIGN_OR_RETURN(Array out, kernel_(args, input.num_rows()));
  return out;
}

ScalarExprPtr MakeLiteral(Value value, DataTypePtr type, std::string text) {
  return std::make_shared<LiteralNode>(std::move(value), std::move(type), std::move(text));
}

ScalarExprPtr Fold(ScalarExprPtr node) {
  const Node& n = AsNode(*node);
  if (n.kind() == NodeKind::kLiteral || n.kind() == NodeKind::kColumn || !n.deterministic()) {
    return node;
  }
  for (const ScalarExprPtr& child : n.children()) {
    if (!child->constant()) return node;
  }
  Result<RecordBatch> one_row =
      RecordBatch::Make(std::make_shared<BatchSchema>(std::vector<Field>{}), {}, 1);
  if (!one_row) return node;
  Result<Array> value = node->Evaluate(*one_row);
  if (!value || value->length() != 1) return node;
  return MakeLiteral(GetValue(*value, 0), node->type(), node->ToString());
}

ScalarExprPtr MakeCall(NodeKind kind, std::vector<ScalarExprPtr> children, DataTypePtr type,
                       bool nullable, std::string text, Kernel kernel, CallOptions options) {
  return Fold(std::make_shared<CallNode>(kind, std::move(children), std::move(type), nullable,
                                         std::move(text), std::move(kernel), options));
}

Result<Array> EvaluateMasked(const ScalarExpr& expr, const RecordBatch& input,
                             std::span<const uint8_t> mask) {
  FLOE_ASSIGN_OR_RETURN(RecordBatch subset, floe::FilterBatch(input, mask));
  FLOE_ASSIGN_OR_RETURN(Array part, expr.Evaluate(subset));
  if (part.length() == 0) return Array::MakeNulls(expr.type(), input.num_rows());
  std::vector<int64_t> positions(input.num_rows());
  int64_t next = 0;
  for (int64_t i = 0; i < input.num_rows(); ++i) {
    positions[i] = mask[i] ? next++ : 0;
  }
  return TakeArray(part, positions);
}

bool AnyNullable(const std::vector<ScalarExprPtr>& children) {
  for (const ScalarExprPtr& child : children) {
    if (child->nullable()) return true;
  }
  return false;
}

}  // namespace floe::sql::scalar
