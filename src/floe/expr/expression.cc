#include "floe/expr/expression.h"

#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "floe/spec/schema.h"

namespace floe::expr {

std::string_view OpName(Op op) {
  switch (op) {
    case Op::kTrue:
      return "true";
    case Op::kFalse:
      return "false";
    case Op::kAnd:
      return "and";
    case Op::kOr:
      return "or";
    case Op::kNot:
      return "not";
    case Op::kIsNull:
      return "is_null";
    case Op::kNotNull:
      return "not_null";
    case Op::kIsNan:
      return "is_nan";
    case Op::kNotNan:
      return "not_nan";
    case Op::kLt:
      return "<";
    case Op::kLtEq:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGtEq:
      return ">=";
    case Op::kEq:
      return "=";
    case Op::kNotEq:
      return "!=";
    case Op::kIn:
      return "in";
    case Op::kNotIn:
      return "not_in";
    case Op::kStartsWith:
      return "starts_with";
    case Op::kNotStartsWith:
      return "not_starts_with";
  }
  return "?";
}

Op NegateOp(Op op) {
  switch (op) {
    case Op::kTrue:
      return Op::kFalse;
    case Op::kFalse:
      return Op::kTrue;
    case Op::kIsNull:
      return Op::kNotNull;
    case Op::kNotNull:
      return Op::kIsNull;
    case Op::kIsNan:
      return Op::kNotNan;
    case Op::kNotNan:
      return Op::kIsNan;
    case Op::kLt:
      return Op::kGtEq;
    case Op::kLtEq:
      return Op::kGt;
    case Op::kGt:
      return Op::kLtEq;
    case Op::kGtEq:
      return Op::kLt;
    case Op::kEq:
      return Op::kNotEq;
    case Op::kNotEq:
      return Op::kEq;
    case Op::kIn:
      return Op::kNotIn;
    case Op::kNotIn:
      return Op::kIn;
    case Op::kStartsWith:
      return Op::kNotStartsWith;
    case Op::kNotStartsWith:
      return Op::kStartsWith;
    default:
      return op;
  }
}

Op FlipOp(Op op) {
  switch (op) {
    case Op::kLt:
      return Op::kGt;
    case Op::kLtEq:
      return Op::kGtEq;
    case Op::kGt:
      return Op::kLt;
    case Op::kGtEq:
      return Op::kLtEq;
    default:
      return op;
  }
}

namespace {

ExprPtr Make(Op op, ExprPtr left = nullptr, ExprPtr right = nullptr) {
  return std::make_shared<const Expression>(op, std::move(left), std::move(right), "", -1, nullptr,
                                            std::vector<Literal>{});
}

std::string LiteralString(const Literal& v) {
  switch (v.type_id()) {
    case TypeId::kString:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUuid:
      return fmt::format("'{}'", v.ToString());
    default:
      return v.ToString();
  }
}

}  // namespace

std::string Expression::ToString() const {
  switch (op_) {
    case Op::kTrue:
      return "true";
    case Op::kFalse:
      return "false";
    case Op::kAnd:
      return fmt::format("({} and {})", left_->ToString(), right_->ToString());
    case Op::kOr:
      return fmt::format("({} or {})", left_->ToString(), right_->ToString());
    case Op::kNot:
      return fmt::format("not({})", left_->ToString());
    case Op::kIsNull:
      return column_ + " is null";
    case Op::kNotNull:
      return column_ + " is not null";
    case Op::kIsNan:
      return column_ + " is nan";
    case Op::kNotNan:
      return column_ + " is not nan";
    case Op::kIn:
    case Op::kNotIn: {
      std::string out = column_ + (op_ == Op::kIn ? " in (" : " not in (");
      for (size_t i = 0; i < literals_.size(); ++i) {
        if (i > 0) out += ", ";
        out += LiteralString(literals_[i]);
      }
      return out + ")";
    }
    case Op::kStartsWith:
      return fmt::format("{} starts_with {}", column_, LiteralString(literal()));
    case Op::kNotStartsWith:
      return fmt::format("{} not_starts_with {}", column_, LiteralString(literal()));
    default:
      return fmt::format("{} {} {}", column_, OpName(op_), LiteralString(literal()));
  }
}

ExprPtr True() {
  static const ExprPtr kTrueExpr = Make(Op::kTrue);
  return kTrueExpr;
}

ExprPtr False() {
  static const ExprPtr kFalseExpr = Make(Op::kFalse);
  return kFalseExpr;
}

ExprPtr And(ExprPtr a, ExprPtr b) {
  if (a->op() == Op::kFalse || b->op() == Op::kFalse) return False();
  if (a->op() == Op::kTrue) return b;
  if (b->op() == Op::kTrue) return a;
  return Make(Op::kAnd, std::move(a), std::move(b));
}

ExprPtr Or(ExprPtr a, ExprPtr b) {
  if (a->op() == Op::kTrue || b->op() == Op::kTrue) return True();
  if (a->op() == Op::kFalse) return b;
  if (b->op() == Op::kFalse) return a;
  return Make(Op::kOr, std::move(a), std::move(b));
}

ExprPtr Not(ExprPtr a) {
  if (a->op() == Op::kTrue) return False();
  if (a->op() == Op::kFalse) return True();
  if (a->op() == Op::kNot) return a->left();
  return Make(Op::kNot, std::move(a));
}

ExprPtr Predicate(Op op, std::string column, std::vector<Literal> values) {
  return std::make_shared<const Expression>(op, nullptr, nullptr, std::move(column), -1, nullptr,
                                            std::move(values));
}

ExprPtr IsNull(std::string column) { return Predicate(Op::kIsNull, std::move(column)); }
ExprPtr NotNull(std::string column) { return Predicate(Op::kNotNull, std::move(column)); }
ExprPtr IsNan(std::string column) { return Predicate(Op::kIsNan, std::move(column)); }
ExprPtr NotNan(std::string column) { return Predicate(Op::kNotNan, std::move(column)); }
ExprPtr LessThan(std::string column, Literal value) {
  return Predicate(Op::kLt, std::move(column), {std::move(value)});
}
ExprPtr LessThanOrEqual(std::string column, Literal value) {
  return Predicate(Op::kLtEq, std::move(column), {std::move(value)});
}
ExprPtr GreaterThan(std::string column, Literal value) {
  return Predicate(Op::kGt, std::move(column), {std::move(value)});
}
ExprPtr GreaterThanOrEqual(std::string column, Literal value) {
  return Predicate(Op::kGtEq, std::move(column), {std::move(value)});
}
ExprPtr Equal(std::string column, Literal value) {
  return Predicate(Op::kEq, std::move(column), {std::move(value)});
}
ExprPtr NotEqual(std::string column, Literal value) {
  return Predicate(Op::kNotEq, std::move(column), {std::move(value)});
}
ExprPtr In(std::string column, std::vector<Literal> values) {
  return Predicate(Op::kIn, std::move(column), std::move(values));
}
ExprPtr NotIn(std::string column, std::vector<Literal> values) {
  return Predicate(Op::kNotIn, std::move(column), std::move(values));
}
ExprPtr StartsWith(std::string column, std::string prefix) {
  return Predicate(Op::kStartsWith, std::move(column), {Literal::String(std::move(prefix))});
}
ExprPtr NotStartsWith(std::string column, std::string prefix) {
  return Predicate(Op::kNotStartsWith, std::move(column), {Literal::String(std::move(prefix))});
}

ExprPtr BoundPredicate(Op op, std::string column, int32_t field_id, TypePtr type,
                       std::vector<Literal> values) {
  if (op == Op::kIn || op == Op::kNotIn) {
    // Duplicates add nothing; keeping the set small keeps evaluation cheap.
    std::vector<Literal> unique;
    for (auto& v : values) {
      bool seen = false;
      for (const auto& u : unique) seen = seen || u == v;
      if (!seen) unique.push_back(std::move(v));
    }
    values = std::move(unique);
    if (values.empty()) return op == Op::kIn ? False() : True();
    if (values.size() == 1) op = op == Op::kIn ? Op::kEq : Op::kNotEq;
  }
  return std::make_shared<const Expression>(op, nullptr, nullptr, std::move(column), field_id,
                                            std::move(type), std::move(values));
}

ExprPtr Negate(const ExprPtr& e) {
  switch (e->op()) {
    case Op::kTrue:
      return False();
    case Op::kFalse:
      return True();
    case Op::kAnd:
      return Or(Negate(e->left()), Negate(e->right()));
    case Op::kOr:
      return And(Negate(e->left()), Negate(e->right()));
    case Op::kNot:
      return RewriteNot(e->left());
    default:
      return std::make_shared<const Expression>(NegateOp(e->op()), nullptr, nullptr, e->column(),
                                                e->field_id(), e->type(), e->literals());
  }
}

ExprPtr RewriteNot(const ExprPtr& e) {
  switch (e->op()) {
    case Op::kAnd:
      return And(RewriteNot(e->left()), RewriteNot(e->right()));
    case Op::kOr:
      return Or(RewriteNot(e->left()), RewriteNot(e->right()));
    case Op::kNot:
      return Negate(e->left());
    default:
      return e;
  }
}

namespace {

bool IsIntegral(TypeId id) { return id == TypeId::kInt || id == TypeId::kLong; }
bool IsFloating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }

// Where a long sits relative to an int column's range.
enum class Range { kInside, kAboveMax, kBelowMin };

Result<Literal> DecimalFromText(std::string_view text, const TypePtr& type) {
  const auto& dt = static_cast<const PrimitiveType&>(*type);
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128_t unscaled = 0;
  int scale = -1;
  int digits = 0;
  bool any = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && scale < 0) {
      scale = 0;
      continue;
    }
    if (c < '0' || c > '9') {
      return InvalidArgument("'{}' is not a decimal number for {}", text, type->ToString());
    }
    any = true;
    if (scale >= 0) ++scale;
    if (unscaled != 0 || c != '0') ++digits;
    if (digits > 38) return InvalidArgument("'{}' has too many digits", text);
    unscaled = unscaled * 10 + (c - '0');
  }
  if (!any) return InvalidArgument("'{}' is not a decimal number for {}", text, type->ToString());
  if (scale < 0) scale = 0;
  // Rescale only when no digit is lost: a filter must not silently change its constant.
  while (scale > dt.scale()) {
    if (unscaled % 10 != 0) {
      return InvalidArgument("{} does not fit {} without rounding", text, type->ToString());
    }
    unscaled /= 10;
    --scale;
  }
  while (scale < dt.scale()) {
    if (digits >= 38) return InvalidArgument("{} does not fit {}", text, type->ToString());
    unscaled *= 10;
    ++scale;
    if (unscaled != 0) ++digits;
  }
  int128_t limit = 1;
  for (int p = 0; p < dt.precision(); ++p) limit *= 10;
  if (unscaled >= limit) {
    return InvalidArgument("{} does not fit {}", text, type->ToString());
  }
  return Literal::Decimal(negative ? -unscaled : unscaled, dt.precision(), dt.scale());
}

Result<Literal> Convert(const Literal& value, const TypePtr& type, Range* range) {
  *range = Range::kInside;
  TypeId from = value.type_id();
  TypeId to = type->id();
  if (value.is_null()) return InvalidArgument("null literal: use is_null / not_null");
  if (IsFloating(from)) {
    double v = from == TypeId::kFloat ? value.float_value() : value.double_value();
    if (std::isnan(v)) return InvalidArgument("NaN literal: use is_nan / not_nan");
  }
  if (value.type()->Equals(*type)) return value;
  if (IsIntegral(from)) {
    int64_t v = from == TypeId::kInt ? value.int_value() : value.long_value();
    switch (to) {
      case TypeId::kInt:
        if (v > std::numeric_limits<int32_t>::max()) *range = Range::kAboveMax;
        if (v < std::numeric_limits<int32_t>::min()) *range = Range::kBelowMin;
        return Literal::Int(static_cast<int32_t>(v));
      case TypeId::kLong:
        return Literal::Long(v);
      case TypeId::kFloat:
        return Literal::Float(static_cast<float>(v));
      case TypeId::kDouble:
        return Literal::Double(static_cast<double>(v));
      case TypeId::kDecimal:
        return DecimalFromText(std::to_string(v), type);
      default:
        break;
    }
  } else if (from == TypeId::kDecimal) {
    std::string text = value.ToString();
    switch (to) {
      case TypeId::kFloat:
        return Literal::Float(std::strtof(text.c_str(), nullptr));
      case TypeId::kDouble:
        return Literal::Double(std::strtod(text.c_str(), nullptr));
      case TypeId::kDecimal:
        return DecimalFromText(text, type);
      default:
        break;
    }
  } else if (IsFloating(from)) {
    double v = from == TypeId::kFloat ? value.float_value() : value.double_value();
    if (to == TypeId::kDouble) return Literal::Double(v);
    if (to == TypeId::kFloat) return Literal::Float(static_cast<float>(v));
  } else if (from == TypeId::kString) {
    const std::string& s = value.bytes_value();
    switch (to) {
      case TypeId::kDate:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:
      case TypeId::kUuid: {
        auto parsed = Literal::FromJson(type, Json(s));
        if (!parsed) {
          return InvalidArgument("'{}' is not a {}: {}", s, type->ToString(),
                                 parsed.error().message());
        }
        return parsed;
      }
      case TypeId::kDecimal:
        return DecimalFromText(s, type);
      default:
        break;
    }
  } else {
    auto promoted = value.PromoteTo(type);
    if (promoted) return promoted;
  }
  return InvalidArgument("cannot convert {} literal {} to {}", value.type()->ToString(),
                         value.ToString(), type->ToString());
}

Result<ExprPtr> BindPredicate(const Expression& e, const Schema& schema, bool case_sensitive) {
  const NestedField* field = schema.FindField(e.column(), case_sensitive);
  if (field == nullptr) {
    return NotFound("cannot find column '{}' in schema {}", e.column(),
                    schema.as_struct()->ToString());
  }
  const TypePtr& type = field->type;
  std::string name = schema.FindColumnName(field->id).value_or(e.column());
  auto ctx = [&](Error& err) -> Error& {
    return err.AddContext(fmt::format("binding {}", e.ToString()));
  };
  if (!type->is_primitive()) {
    return InvalidArgument("binding {}: column '{}' is {}, not a primitive type", e.ToString(),
                           name, type->ToString());
  }
  switch (e.op()) {
    case Op::kIsNull:
      if (field->required) return False();
      return BoundPredicate(e.op(), name, field->id, type);
    case Op::kNotNull:
      if (field->required) return True();
      return BoundPredicate(e.op(), name, field->id, type);
    case Op::kIsNan:
    case Op::kNotNan:
      if (!IsFloating(type->id())) {
        return InvalidArgument("binding {}: column '{}' is {}, not float or double", e.ToString(),
                               name, type->ToString());
      }
      return BoundPredicate(e.op(), name, field->id, type);
    case Op::kStartsWith:
    case Op::kNotStartsWith:
      if (type->id() != TypeId::kString) {
        return InvalidArgument("binding {}: column '{}' is {}, not string", e.ToString(), name,
                               type->ToString());
      }
      break;
    default:
      break;
  }
  if (e.literals().empty()) {
    return InvalidArgument("predicate {} on '{}' needs a value", OpName(e.op()), name);
  }
  if (e.op() != Op::kIn && e.op() != Op::kNotIn && e.literals().size() != 1) {
    return InvalidArgument("predicate {} on '{}' takes one value", OpName(e.op()), name);
  }
  std::vector<Literal> values;
  for (const auto& v : e.literals()) {
    Range range;
    auto converted = Convert(v, type, &range);
    if (!converted) return std::unexpected(std::move(ctx(converted.error())));
    if (range != Range::kInside) {
      // The value lies outside every value the column can hold.
      bool above = range == Range::kAboveMax;
      switch (e.op()) {
        case Op::kLt:
        case Op::kLtEq:
          return above ? True() : False();
        case Op::kGt:
        case Op::kGtEq:
          return above ? False() : True();
        case Op::kEq:
          return False();
        case Op::kNotEq:
          return True();
        default:
          continue;  // in / not_in: this value can never be equal
      }
    }
    values.push_back(std::move(converted).value());
  }
  return BoundPredicate(e.op(), name, field->id, type, std::move(values));
}

Result<ExprPtr> BindImpl(const ExprPtr& e, const Schema& schema, bool case_sensitive) {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse:
      return e;
    case Op::kAnd:
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(auto l, BindImpl(e->left(), schema, case_sensitive));
      FLOE_ASSIGN_OR_RETURN(auto r, BindImpl(e->right(), schema, case_sensitive));
      return e->op() == Op::kAnd ? And(l, r) : Or(l, r);
    }
    case Op::kNot:
      return InternalError("NOT left after rewrite");
    default:
      if (e->is_bound()) return e;
      return BindPredicate(*e, schema, case_sensitive);
  }
}

}  // namespace

Result<Literal> ConvertLiteral(const Literal& value, const TypePtr& type) {
  Range range;
  FLOE_ASSIGN_OR_RETURN(auto out, Convert(value, type, &range));
  if (range != Range::kInside) {
    return InvalidArgument("{} is out of range for {}", value.ToString(), type->ToString());
  }
  return out;
}

Result<ExprPtr> Bind(const ExprPtr& e, const Schema& schema, bool case_sensitive) {
  return BindImpl(RewriteNot(e), schema, case_sensitive);
}

}  // namespace floe::expr
