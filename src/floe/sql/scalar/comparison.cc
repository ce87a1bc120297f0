// = <> < <= > >=, IS [NOT] DISTINCT FROM, IN (list) and BETWEEN. Operands are first converted to
// one type (binder_internal.h's CoerceForComparison), then compared with typed loops: numbers and
// times by value, decimals by unscaled value at a common scale, strings by their UTF-8 bytes (code
// point order, as Flink's BinaryStringData compares), booleans FALSE < TRUE.

#include <fmt/core.h>

#include <functional>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/logic_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

template <typename RA, typename RB, typename Cmp>
void FillBits(uint8_t* bits, int64_t n, const RA& ra, const RB& rb, Cmp cmp) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    unsigned byte = 0;
    for (int j = 0; j < 8; ++j) byte |= static_cast<unsigned>(cmp(ra[i + j], rb[i + j])) << j;
    bits[i >> 3] = static_cast<uint8_t>(byte);
  }
  for (; i < n; ++i) {
    if (cmp(ra[i], rb[i])) bit_util::SetBit(bits, i);
  }
}

template <typename RA, typename RB>
void FillCompare(CmpOp op, uint8_t* bits, int64_t n, const RA& ra, const RB& rb) {
  switch (op) {
    case CmpOp::kEq:
      return FillBits(bits, n, ra, rb, std::equal_to<>());
    case CmpOp::kNe:
      return FillBits(bits, n, ra, rb, std::not_equal_to<>());
    case CmpOp::kLt:
      return FillBits(bits, n, ra, rb, std::less<>());
    case CmpOp::kLe:
      return FillBits(bits, n, ra, rb, std::less_equal<>());
    case CmpOp::kGt:
      return FillBits(bits, n, ra, rb, std::greater<>());
    case CmpOp::kGe:
      return FillBits(bits, n, ra, rb, std::greater_equal<>());
  }
}

struct StringColumnReader {
  const Array* array;
  std::string_view operator[](int64_t i) const { return array->GetView(i); }
};
struct BoolColumnReader {
  const Array* array;
  bool operator[](int64_t i) const { return array->GetBool(i); }
};

template <typename Reader, typename Body>
void WithReadersOf(const Array& a, const Array& b, int64_t n, Body&& body) {
  Reader ra{&a}, rb{&b};
  using V = decltype(ra[0]);
  const bool scalar_a = IsScalarArg(a, n), scalar_b = IsScalarArg(b, n);
  if (scalar_a && scalar_b) {
    body(ConstantReader<V>{ra[0]}, ConstantReader<V>{rb[0]});
  } else if (scalar_a) {
    body(ConstantReader<V>{ra[0]}, rb);
  } else if (scalar_b) {
    body(ra, ConstantReader<V>{rb[0]});
  } else {
    body(ra, rb);
  }
}

CmpOp ParseCmp(std::string_view op) {
  if (op == "=") return CmpOp::kEq;
  if (op == "<>") return CmpOp::kNe;
  if (op == "<") return CmpOp::kLt;
  if (op == "<=") return CmpOp::kLe;
  if (op == ">") return CmpOp::kGt;
  return CmpOp::kGe;
}

// In CmpOp's order.
NodeKind ComparisonKind(CmpOp op) {
  constexpr NodeKind kKinds[] = {NodeKind::kEqual,   NodeKind::kNotEqual,
                                 NodeKind::kLess,    NodeKind::kLessOrEqual,
                                 NodeKind::kGreater, NodeKind::kGreaterOrEqual};
  return kKinds[static_cast<int>(op)];
}

bool Comparable(const DataType& type) {
  return IsNumeric(type) || IsString(type) || type.kind() == TypeKind::kBool ||
         type.kind() == TypeKind::kDate32 || type.kind() == TypeKind::kTime64 ||
         type.kind() == TypeKind::kTimestamp || type.kind() == TypeKind::kBinary ||
         type.kind() == TypeKind::kNull;
}

Result<std::pair<ScalarExprPtr, ScalarExprPtr>> ComparablePair(ScalarExprPtr a, ScalarExprPtr b,
                                                               const Expr& expr,
                                                               std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto pair, CoerceForComparison(std::move(a), std::move(b), expr, what));
  if (!Comparable(*pair.first->type())) {
    return std::unexpected(ErrorAt(
        expr, fmt::format("cannot {} values of type {}", what, SqlTypeName(*pair.first->type()))));
  }
  if (IsNullType(*pair.first->type())) {
    FLOE_ASSIGN_OR_RETURN(pair.first, Coerce(std::move(pair.first), DataType::Int32()));
    FLOE_ASSIGN_OR_RETURN(pair.second, Coerce(std::move(pair.second), DataType::Int32()));
  }
  return pair;
}

}  // namespace

Result<Array> CompareArrays(CmpOp op, const Array& a, const Array& b, int64_t n) {
  const Array args[] = {a, b};
  Validity validity = ArgsValidity(args, n);
  const TypeKind kind = a.kind();
  if (kind == TypeKind::kString || kind == TypeKind::kBinary) {
    return MakeBool(n, std::move(validity), [&](uint8_t* bits) {
      WithReadersOf<StringColumnReader>(
          a, b, n, [&](const auto& ra, const auto& rb) { FillCompare(op, bits, n, ra, rb); });
    });
  }
  if (kind == TypeKind::kBool) {
    return MakeBool(n, std::move(validity), [&](uint8_t* bits) {
      WithReadersOf<BoolColumnReader>(
          a, b, n, [&](const auto& ra, const auto& rb) { FillCompare(op, bits, n, ra, rb); });
    });
  }
  if (kind == TypeKind::kNull) return Array::MakeNulls(DataType::Bool(), n);
  return DispatchFixed(kind, [&](auto tag) -> Result<Array> {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::monostate>) {
      return InvalidArgument("cannot compare values of type {}", SqlTypeName(*a.type()));
    } else {
      return MakeBool(n, std::move(validity), [&](uint8_t* bits) {
        WithReaders<T, T>(a, b, n, [&](auto ra, auto rb) { FillCompare(op, bits, n, ra, rb); });
      });
    }
  });
}

Result<ScalarExprPtr> BindComparison(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr left, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr right, Bind(*expr.args[1], scope));
  FLOE_ASSIGN_OR_RETURN(auto pair, ComparablePair(std::move(left), std::move(right), expr,
                                                  fmt::format("compare with '{}'", expr.op)));
  if (expr.op == "IS DISTINCT FROM" || expr.op == "IS NOT DISTINCT FROM") {
    // Never null: two nulls are not distinct, a null and a value are.
    const bool distinct = expr.op == "IS DISTINCT FROM";
    return MakeCall(
        NodeKind::kCall, {std::move(pair.first), std::move(pair.second)}, DataType::Bool(), false,
        TextOf(expr), [distinct](std::span<const Array> args, int64_t n) -> Result<Array> {
          FLOE_ASSIGN_OR_RETURN(Array equal, CompareArrays(CmpOp::kEq, args[0], args[1], n));
          return MakeBool(n, {}, [&](uint8_t* bits) {
            for (int64_t i = 0; i < n; ++i) {
              const bool null_a = args[0].IsNull(i), null_b = args[1].IsNull(i);
              const bool same = null_a || null_b ? null_a == null_b : equal.GetBool(i);
              if (same != distinct) bit_util::SetBit(bits, i);
            }
          });
        });
  }
  const CmpOp op = ParseCmp(expr.op);
  const bool nullable = pair.first->nullable() || pair.second->nullable();
  return MakeCall(ComparisonKind(op), {std::move(pair.first), std::move(pair.second)},
                  DataType::Bool(), nullable, TextOf(expr),
                  [op](std::span<const Array> args, int64_t n) {
                    return CompareArrays(op, args[0], args[1], n);
                  },
                  {.scalar_constants = true});
}

Result<ScalarExprPtr> BindIn(const Expr& expr, const Scope& scope) {
  if (expr.query) {
    return std::unexpected(
        ErrorAt(expr, "IN with a subquery is supported only as a condition and-ed into WHERE"));
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<ScalarExprPtr> values, BindAll(expr.args, scope));
  FLOE_ASSIGN_OR_RETURN(values, CoerceToCommon(std::move(values), expr, "IN"));
  if (!Comparable(*values[0]->type())) {
    return std::unexpected(ErrorAt(
        expr, fmt::format("cannot compare values of type {}", SqlTypeName(*values[0]->type()))));
  }
  const bool negated = expr.negated;
  const bool nullable = AnyNullable(values);
  // x IN (a, b) is x = a OR x = b, with its three-valued outcome; NOT IN negates that.
  return MakeCall(negated ? NodeKind::kNotIn : NodeKind::kIn, std::move(values), DataType::Bool(),
                  nullable, TextOf(expr),
                  [negated](std::span<const Array> args, int64_t n) -> Result<Array> {
                    Array result = Array::MakeNulls(DataType::Bool(), n);
                    bool first = true;
                    for (size_t k = 1; k < args.size(); ++k) {
                      FLOE_ASSIGN_OR_RETURN(Array eq,
                                            CompareArrays(CmpOp::kEq, args[0], args[k], n));
                      result = first ? eq : Or3(result, eq, n);
                      first = false;
                    }
                    return negated ? Not3(result, n) : result;
                  },
                  {.scalar_constants = true});
}

Result<ScalarExprPtr> BindBetween(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(std::vector<ScalarExprPtr> values, BindAll(expr.args, scope));
  FLOE_ASSIGN_OR_RETURN(values, CoerceToCommon(std::move(values), expr, "BETWEEN"));
  if (!Comparable(*values[0]->type()) || IsNullType(*values[0]->type())) {
    return std::unexpected(ErrorAt(
        expr, fmt::format("cannot compare values of type {}", SqlTypeName(*values[0]->type()))));
  }
  const bool negated = expr.negated;
  const bool nullable = AnyNullable(values);
  return MakeCall(
      negated ? NodeKind::kNotBetween : NodeKind::kBetween, std::move(values), DataType::Bool(),
      nullable, TextOf(expr),
      [negated](std::span<const Array> args, int64_t n) -> Result<Array> {
        if (negated) {
          FLOE_ASSIGN_OR_RETURN(Array lt, CompareArrays(CmpOp::kLt, args[0], args[1], n));
          FLOE_ASSIGN_OR_RETURN(Array gt, CompareArrays(CmpOp::kGt, args[0], args[2], n));
          return Or3(lt, gt, n);
        }
        FLOE_ASSIGN_OR_RETURN(Array ge, CompareArrays(CmpOp::kGe, args[0], args[1], n));
        FLOE_ASSIGN_OR_RETURN(Array le, CompareArrays(CmpOp::kLe, args[0], args[2], n));
        return And3(ge, le, n);
      },
      {.scalar_constants = true});
}

}  // namespace floe::sql::scalar
