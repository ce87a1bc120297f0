// AND, OR, NOT, IS [NOT] NULL and IS [NOT] NAN. AND and OR evaluate their right side on every row
// first; when that fails (10 / x with x = 0) they retry it on the rows the left side does not
// decide, as Flink's generated code only evaluates the right side there.

#include <fmt/core.h>

#include <cmath>
#include <vector>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/logic_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

// n bits from bit 0: the values of a boolean array, or its validity (all set when it has none).
std::vector<uint8_t> Bits(const Array& array, int64_t n, bool validity) {
  const int64_t bytes = bit_util::BytesForBits(n);
  std::vector<uint8_t> out(bytes + 1, 0);
  if (IsScalarArg(array, n)) {
    const bool set = validity ? array.IsValid(0) : array.IsValid(0) && array.GetBool(0);
    if (set) bit_util::SetBitsTo(out.data(), 0, n, true);
    return out;
  }
  if (validity) {
    if (array.null_count() == 0) {
      bit_util::SetBitsTo(out.data(), 0, n, true);
    } else if (array.validity()) {
      bit_util::CopyBits(array.validity().data(), array.offset(), n, out.data(), 0);
    }
  } else if (array.kind() == TypeKind::kBool) {
    bit_util::CopyBits(array.values().data(), array.offset(), n, out.data(), 0);
  }
  return out;
}

// A boolean array from value and validity bits.
Array FromBits(std::vector<uint8_t> values, std::vector<uint8_t> valid, int64_t n) {
  const int64_t bytes = bit_util::BytesForBits(n);
  const int64_t nulls = n - bit_util::CountSetBits(valid.data(), 0, n);
  Buffer validity = nulls ? Buffer::CopyOf(valid.data(), bytes) : Buffer();
  return Array(DataType::Bool(), n, std::move(validity), Buffer::CopyOf(values.data(), bytes), {},
               {}, nulls);
}

Array Combine(const Array& a, const Array& b, int64_t n, bool is_and) {
  std::vector<uint8_t> av = Bits(a, n, false), ak = Bits(a, n, true);
  std::vector<uint8_t> bv = Bits(b, n, false), bk = Bits(b, n, true);
  const size_t bytes = static_cast<size_t>(bit_util::BytesForBits(n));
  std::vector<uint8_t> value(bytes + 1), valid(bytes + 1);
  for (size_t i = 0; i < bytes; ++i) {
    const uint8_t a_true = av[i] & ak[i], b_true = bv[i] & bk[i];
    const uint8_t a_false = ~av[i] & ak[i], b_false = ~bv[i] & bk[i];
    if (is_and) {
      const uint8_t decided_false = a_false | b_false;
      value[i] = a_true & b_true;
      valid[i] = (ak[i] & bk[i]) | decided_false;
    } else {
      const uint8_t decided_true = a_true | b_true;
      value[i] = decided_true;
      valid[i] = (ak[i] & bk[i]) | decided_true;
    }
  }
  return FromBits(std::move(value), std::move(valid), n);
}

Result<ScalarExprPtr> RequireBoolean(ScalarExprPtr operand, const Expr& expr, std::string_view op) {
  if (IsNullType(*operand->type())) return Coerce(std::move(operand), DataType::Bool());
  if (operand->type()->kind() != TypeKind::kBool) {
    return std::unexpected(ErrorAt(
        expr, fmt::format("{} needs BOOLEAN operands, not {}", op, SqlTypeName(*operand->type()))));
  }
  return operand;
}

class LogicNode final : public Node {
 public:
  LogicNode(bool is_and, ScalarExprPtr left, ScalarExprPtr right, std::string text)
      : Node(is_and ? NodeKind::kAnd : NodeKind::kOr, {left, right}, DataType::Bool(),
             left->nullable() || right->nullable(), std::move(text)),
        is_and_(is_and) {}

  Result<Array> Evaluate(const RecordBatch& input) const override {
    const int64_t n = input.num_rows();
    FLOE_ASSIGN_OR_RETURN(Array left, children()[0]->Evaluate(input));
    Result<Array> right = children()[1]->Evaluate(input);
    if (!right) {
      // Only rows the left side leaves open need the right side.
      std::vector<uint8_t> open(n);
      for (int64_t i = 0; i < n; ++i) {
        open[i] = left.IsNull(i) || left.GetBool(i) == is_and_;
      }
      right = EvaluateMasked(*children()[1], input, open);
      if (!right) return right;
    }
    return Combine(left, *right, n, is_and_);
  }

 private:
  bool is_and_;
};

}  // namespace

Array And3(const Array& a, const Array& b, int64_t n) { return Combine(a, b, n, true); }
Array Or3(const Array& a, const Array& b, int64_t n) { return Combine(a, b, n, false); }

Array Not3(const Array& a, int64_t n) {
  std::vector<uint8_t> value = Bits(a, n, false), valid = Bits(a, n, true);
  for (size_t i = 0; i < value.size(); ++i) value[i] = ~value[i] & valid[i];
  return FromBits(std::move(value), std::move(valid), n);
}

Result<ScalarExprPtr> BindLogic(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr left, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr right, Bind(*expr.args[1], scope));
  FLOE_ASSIGN_OR_RETURN(left, RequireBoolean(std::move(left), expr, expr.op));
  FLOE_ASSIGN_OR_RETURN(right, RequireBoolean(std::move(right), expr, expr.op));
  return Fold(std::make_shared<LogicNode>(expr.op == "AND", std::move(left), std::move(right),
                                          TextOf(expr)));
}

Result<ScalarExprPtr> BindNot(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(operand, RequireBoolean(std::move(operand), expr, "NOT"));
  const bool nullable = operand->nullable();
  return MakeCall(
      NodeKind::kNot, {std::move(operand)}, DataType::Bool(), nullable, TextOf(expr),
      [](std::span<const Array> args, int64_t n) -> Result<Array> { return Not3(args[0], n); });
}

// IS [NOT] TRUE / FALSE / UNKNOWN: never null; UNKNOWN is the null boolean.
Result<ScalarExprPtr> BindIsTruth(const Expr& expr, ScalarExprPtr operand) {
  if (IsNullType(*operand->type())) {
    FLOE_ASSIGN_OR_RETURN(operand, Coerce(std::move(operand), DataType::Bool()));
  }
  if (operand->type()->kind() != TypeKind::kBool) {
    return std::unexpected(ErrorAt(expr, fmt::format("IS {} needs a BOOLEAN operand, not {}",
                                                     expr.text, SqlTypeName(*operand->type()))));
  }
  const bool negated = expr.negated;
  const int want = expr.text == "TRUE" ? 1 : expr.text == "FALSE" ? 0 : -1;  // -1: UNKNOWN
  return MakeCall(NodeKind::kCall, {std::move(operand)}, DataType::Bool(), false, TextOf(expr),
                  [negated, want](std::span<const Array> args, int64_t n) -> Result<Array> {
                    const Array& a = args[0];
                    return MakeBool(n, {}, [&](uint8_t* bits) {
                      for (int64_t i = 0; i < n; ++i) {
                        const int value = a.IsNull(i) ? -1 : a.GetBool(i) ? 1 : 0;
                        if ((value == want) != negated) bit_util::SetBit(bits, i);
                      }
                    });
                  });
}

Result<ScalarExprPtr> BindIsNull(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, Bind(*expr.args[0], scope));
  if (!expr.text.empty()) return BindIsTruth(expr, std::move(operand));
  const bool negated = expr.negated;
  return MakeCall(negated ? NodeKind::kIsNotNull : NodeKind::kIsNull, {std::move(operand)},
                  DataType::Bool(), false, TextOf(expr),
                  [negated](std::span<const Array> args, int64_t n) -> Result<Array> {
                    const Array& a = args[0];
                    return MakeBool(n, {}, [&](uint8_t* bits) {
                      for (int64_t i = 0; i < n; ++i) {
                        if (a.IsNull(i) != negated) bit_util::SetBit(bits, i);
                      }
                    });
                  });
}

Result<ScalarExprPtr> BindIsNan(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, Bind(*expr.args[0], scope));
  const DataType& type = *operand->type();
  if (!IsFloating(type) && !IsNullType(type)) {
    return std::unexpected(ErrorAt(
        expr, fmt::format("IS NAN needs a FLOAT or DOUBLE operand, not {}", SqlTypeName(type))));
  }
  const bool negated = expr.negated;
  return MakeCall(negated ? NodeKind::kIsNotNan : NodeKind::kIsNan, {std::move(operand)},
                  DataType::Bool(), false, TextOf(expr),
                  [negated](std::span<const Array> args, int64_t n) -> Result<Array> {
                    const Array& a = args[0];
                    auto nan = [&](int64_t i) {
                      if (a.IsNull(i)) return false;
                      return a.kind() == TypeKind::kFloat32 ? std::isnan(a.Value<float>(i))
                                                            : std::isnan(a.Value<double>(i));
                    };
                    return MakeBool(n, {}, [&](uint8_t* bits) {
                      for (int64_t i = 0; i < n; ++i) {
                        if (nan(i) != negated) bit_util::SetBit(bits, i);
                      }
                    });
                  });
}

}  // namespace floe::sql::scalar
