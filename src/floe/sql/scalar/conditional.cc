// CASE (simple and searched), IF, COALESCE, IFNULL and NULLIF. Branches are evaluated over the
// whole batch first; a branch that fails there (10 / x where another branch handles x = 0) is
// evaluated again on just the rows that take it, so a result never depends on rows a branch does
// not decide, as in Flink's row-at-a-time code.

#include <fmt/core.h>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/logic_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

// The rows where mask is set, evaluated as cheaply as possible: the whole batch when that works.
Result<Array> EvaluateFor(const ScalarExpr& expr, const RecordBatch& input,
                          std::span<const uint8_t> mask) {
  Result<Array> full = expr.Evaluate(input);
  if (full) return full;
  return EvaluateMasked(expr, input, mask);
}

// CASE WHEN c1 THEN r1 ... [ELSE e] END: children are c1, r1, c2, r2, ..., then e when present.
// COALESCE(a1, ..., ak): children are the arguments.
class ConditionalNode final : public Node {
 public:
  enum class Kind { kCase, kCoalesce };
  ConditionalNode(Kind kind, std::vector<ScalarExprPtr> children, bool has_else, DataTypePtr type,
                  bool nullable, std::string text)
      : Node(NodeKind::kCall, std::move(children), std::move(type), nullable, std::move(text)),
        kind_(kind),
        has_else_(has_else) {}

  Result<Array> Evaluate(const RecordBatch& input) const override {
    return kind_ == Kind::kCase ? EvaluateCase(input) : EvaluateCoalesce(input);
  }

 private:
  Result<Array> EvaluateCase(const RecordBatch& input) const {
    const int64_t n = input.num_rows();
    const auto& c = children();
    const int branches = static_cast<int>((c.size() - (has_else_ ? 1 : 0)) / 2);
    std::vector<int32_t> choice(n, branches);  // `branches` is the ELSE (or null)
    std::vector<uint8_t> open(n, 1);
    int64_t open_count = n;
    for (int b = 0; b < branches && open_count > 0; ++b) {
      FLOE_ASSIGN_OR_RETURN(Array when, EvaluateFor(*c[2 * b], input, open));
      for (int64_t i = 0; i < n; ++i) {
        if (open[i] && when.IsValid(i) && when.GetBool(i)) {
          choice[i] = b;
          open[i] = 0;
          --open_count;
        }
      }
    }
    std::vector<Array> results;
    for (int b = 0; b <= branches; ++b) {
      std::vector<uint8_t> takes(n);
      bool any = false;
      for (int64_t i = 0; i < n; ++i) {
        takes[i] = choice[i] == b;
        any |= takes[i];
      }
      const ScalarExpr* result = b < branches ? c[2 * b + 1].get()
                                 : has_else_  ? c.back().get()
                                              : nullptr;
      if (!any || !result) {
        results.push_back(Array::MakeNulls(type(), n));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Array value, EvaluateFor(*result, input, takes));
      results.push_back(std::move(value));
    }
    return SelectRows(results, choice, type(), n);
  }

  Result<Array> EvaluateCoalesce(const RecordBatch& input) const {
    const int64_t n = input.num_rows();
    const auto& c = children();
    std::vector<int32_t> choice(n, 0);
    std::vector<uint8_t> open(n, 1);
    int64_t open_count = n;
    std::vector<Array> values;
    for (size_t k = 0; k < c.size(); ++k) {
      if (open_count == 0) {
        values.push_back(Array::MakeNulls(type(), n));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Array value, EvaluateFor(*c[k], input, open));
      for (int64_t i = 0; i < n; ++i) {
        if (open[i] && (value.IsValid(i) || k + 1 == c.size())) {
          choice[i] = static_cast<int32_t>(k);
          open[i] = 0;
          --open_count;
        }
      }
      values.push_back(std::move(value));
    }
    return SelectRows(values, choice, type(), n);
  }

  Kind kind_;
  bool has_else_;
};

Result<ScalarExprPtr> RequireCondition(ScalarExprPtr condition, const Expr& where) {
  if (IsNullType(*condition->type())) return Coerce(std::move(condition), DataType::Bool());
  if (condition->type()->kind() != TypeKind::kBool) {
    return std::unexpected(ErrorAt(where, fmt::format("a condition must be BOOLEAN, not {}",
                                                      SqlTypeName(*condition->type()))));
  }
  return condition;
}

// A CASE node from bound conditions and results (results.size() is conditions.size() + 1 with
// an ELSE).
Result<ScalarExprPtr> MakeCase(std::string op, std::vector<ScalarExprPtr> conditions,
                               std::vector<ScalarExprPtr> results, const Expr& where,
                               std::string text) {
  const bool has_else = results.size() > conditions.size();
  FLOE_ASSIGN_OR_RETURN(results, CoerceToCommon(std::move(results), where, op));
  const DataTypePtr type = results[0]->type();
  const bool nullable = !has_else || AnyNullable(results);
  std::vector<ScalarExprPtr> children;
  for (size_t b = 0; b < conditions.size(); ++b) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr condition, RequireCondition(conditions[b], where));
    children.push_back(std::move(condition));
    children.push_back(results[b]);
  }
  if (has_else) children.push_back(results.back());
  return Fold(std::make_shared<ConditionalNode>(ConditionalNode::Kind::kCase, std::move(children),
                                                has_else, type, nullable, std::move(text)));
}

Result<ScalarExprPtr> Equals(ScalarExprPtr a, ScalarExprPtr b, const Expr& where) {
  FLOE_ASSIGN_OR_RETURN(auto pair,
                        CoerceForComparison(std::move(a), std::move(b), where, "compare"));
  std::string text = pair.first->ToString() + " = " + pair.second->ToString();
  return MakeCall(NodeKind::kEqual, {std::move(pair.first), std::move(pair.second)},
                  DataType::Bool(), true, std::move(text),
                  [](std::span<const Array> args, int64_t n) {
                    return CompareArrays(CmpOp::kEq, args[0], args[1], n);
                  },
                  {.scalar_constants = true});
}

Result<ScalarExprPtr> BindCoalesce(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(args, CoerceToCommon(std::move(args), call, CallName(call)));
  const DataTypePtr type = args[0]->type();
  bool nullable = true;
  for (const ScalarExprPtr& arg : args) nullable = nullable && arg->nullable();
  return Fold(std::make_shared<ConditionalNode>(ConditionalNode::Kind::kCoalesce, std::move(args),
                                                false, type, nullable, TextOf(call)));
}

Result<ScalarExprPtr> BindIf(const Expr& call, std::vector<ScalarExprPtr> args) {
  return MakeCase("IF", {args[0]}, {args[1], args[2]}, call, TextOf(call));
}

// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END.
Result<ScalarExprPtr> BindNullIf(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr equal, Equals(args[0], args[1], call));
  ScalarExprPtr null = MakeLiteral(Value(), args[0]->type(), "NULL");
  return MakeCase("NULLIF", {std::move(equal)}, {std::move(null), args[0]}, call, TextOf(call));
}

// GREATEST / LEAST: the largest / smallest argument in their common type, null when any is.
template <CmpOp kOp>
Result<ScalarExprPtr> BindGreatestLeast(const Expr& call, std::vector<ScalarExprPtr> args) {
  FLOE_ASSIGN_OR_RETURN(args, CoerceToCommon(std::move(args), call, CallName(call)));
  DataTypePtr type = args[0]->type();
  if (IsNullType(*type)) {
    for (ScalarExprPtr& arg : args) {
      FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), DataType::Int32()));
    }
    type = DataType::Int32();
  }
  const TypeKind kind = type->kind();
  if (kind == TypeKind::kList || kind == TypeKind::kMap || kind == TypeKind::kStruct) {
    return std::unexpected(ErrorAt(call, fmt::format("{}: cannot compare values of type {}",
                                                     CallName(call), SqlTypeName(*type))));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(
      NodeKind::kCall, std::move(args), type, nullable, TextOf(call),
      [type](std::span<const Array> a, int64_t n) -> Result<Array> {
        const Array nulls = Array::MakeNulls(type, n);
        Array best = a[0];
        std::vector<int32_t> choice(n);
        for (size_t k = 1; k < a.size(); ++k) {
          FLOE_ASSIGN_OR_RETURN(Array better, CompareArrays(kOp, a[k], best, n));
          for (int64_t i = 0; i < n; ++i) {
            choice[i] = best.IsNull(i) || a[k].IsNull(i) ? 2 : better.GetBool(i) ? 1 : 0;
          }
          const Array options[] = {best, a[k], nulls};
          FLOE_ASSIGN_OR_RETURN(best, SelectRows(options, choice, type, n));
        }
        return best;
      });
}

constexpr FunctionDef kConditionalFunctions[] = {
    {"COALESCE", 1, -1, BindCoalesce},
    {"IFNULL", 2, 2, BindCoalesce},
    {"IF", 3, 3, BindIf},
    {"NULLIF", 2, 2, BindNullIf},
    {"GREATEST", 1, -1, BindGreatestLeast<CmpOp::kGt>},
    {"LEAST", 1, -1, BindGreatestLeast<CmpOp::kLt>},
};

}  // namespace

std::span<const FunctionDef> ConditionalFunctions() { return kConditionalFunctions; }

Result<ScalarExprPtr> BindCase(const Expr& expr, const Scope& scope) {
  const size_t pairs = (expr.args.size() - 1 - (expr.has_else ? 1 : 0)) / 2;
  std::vector<ScalarExprPtr> conditions;
  std::vector<ScalarExprPtr> results;
  ScalarExprPtr operand;
  if (expr.args[0]) {
    FLOE_ASSIGN_OR_RETURN(operand, Bind(*expr.args[0], scope));
  }
  for (size_t p = 0; p < pairs; ++p) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr when, Bind(*expr.args[1 + 2 * p], scope));
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr then, Bind(*expr.args[2 + 2 * p], scope));
    if (operand) {
      FLOE_ASSIGN_OR_RETURN(when, Equals(operand, std::move(when), expr));
    }
    conditions.push_back(std::move(when));
    results.push_back(std::move(then));
  }
  if (expr.has_else) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr otherwise, Bind(*expr.args.back(), scope));
    results.push_back(std::move(otherwise));
  }
  return MakeCase("CASE", std::move(conditions), std::move(results), expr, TextOf(expr));
}

}  // namespace floe::sql::scalar
