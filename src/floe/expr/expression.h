#pragma once

// Iceberg filter expressions (expressions spec "Predicates"; reference implementation's
// org.apache.iceberg.expressions). An Expression is an immutable tree shared as ExprPtr: the
// constants true and false, and/or/not, and predicates that test one column against zero or more
// literals.
//
// A predicate is unbound when it names its column (as a user writes it) and bound once Bind has
// resolved the name against a schema: it then carries the field id, the column type and literals
// converted to that type. Evaluators (row, projection, manifest, metrics, residual) take bound
// expressions. What can go wrong: binding a missing column, a literal that does not convert to
// the column type, NaN or null literals, IS NaN on a non-floating column; each is an error
// naming the column and the value.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/util/error.h"

namespace floe {
class Schema;
}

namespace floe::expr {

enum class Op : unsigned char {
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kNotNull,
  kIsNan,
  kNotNan,
  kLt,
  kLtEq,
  kGt,
  kGtEq,
  kEq,
  kNotEq,
  kIn,
  kNotIn,
  kStartsWith,
  kNotStartsWith,
};

// "<", "is_null", "and"...
std::string_view OpName(Op op);
// The operation true exactly when `op` is false (lt <-> gt_eq, in <-> not_in...). Only for
// predicates and constants.
Op NegateOp(Op op);
// The operation with its operands swapped (lt <-> gt); others unchanged.
Op FlipOp(Op op);

class Expression;
using ExprPtr = std::shared_ptr<const Expression>;

class Expression {
 public:
  Op op() const { return op_; }
  bool is_constant() const { return op_ == Op::kTrue || op_ == Op::kFalse; }
  bool is_predicate() const { return op_ >= Op::kIsNull; }
  // and/or: both children; not: left only.
  const ExprPtr& left() const { return left_; }
  const ExprPtr& right() const { return right_; }

  // Predicates: the column as written (unbound) or its full name (bound).
  const std::string& column() const { return column_; }
  bool is_bound() const { return field_id_ >= 0; }
  int32_t field_id() const { return field_id_; }
  const TypePtr& type() const { return type_; }  // bound predicates only
  // One literal for comparisons and starts_with, any number for in/not_in, none for tests.
  const std::vector<Literal>& literals() const { return literals_; }
  const Literal& literal() const { return literals_.front(); }

  // "(id > 5 and category = 'a')", bound columns printed by name.
  std::string ToString() const;

  // Use the factories below.
  Expression(Op op, ExprPtr left, ExprPtr right, std::string column, int32_t field_id, TypePtr type,
             std::vector<Literal> literals)
      : op_(op),
        left_(std::move(left)),
        right_(std::move(right)),
        column_(std::move(column)),
        field_id_(field_id),
        type_(std::move(type)),
        literals_(std::move(literals)) {}

 private:
  Op op_;
  ExprPtr left_;
  ExprPtr right_;
  std::string column_;
  int32_t field_id_ = -1;
  TypePtr type_;
  std::vector<Literal> literals_;
};

// Constants and connectives; And/Or/Not fold constants (and(false, x) = false, not(not x) = x).
ExprPtr True();
ExprPtr False();
ExprPtr And(ExprPtr a, ExprPtr b);
ExprPtr Or(ExprPtr a, ExprPtr b);
ExprPtr Not(ExprPtr a);

// Unbound predicates on a column name.
ExprPtr IsNull(std::string column);
ExprPtr NotNull(std::string column);
ExprPtr IsNan(std::string column);
ExprPtr NotNan(std::string column);
ExprPtr LessThan(std::string column, Literal value);
ExprPtr LessThanOrEqual(std::string column, Literal value);
ExprPtr GreaterThan(std::string column, Literal value);
ExprPtr GreaterThanOrEqual(std::string column, Literal value);
ExprPtr Equal(std::string column, Literal value);
ExprPtr NotEqual(std::string column, Literal value);
ExprPtr In(std::string column, std::vector<Literal> values);
ExprPtr NotIn(std::string column, std::vector<Literal> values);
ExprPtr StartsWith(std::string column, std::string prefix);
ExprPtr NotStartsWith(std::string column, std::string prefix);
// Any unbound predicate.
ExprPtr Predicate(Op op, std::string column, std::vector<Literal> values = {});
// A bound predicate (used by binding and projections); in/not_in with one value become eq/not_eq
// and an empty in/not_in becomes false/true.
ExprPtr BoundPredicate(Op op, std::string column, int32_t field_id, TypePtr type,
                       std::vector<Literal> values = {});

// The negation of e with every NOT pushed into the predicates (not(a and b) = not a or not b,
// not(x < 5) = x >= 5).
ExprPtr Negate(const ExprPtr& e);
// e without NOT nodes.
ExprPtr RewriteNot(const ExprPtr& e);

// Resolves every column of e against schema (full dotted names, case-insensitively when asked)
// and converts the literals to the column types: int/long to int, long, float, double, decimal;
// decimal numbers to float, double, decimal; strings to date, time, timestamps (ISO-8601, with a
// zone offset for timestamptz), uuid and numbers. A long beyond an int column's range turns the
// predicate into the constant it must be (x < 2^40 is true). is_null on a required column is
// false, not_null true. NOT is rewritten away. Errors name the column and the value.
Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, bool case_sensitive = true);

// Converts an unbound literal to a column type (see Bind). kInvalidArgument says why not.
Result<Literal> ConvertLiteral(const Literal& value, const TypePtr& type);

}  // namespace floe::expr
