#pragma once

// The bound expression nodes shared by the binder's parts: a column reference, a constant, and a
// generic call whose kernel computes a whole column from the columns of its arguments. Push-down
// and constant folding look at a node's kind and children, so every node is one of these classes.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/sql/scalar/scalar_expr.h"

namespace floe::sql::scalar {

// What a node computes, as far as push-down and constant folding tell nodes apart; every other
// operator and function is a kCall.
enum class NodeKind : unsigned char {
  kColumn,
  kLiteral,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kIsNotNull,
  kIsNan,
  kIsNotNan,
  kEqual,
  kNotEqual,
  kLess,
  kLessOrEqual,
  kGreater,
  kGreaterOrEqual,
  kIn,
  kNotIn,
  kBetween,
  kNotBetween,
  kStartsWith,  // LIKE 'prefix%'
  kNotStartsWith,
  kCoerce,  // an implicit cast the binder inserted
  kCall,
};

class Node : public ScalarExpr {
 public:
  NodeKind kind() const { return kind_; }
  const std::vector<ScalarExprPtr>& children() const { return children_; }
  std::string ToString() const override { return text_; }
  // Whether the node gives the same output for the same input (CURRENT_TIMESTAMP does not).
  virtual bool deterministic() const { return true; }

 protected:
  Node(NodeKind kind, std::vector<ScalarExprPtr> children, DataTypePtr type, bool nullable,
       std::string text)
      : ScalarExpr(std::move(type), nullable),
        kind_(kind),
        children_(std::move(children)),
        text_(std::move(text)) {}

 private:
  NodeKind kind_;
  std::vector<ScalarExprPtr> children_;
  std::string text_;
};

const Node& AsNode(const ScalarExpr& expr);

class ColumnNode final : public Node {
 public:
  ColumnNode(int index, DataTypePtr type, bool nullable, std::string text)
      : Node(NodeKind::kColumn, {}, std::move(type), nullable, std::move(text)), index_(index) {}
  Result<Array> Evaluate(const RecordBatch& input) const override;
  std::optional<int> column_index() const override { return index_; }

 private:
  int index_;
};

class LiteralNode final : public Node {
 public:
  LiteralNode(Value value, DataTypePtr type, std::string text)
      : Node(NodeKind::kLiteral, {}, type, value.is_null(), std::move(text)),
        value_(std::move(value)) {}
  Result<Array> Evaluate(const RecordBatch& input) const override;
  std::optional<Value> constant() const override { return value_; }
  const Value& value() const { return value_; }

 private:
  Value value_;
};

// A kernel computes the node's column from its arguments' columns (each input.num_rows() long,
// or one row for a constant argument when the call asks for scalar constants).
using Kernel = std::function<Result<Array>(std::span<const Array> args, int64_t rows)>;

struct CallOptions {
  bool deterministic = true;
  // Constant arguments reach the kernel as one-row arrays (see IsScalarArg) instead of being
  // spread over the batch: for the typed binary kernels.
  bool scalar_constants = false;
};

class CallNode final : public Node {
 public:
  CallNode(NodeKind kind, std::vector<ScalarExprPtr> children, DataTypePtr type, bool nullable,
           std::string text, Kernel kernel, CallOptions options = {})
      : Node(kind, std::move(children), std::move(type), nullable, std::move(text)),
        kernel_(std::move(kernel)),
        options_(options) {}
  Result<Array> Evaluate(const RecordBatch& input) const override;
  bool deterministic() const override { return options_.deterministic; }

 private:
  Kernel kernel_;
  CallOptions options_;
};

// Evaluates every child of a node over the batch.
Result<std::vector<Array>> EvaluateAll(const std::vector<ScalarExprPtr>& children,
                                       const RecordBatch& input);

// A call node, folded into a literal (keeping the text) when every child is constant, the call is
// deterministic and evaluating it succeeds; a failure stays for run time, as Flink reports it then.
ScalarExprPtr MakeCall(NodeKind kind, std::vector<ScalarExprPtr> children, DataTypePtr type,
                       bool nullable, std::string text, Kernel kernel, CallOptions options = {});
// Folds any node whose children are all constant.
ScalarExprPtr Fold(ScalarExprPtr node);

ScalarExprPtr MakeLiteral(Value value, DataTypePtr type, std::string text);

// Evaluates `expr` only on the rows of `input` where mask is non-zero; the other rows of the
// result are unspecified. For branches that may fail on rows they do not decide (CASE, AND, OR).
Result<Array> EvaluateMasked(const ScalarExpr& expr, const RecordBatch& input,
                             std::span<const uint8_t> mask);

// Whether any child may be null.
bool AnyNullable(const std::vector<ScalarExprPtr>& children);

}  // namespace floe::sql::scalar
