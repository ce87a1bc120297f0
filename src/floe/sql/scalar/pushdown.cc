// WHERE -> Iceberg filter. Only what maps exactly is pushed: comparisons, IN, IS [NOT] NULL,
// BETWEEN and LIKE 'prefix%' of a scope column that has a field id against constants, combined
// with AND, OR and NOT. An integer column widened for the comparison (INT compared as BIGINT) is
// looked through; anything else stays for the residual filter, so pushing never changes a result.

#include <cmath>

#include "floe/sql/scalar/node.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql {
namespace {

using scalar::AsNode;
using scalar::Node;

// The scope column a node reads, looking through widening casts between integers and between
// floating types.
const ScopeColumn* ColumnOf(const ScalarExpr& expr, const Scope& scope) {
  const Node& node = AsNode(expr);
  if (node.op() == "COERCE") {
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

std::optional<expr::Op> ComparisonOp(std::string_view op) {
  if (op == "=") return expr::Op::kEq;
  if (op == "<>") return expr::Op::kNotEq;
  if (op == "<") return expr::Op::kLt;
  if (op == "<=") return expr::Op::kLtEq;
  if (op == ">") return expr::Op::kGt;
  if (op == ">=") return expr::Op::kGtEq;
  return std::nullopt;
}

expr::ExprPtr Convert(const ScalarExpr& e, const Scope& scope, bool partial);

expr::ExprPtr ConvertComparison(const Node& node, expr::Op op, const Scope& scope) {
  const ScalarExpr& left = *node.children()[0];
  const ScalarExpr& right = *node.children()[1];
  if (const ScopeColumn* column = ColumnOf(left, scope)) {
    if (std::optional<Literal> literal = ConstantOf(right)) {
      return expr::Predicate(op, column->name, {*literal});
    }
  }
  if (const ScopeColumn* column = ColumnOf(right, scope)) {
    if (std::optional<Literal> literal = ConstantOf(left)) {
      return expr::Predicate(expr::FlipOp(op), column->name, {*literal});
    }
  }
  return nullptr;
}

// The Iceberg form of a node, or null when it has none. With `partial`, an AND keeps the
// conjuncts that convert (the rest stay in the residual filter); under OR and NOT every part must
// convert.
expr::ExprPtr Convert(const ScalarExpr& e, const Scope& scope, bool partial) {
  const Node& node = AsNode(e);
  const std::string& op = node.op();
  if (op == "AND" || op == "OR") {
    const bool is_and = op == "AND";
    expr::ExprPtr left = Convert(*node.children()[0], scope, partial && is_and);
    expr::ExprPtr right = Convert(*node.children()[1], scope, partial && is_and);
    if (is_and) {
      if (!left || !right) return partial ? (left ? left : right) : nullptr;
      return expr::And(left, right);
    }
    if (!left || !right) return nullptr;
    return expr::Or(left, right);
  }
  if (op == "NOT") {
    expr::ExprPtr inner = Convert(*node.children()[0], scope, false);
    return inner ? expr::Not(inner) : nullptr;
  }
  if (op == "IS NULL" || op == "IS NOT NULL") {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    if (!column) return nullptr;
    return op == "IS NULL" ? expr::IsNull(column->name) : expr::NotNull(column->name);
  }
  if (std::optional<expr::Op> cmp = ComparisonOp(op)) return ConvertComparison(node, *cmp, scope);
  if (op == "IN" || op == "NOT IN") {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    if (!column) return nullptr;
    std::vector<Literal> literals;
    for (size_t i = 1; i < node.children().size(); ++i) {
      std::optional<Literal> literal = ConstantOf(*node.children()[i]);
      // A null in the list makes NOT IN never true and IN no truer: leave such lists alone.
      if (!literal) return nullptr;
      literals.push_back(*literal);
    }
    return op == "IN" ? expr::In(column->name, std::move(literals))
                      : expr::NotIn(column->name, std::move(literals));
  }
  if (op == "BETWEEN" || op == "NOT BETWEEN") {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    std::optional<Literal> low = ConstantOf(*node.children()[1]);
    std::optional<Literal> high = ConstantOf(*node.children()[2]);
    if (!column || !low || !high) return nullptr;
    if (op == "BETWEEN") {
      return expr::And(expr::GreaterThanOrEqual(column->name, *low),
                       expr::LessThanOrEqual(column->name, *high));
    }
    return expr::Or(expr::LessThan(column->name, *low), expr::GreaterThan(column->name, *high));
  }
  if (op == "STARTS_WITH" || op == "NOT STARTS_WITH") {
    const ScopeColumn* column = ColumnOf(*node.children()[0], scope);
    std::optional<Value> prefix = node.children()[1]->constant();
    if (!column || !prefix || !prefix->is<std::string>()) return nullptr;
    return op == "STARTS_WITH" ? expr::StartsWith(column->name, prefix->get<std::string>())
                               : expr::NotStartsWith(column->name, prefix->get<std::string>());
  }
  if (op == "literal") {
    std::optional<Value> value = e.constant();
    if (value && value->is<bool>()) return value->get<bool>() ? expr::True() : expr::False();
  }
  return nullptr;
}

}  // namespace

expr::ExprPtr ToIcebergFilter(const ScalarExpr& predicate, const Scope& scope) {
  expr::ExprPtr out = Convert(predicate, scope, true);
  return out ? out : expr::True();
}

}  // namespace floe::sql
