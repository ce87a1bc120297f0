// WHERE -> Iceberg filter. Only what maps exactly is pushed: comparisons, IN, IS [NOT] NULL,
// IS [NOT] NAN, BETWEEN and LIKE 'prefix%' of a scope column that has a field id against
// constants, combined with AND, OR and NOT. An integer column widened for the comparison (INT
// compared as BIGINT) is looked through; anything else stays for the residual filter, so pushing
// never changes a result.

#include <cmath>

#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql {
namespace {

using scalar::AsNode;
using scalar::Node;
using scalar::NodeKind;

// The scope column a node reads, looking through widening casts between integers and between
// floating types.
const ScopeColumn* ColumnOf(const ScalarExpr& expr, const Scope& scope) {
  const Node& node = AsNode(expr);
  if (node.kind() == NodeKind::kCoerce) {
    const ScalarExpr& inner = *node.children()[0];
    const floe::DataType& from = *inner.type();
    const floe::DataType& to = *expr.type();
    // Not FLOAT -> DOUBLE: the Iceberg binder would round the constant to FLOAT and compare
    // differently.
    const bool widening = scalar::IsInteger(from) && scalar::IsInteger(to);
    return widening ? ColumnOf(inner, scope) : nullptr;
  }
  std::optional<int> index = expr.column_index();
  if (!index || *index >= static_cast<int>(scope.columns().size())) return nullptr;
  const ScopeColumn& column = scope.columns()[*index];
  return column.field_id ? &column : nullptr;
}

// An Iceberg literal for a constant; the Iceberg binder converts it to the column's type.
std::optional<Literal> ToLiteral(const Value& value) {
  if (value.is<bool>()) return Literal::Boolean(value.get<bool>());
  if (value.is<int64_t>()) return Literal::Long(value.get<int64_t>());
  if (value.is<double>()) {
    if (std::isnan(value.get<double>())) return std::nullopt;
    return Literal::Double(value.get<double>());
  }
  if (value.is<float>()) {
    if (std::isnan(value.get<float>())) return std::nullopt;
    return Literal::Float(value.get<float>());
  }
  if (value.is<DecimalValue>()) {
    const DecimalValue& d = value.get<DecimalValue>();
    return Literal::Decimal(d.unscaled, d.precision, d.scale);
  }
  if (value.is<std::string>()) return Literal::String(value.get<std::string>());
  if (value.is<DateValue>()) return Literal::Date(value.get<DateValue>().days);
  if (value.is<TimeValue>()) {
    const TimeValue& t = value.get<TimeValue>();
    if (t.unit != TimeUnit::kMicro) return std::nullopt;
    return Literal::Time(t.value);
  }
  if (value.is<TimestampValue>()) {
    const TimestampValue& t = value.get<TimestampValue>();
    if (t.unit == TimeUnit::kMicro) {
      return t.utc ? Literal::TimestampTz(t.value) : Literal::Timestamp(t.value);
    }
    return t.utc ? Literal::TimestampTzNs(t.value) : Literal::TimestampNs(t.value);
  }
  return std::nullopt;
}

std::optional<Literal> ConstantOf(const ScalarExpr& expr) {
  std::optional<Value> value = expr.constant();
  if (!value || value->is_null()) return std::nullopt;
  return ToLiteral(*value);
}

std::optional<expr::Op> ComparisonOp(NodeKind kind) {
  switch (kind) {
    case NodeKind::kEqual:
      return expr::Op::kEq;
    case NodeKind::kNotEqual:
      return expr::Op::kNotEq;
    case NodeKind::kLess:
      return expr::Op::kLt;
    case NodeKind::kLessOrEqual:
      return expr::Op::kLtEq;
    case NodeKind::kGreater:
      return expr::Op::kGt;
    case NodeKind::kGreaterOrEqual:
      return expr::Op::kGtEq;
    default:
      return std::nullopt;
  }
}

// A SQL predicate as two Iceberg filters: the rows where it is TRUE and the rows where it is
// FALSE. SQL's three-valued logic needs both (NOT p is TRUE where p is FALSE, which is neither
// where p is null), and Iceberg's negative predicates (!=, not_in, not_starts_with) are true for
// a null value, where SQL's are not, so those also require the column to be present.
struct Exact {
  expr::ExprPtr is_true;
  expr::ExprPtr is_false;
};

expr::ExprPtr Present(const std::string& column, expr::ExprPtr predicate) {
  return expr::And(std::move(predicate), expr::NotNull(column));
}

std::optional<Exact> ConvertComparison(const Node& node, expr::Op op, const Scope& scope) {
  const ScalarExpr* left = node.children()[0].get();
  const ScalarExpr* right = node.children()[1].get();
  if (!ColumnOf(*left, scope)) {
    std::swap(left, right);
    op = expr::FlipOp(op);
  }
  const ScopeColumn* column = ColumnOf(*left, scope);
  std::optional<Literal> literal = ConstantOf(*right);
  if (!column || !literal) return std::nullopt;
  const std::string& name = column->name;
  expr::ExprPtr holds = expr::Predicate(op, name, {*literal});
  expr::ExprPtr fails = expr::Predicate(expr::NegateOp(op), name, {*literal});
  if (op == expr::Op::kNotEq) return Exact{Present(name, holds), fails};
  if (op == expr::Op::kEq) return Exact{holds, Present(name, fails)};
  return Exact{holds, fails};
}

std::optional<Exact> Convert(const ScalarExpr& e, const Scope& scope) {
  const Node& node = AsNode(e);
  const NodeKind kind = node.kind();
  if (kind == NodeKind::kAnd || kind == NodeKind::kOr) {
    std::optional<Exact> left = Convert(*node.children()[0], scope);
    std::optional<Exact> right = Convert(*node.children()[1], scope);
    if (!left || !right) return std::nullopt;
    if (kind == NodeKind::kAnd) {
      return Exact{expr::And(left->is_true, right->is_true),
                   expr::Or(left->is_false, right->is_false)};
    }
    return Exact{expr::Or(left->is_true, right->is_true),
                 expr::And(left->is_false, right->is_false)};
  }
  if (kind == NodeKind::kNot) {
    std::optional<Exact> inner = Convert(*node.children()[0], scope);
    if (!inner) return std::nullopt;
    return Exact{inner->is_false, inner->is_true};
  }
  if (kind == NodeKind::kIsNull || kind == NodeKind::kIsNotNull || kind == NodeKind::kIsNan ||
      kind == NodeKind::kIsNotNan) {
    // Never null: NOT (x IS NAN) is x IS NOT NAN, true for a null x as Iceberg's not_nan is.
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    if (!column) return std::nullopt;
    const bool nan = kind == NodeKind::kIsNan || kind == NodeKind::kIsNotNan;
    expr::ExprPtr is = nan ? expr::IsNan(column->name) : expr::IsNull(column->name);
    expr::ExprPtr is_not = nan ? expr::NotNan(column->name) : expr::NotNull(column->name);
    const bool negated = kind == NodeKind::kIsNotNull || kind == NodeKind::kIsNotNan;
    return negated ? Exact{is_not, is} : Exact{is, is_not};
  }
  if (std::optional<expr::Op> cmp = ComparisonOp(kind)) return ConvertComparison(node, *cmp, scope);
  if (kind == NodeKind::kIn || kind == NodeKind::kNotIn) {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    if (!column) return std::nullopt;
    std::vector<Literal> literals;
    for (size_t i = 1; i < node.children().size(); ++i) {
      std::optional<Literal> literal = ConstantOf(*node.children()[i]);
      // A null in the list makes the outcome null where it is not TRUE: leave such lists alone.
      if (!literal) return std::nullopt;
      literals.push_back(*literal);
    }
    expr::ExprPtr in = expr::In(column->name, literals);
    expr::ExprPtr not_in = Present(column->name, expr::NotIn(column->name, literals));
    return kind == NodeKind::kIn ? Exact{in, not_in} : Exact{not_in, in};
  }
  if (kind == NodeKind::kBetween || kind == NodeKind::kNotBetween) {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    std::optional<Literal> low = ConstantOf(*node.children()[1]);
    std::optional<Literal> high = ConstantOf(*node.children()[2]);
    if (!column || !low || !high) return std::nullopt;
    expr::ExprPtr inside = expr::And(expr::GreaterThanOrEqual(column->name, *low),
                                     expr::LessThanOrEqual(column->name, *high));
    expr::ExprPtr outside =
        expr::Or(expr::LessThan(column->name, *low), expr::GreaterThan(column->name, *high));
    return kind == NodeKind::kBetween ? Exact{inside, outside} : Exact{outside, inside};
  }
  if (kind == NodeKind::kStartsWith || kind == NodeKind::kNotStartsWith) {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    std::optional<Value> prefix = node.children()[1]->constant();
    if (!column || !prefix || !prefix->is<std::string>()) return std::nullopt;
    const std::string& text = prefix->get<std::string>();
    expr::ExprPtr starts = expr::StartsWith(column->name, text);
    expr::ExprPtr not_starts = Present(column->name, expr::NotStartsWith(column->name, text));
    return kind == NodeKind::kStartsWith ? Exact{starts, not_starts} : Exact{not_starts, starts};
  }
  if (kind == NodeKind::kLiteral) {
    std::optional<Value> value = e.constant();
    if (value && value->is<bool>()) {
      return value->get<bool>() ? Exact{expr::True(), expr::False()}
                                : Exact{expr::False(), expr::True()};
    }
  }
  return std::nullopt;
}

// The rows where the predicate may be TRUE: conjuncts that do not convert are left out (they
// stay in the residual filter).
expr::ExprPtr ConvertConjuncts(const ScalarExpr& e, const Scope& scope) {
  const Node& node = AsNode(e);
  if (node.kind() == NodeKind::kAnd) {
    return expr::And(ConvertConjuncts(*node.children()[0], scope),
                     ConvertConjuncts(*node.children()[1], scope));
  }
  std::optional<Exact> exact = Convert(e, scope);
  return exact ? exact->is_true : expr::True();
}

// The smallest part of a predicate that does not convert: a child of AND, OR or NOT that does
// not, or the predicate itself.
const ScalarExpr& Unconverted(const ScalarExpr& e, const Scope& scope) {
  const Node& node = AsNode(e);
  const NodeKind kind = node.kind();
  if (kind == NodeKind::kAnd || kind == NodeKind::kOr || kind == NodeKind::kNot) {
    for (const ScalarExprPtr& child : node.children()) {
      if (!Convert(*child, scope)) return Unconverted(*child, scope);
    }
  }
  return e;
}

}  // namespace

expr::ExprPtr ToIcebergFilter(const ScalarExpr& predicate, const Scope& scope) {
  return ConvertConjuncts(predicate, scope);
}

Result<expr::ExprPtr> ToExactIcebergFilter(const ScalarExpr& predicate, const Scope& scope) {
  if (std::optional<Exact> exact = Convert(predicate, scope)) return exact->is_true;
  return InvalidArgument(
      "'{}' has no Iceberg filter form (a comparison, IN, BETWEEN, LIKE 'prefix%', IS [NOT] NULL "
      "or IS [NOT] NAN of a top-level column with constants, combined with AND, OR and NOT)",
      Unconverted(predicate, scope).ToString());
}

}  // namespace floe::sql
