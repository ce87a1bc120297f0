#include "floe/expr/evaluator.h"

#include <cmath>
#include <compare>

namespace floe::expr {

namespace {

bool IsNanValue(const Literal& v) {
  if (v.type_id() == TypeId::kFloat) return std::isnan(v.float_value());
  if (v.type_id() == TypeId::kDouble) return std::isnan(v.double_value());
  return false;
}

bool HasPrefix(const Literal& v, const Literal& prefix) {
  return v.bytes_value().starts_with(prefix.bytes_value());
}

}  // namespace

bool TestValue(const Expression& p, const Literal* value) {
  bool null = value == nullptr || value->is_null();
  switch (p.op()) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kIsNull:
      return null;
    case Op::kNotNull:
      return !null;
    case Op::kIsNan:
      return !null && IsNanValue(*value);
    case Op::kNotNan:
      return null || !IsNanValue(*value);
    case Op::kNotEq:
      return null || value->Compare(p.literal()) != 0;
    case Op::kNotIn:
      if (null) return true;
      for (const auto& lit : p.literals()) {
        if (value->Compare(lit) == 0) return false;
      }
      return true;
    case Op::kNotStartsWith:
      return null || !HasPrefix(*value, p.literal());
    default:
      break;
  }
  if (null) return false;
  switch (p.op()) {
    case Op::kLt:
      return value->Compare(p.literal()) < 0;
    case Op::kLtEq:
      return value->Compare(p.literal()) <= 0;
    case Op::kGt:
      return value->Compare(p.literal()) > 0;
    case Op::kGtEq:
      return value->Compare(p.literal()) >= 0;
    case Op::kEq:
      return value->Compare(p.literal()) == 0;
    case Op::kIn:
      for (const auto& lit : p.literals()) {
        if (value->Compare(lit) == 0) return true;
      }
      return false;
    case Op::kStartsWith:
      return HasPrefix(*value, p.literal());
    default:
      return false;
  }
}

bool Evaluate(const Expression& e, const RowAccessor& row) {
  switch (e.op()) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kAnd:
      return Evaluate(*e.left(), row) && Evaluate(*e.right(), row);
    case Op::kOr:
      return Evaluate(*e.left(), row) || Evaluate(*e.right(), row);
    case Op::kNot:
      return !Evaluate(*e.left(), row);
    default:
      return TestValue(e, row(e.field_id()));
  }
}

}  // namespace floe::expr
