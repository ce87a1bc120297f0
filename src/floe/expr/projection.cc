#include "floe/expr/projection.h"

#include <limits>
#include <utility>
#include <vector>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::expr {

namespace {

// value + delta (delta is +1 or -1) in the value's own type; nullopt at the type's limits.
std::optional<Literal> Step(const Literal& v, int delta) {
  switch (v.type_id()) {
    case TypeId::kInt:
    case TypeId::kDate: {
      int64_t r = int64_t{v.int_value()} + delta;
      if (r < std::numeric_limits<int32_t>::min() || r > std::numeric_limits<int32_t>::max()) {
        return std::nullopt;
      }
      return v.type_id() == TypeId::kInt ? Literal::Int(static_cast<int32_t>(r))
                                         : Literal::Date(static_cast<int32_t>(r));
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      int64_t x = v.long_value();
      if ((delta > 0 && x == std::numeric_limits<int64_t>::max()) ||
          (delta < 0 && x == std::numeric_limits<int64_t>::min())) {
        return std::nullopt;
      }
      int64_t r = x + delta;
      switch (v.type_id()) {
        case TypeId::kLong:
          return Literal::Long(r);
        case TypeId::kTime:
          return Literal::Time(r);
        case TypeId::kTimestamp:
          return Literal::Timestamp(r);
        case TypeId::kTimestampTz:
          return Literal::TimestampTz(r);
        case TypeId::kTimestampNs:
          return Literal::TimestampNs(r);
        default:
          return Literal::TimestampTzNs(r);
      }
    }
    case TypeId::kDecimal: {
      const auto& t = static_cast<const PrimitiveType&>(*v.type());
      return Literal::Decimal(v.decimal_value() + delta, t.precision(), t.scale());
    }
    default:
      return std::nullopt;
  }
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

int32_t IntOf(const Literal& v) { return v.int_value(); }

Literal SameIntType(const Literal& like, int32_t v) {
  return like.type_id() == TypeId::kDate ? Literal::Date(v) : Literal::Int(v);
}

class Projector {
 public:
  Projector(const Expression& p, const PartitionField& f, TypePtr result_type)
      : p_(p), f_(f), result_type_(std::move(result_type)) {}

  ExprPtr Make(Op op, std::vector<Literal> values) const {
    return BoundPredicate(op, f_.name, f_.field_id, result_type_, std::move(values));
  }

  Result<Literal> Apply(const Literal& v) const { return f_.transform.Apply(v); }

  Result<std::vector<Literal>> ApplyAll() const {
    std::vector<Literal> out;
    for (const auto& v : p_.literals()) {
      FLOE_ASSIGN_OR_RETURN(auto t, Apply(v));
      out.push_back(std::move(t));
    }
    return out;
  }

  // op applied to transform(value + delta); nullptr when value + delta overflows.
  Result<ExprPtr> Stepped(Op op, int delta) const {
    auto stepped = delta == 0 ? std::optional<Literal>(p_.literal()) : Step(p_.literal(), delta);
    if (!stepped) return ExprPtr();
    FLOE_ASSIGN_OR_RETURN(auto t, Apply(*stepped));
    return Make(op, {std::move(t)});
  }

  Result<ExprPtr> Bucket(bool strict) const {
    Op op = p_.op();
    if (strict ? (op == Op::kNotEq || op == Op::kNotIn) : (op == Op::kEq || op == Op::kIn)) {
      FLOE_ASSIGN_OR_RETURN(auto values, ApplyAll());
      return Make(op, std::move(values));
    }
    return ExprPtr();
  }

  // Order-preserving transforms of integer-like values: truncate of int, long and decimal, and
  // the time transforms before their pre-1970 widening.
  Result<ExprPtr> Ordered(bool strict) const {
    Op op = p_.op();
    if (!strict) {
      switch (op) {
        case Op::kLt:
          return Stepped(Op::kLtEq, -1);
        case Op::kLtEq:
          return Stepped(Op::kLtEq, 0);
        case Op::kGt:
          return Stepped(Op::kGtEq, 1);
        case Op::kGtEq:
          return Stepped(Op::kGtEq, 0);
        case Op::kEq:
          return Stepped(Op::kEq, 0);
        case Op::kIn: {
          FLOE_ASSIGN_OR_RETURN(auto values, ApplyAll());
          return Make(Op::kIn, std::move(values));
        }
        default:
          return ExprPtr();
      }
    }
    switch (op) {
      case Op::kLt:
        return Stepped(Op::kLt, 0);
      case Op::kLtEq:
        return Stepped(Op::kLt, 1);
      case Op::kGt:
        return Stepped(Op::kGt, 0);
      case Op::kGtEq:
        return Stepped(Op::kGt, -1);
      case Op::kNotEq:
        return Stepped(Op::kNotEq, 0);
      case Op::kNotIn: {
        FLOE_ASSIGN_OR_RETURN(auto values, ApplyAll());
        return Make(Op::kNotIn, std::move(values));
      }
      default:
        return ExprPtr();
    }
  }

  // Truncate of strings and binary: a truncated value is a prefix of the value.
  Result<ExprPtr> Prefix(bool strict) const {
    Op op = p_.op();
    size_t width = static_cast<size_t>(f_.transform.param());
    auto length = [&](const Literal& v) {
      return v.type_id() == TypeId::kString ? CodePoints(v.bytes_value()) : v.bytes_value().size();
    };
    if (!strict) {
      switch (op) {
        case Op::kLt:
        case Op::kLtEq:
          return Stepped(Op::kLtEq, 0);
        case Op::kGt:
        case Op::kGtEq:
          return Stepped(Op::kGtEq, 0);
        case Op::kEq:
          return Stepped(Op::kEq, 0);
        case Op::kIn: {
          FLOE_ASSIGN_OR_RETURN(auto values, ApplyAll());
          return Make(Op::kIn, std::move(values));
        }
        case Op::kStartsWith:
          if (length(p_.literal()) < width) return Make(Op::kStartsWith, {p_.literal()});
          return Stepped(Op::kEq, 0);
        case Op::kNotStartsWith:
          if (length(p_.literal()) < width) return Make(Op::kNotStartsWith, {p_.literal()});
          if (length(p_.literal()) == width) return Make(Op::kNotEq, {p_.literal()});
          return ExprPtr();
        default:
          return ExprPtr();
      }
    }
    switch (op) {
      case Op::kLt:
      case Op::kLtEq:
        return Stepped(Op::kLt, 0);
      case Op::kGt:
      case Op::kGtEq:
        return Stepped(Op::kGt, 0);
      case Op::kNotEq:
        return Stepped(Op::kNotEq, 0);
      case Op::kNotIn: {
        FLOE_ASSIGN_OR_RETURN(auto values, ApplyAll());
        return Make(Op::kNotIn, std::move(values));
      }
      case Op::kStartsWith:
        if (length(p_.literal()) <= width) return Make(Op::kStartsWith, {p_.literal()});
        return ExprPtr();
      case Op::kNotStartsWith:
        if (length(p_.literal()) <= width) return Make(Op::kNotStartsWith, {p_.literal()});
        return Stepped(Op::kNotStartsWith, 0);
      default:
        return ExprPtr();
    }
  }

  // Partitions written by old reference writers hold, for a pre-1970 value whose exact
  // projection is c, the partition c or c + 1: widen inclusive projections, narrow strict ones.
  ExprPtr FixTime(ExprPtr projected, bool strict) const {
    if (projected == nullptr || !projected->is_predicate()) return projected;
    const Expression& e = *projected;
    auto plus_negatives = [&](Op op) {
      std::vector<Literal> values = e.literals();
      for (const auto& v : e.literals()) {
        if (IntOf(v) < 0) values.push_back(SameIntType(v, IntOf(v) + 1));
      }
      return Make(op, std::move(values));
    };
    if (!strict) {
      switch (e.op()) {
        case Op::kLt:
        case Op::kLtEq:
          if (IntOf(e.literal()) < 0) {
            return Make(Op::kLtEq, {SameIntType(e.literal(), IntOf(e.literal()) + 1)});
          }
          return projected;
        case Op::kEq:
        case Op::kIn:
          return plus_negatives(Op::kIn);
        default:
          return projected;
      }
    }
    switch (e.op()) {
      case Op::kGt:
        if (IntOf(e.literal()) < 0) {
          return Make(Op::kGt, {SameIntType(e.literal(), IntOf(e.literal()) + 1)});
        }
        return projected;
      case Op::kNotEq:
      case Op::kNotIn:
        return plus_negatives(Op::kNotIn);
      default:
        return projected;
    }
  }

  Result<ExprPtr> Project(bool strict) const {
    const Transform& t = f_.transform;
    if (t.is_identity()) {
      return BoundPredicate(p_.op(), f_.name, f_.field_id, result_type_, p_.literals());
    }
    if (t.is_void() || t.is_unknown()) return ExprPtr();
    if (p_.op() == Op::kIsNull || p_.op() == Op::kNotNull) return Make(p_.op(), {});
    switch (t.kind()) {
      case Transform::Kind::kBucket:
        return Bucket(strict);
      case Transform::Kind::kTruncate:
        if (p_.type()->id() == TypeId::kString || p_.type()->id() == TypeId::kBinary) {
          return Prefix(strict);
        }
        return Ordered(strict);
      case Transform::Kind::kYear:
      case Transform::Kind::kMonth:
      case Transform::Kind::kDay:
      case Transform::Kind::kHour: {
        FLOE_ASSIGN_OR_RETURN(auto projected, Ordered(strict));
        return FixTime(std::move(projected), strict);
      }
      default:
        return ExprPtr();
    }
  }

 private:
  const Expression& p_;
  const PartitionField& f_;
  TypePtr result_type_;
};

Result<ExprPtr> ProjectTree(const ExprPtr& e, const Schema& schema, const PartitionSpec& spec,
                            bool strict) {
  switch (e->op()) {
    case Op::kTrue:
    case Op::kFalse:
      return e;
    case Op::kAnd:
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(auto l, ProjectTree(e->left(), schema, spec, strict));
      FLOE_ASSIGN_OR_RETURN(auto r, ProjectTree(e->right(), schema, spec, strict));
      return e->op() == Op::kAnd ? And(l, r) : Or(l, r);
    }
    case Op::kNot:
      return InvalidArgument("project: rewrite NOT before projecting");
    default:
      break;
  }
  if (!e->is_bound()) return InvalidArgument("project: {} is not bound", e->ToString());
  // Inclusively every partition field's projection must hold; strictly any one suffices.
  ExprPtr result = strict ? False() : True();
  for (const PartitionField* field : spec.FieldsBySourceId(e->field_id())) {
    if (field->source_ids.size() != 1) continue;
    FLOE_ASSIGN_OR_RETURN(auto projected, ProjectPredicate(*e, *field, strict));
    if (projected == nullptr) continue;
    result = strict ? Or(result, projected) : And(result, projected);
  }
  return result;
}

}  // namespace

Result<ExprPtr> ProjectPredicate(const Expression& predicate, const PartitionField& field,
                                 bool strict) {
  if (field.transform.is_unknown()) return ExprPtr();
  auto result_type = field.transform.ResultType(predicate.type());
  if (!result_type) {
    return std::unexpected(std::move(result_type.error().AddContext(
        "projecting " + predicate.ToString() + " to partition field " + field.name)));
  }
  auto projected = Projector(predicate, field, *result_type).Project(strict);
  if (!projected) {
    projected.error().AddContext("projecting " + predicate.ToString() + " to partition field " +
                                 field.name);
  }
  return projected;
}

Result<ExprPtr> ProjectInclusive(const ExprPtr& filter, const Schema& schema,
                                 const PartitionSpec& spec) {
  return ProjectTree(filter, schema, spec, false);
}

Result<ExprPtr> ProjectStrict(const ExprPtr& filter, const Schema& schema,
                              const PartitionSpec& spec) {
  return ProjectTree(filter, schema, spec, true);
}

}  // namespace floe::expr
