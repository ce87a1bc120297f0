// + - * / % and unary minus with Flink's result types: integers keep the wider integer type and
// wrap on overflow as Java does (INT / INT stays INT, truncating), floating point follows IEEE,
// decimals take the precision and scale of Flink's LogicalTypeMerging and give null when the
// result does not fit. Integer and decimal division by zero is an error, as in Flink.

#include <fmt/core.h>

#include <cmath>
#include <type_traits>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/columns_internal.h"
#include "floe/sql/scalar/decimal_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"

namespace floe::sql::scalar {
namespace {

enum class ArithOp { kAdd, kSub, kMul, kDiv, kMod };

ArithOp ParseOp(std::string_view op) {
  if (op == "+") return ArithOp::kAdd;
  if (op == "-") return ArithOp::kSub;
  if (op == "*") return ArithOp::kMul;
  if (op == "/") return ArithOp::kDiv;
  return ArithOp::kMod;
}

// Java's wrapping integer arithmetic, without C++'s undefined signed overflow.
template <typename T>
T Wrap(ArithOp op, T a, T b) {
  using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
  switch (op) {
    case ArithOp::kAdd:
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case ArithOp::kSub:
      return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
    case ArithOp::kMul:
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    case ArithOp::kDiv:
      if (b == -1) return static_cast<T>(U{0} - static_cast<U>(a));
      return static_cast<T>(a / b);
    case ArithOp::kMod:
      if (b == -1) return 0;
      return static_cast<T>(a % b);
  }
  return 0;
}

// Integers and floating point, both operands already of the result type.
template <typename T>
Result<Array> NumericKernel(ArithOp op, const Array& a, const Array& b, const DataTypePtr& type,
                            int64_t n, const std::string& what) {
  const Array args[] = {a, b};
  Validity validity = ArgsValidity(args, n);
  bool divided_by_zero = false;
  Array out = WithReaders<T, T>(a, b, n, [&](auto ra, auto rb) {
    return MakeFixed<T>(type, n, validity, [&](T* dst) {
      if constexpr (std::is_floating_point_v<T>) {
        // One loop per operator, so that each one vectorises.
        switch (op) {
          case ArithOp::kAdd:
            for (int64_t i = 0; i < n; ++i) dst[i] = ra[i] + rb[i];
            break;
          case ArithOp::kSub:
            for (int64_t i = 0; i < n; ++i) dst[i] = ra[i] - rb[i];
            break;
          case ArithOp::kMul:
            for (int64_t i = 0; i < n; ++i) dst[i] = ra[i] * rb[i];
            break;
          case ArithOp::kDiv:
            for (int64_t i = 0; i < n; ++i) dst[i] = ra[i] / rb[i];
            break;
          case ArithOp::kMod:
            for (int64_t i = 0; i < n; ++i) dst[i] = std::fmod(ra[i], rb[i]);
            break;
        }
      } else if (op == ArithOp::kDiv || op == ArithOp::kMod) {
        for (int64_t i = 0; i < n; ++i) {
          const T divisor = rb[i];
          if (divisor == 0) {
            dst[i] = 0;
            divided_by_zero |= ValidAt(validity, i);
          } else {
            dst[i] = Wrap(op, ra[i], divisor);
          }
        }
      } else {
        switch (op) {
          case ArithOp::kAdd:
            for (int64_t i = 0; i < n; ++i) dst[i] = Wrap(ArithOp::kAdd, ra[i], rb[i]);
            break;
          case ArithOp::kSub:
            for (int64_t i = 0; i < n; ++i) dst[i] = Wrap(ArithOp::kSub, ra[i], rb[i]);
            break;
          default:
            for (int64_t i = 0; i < n; ++i) dst[i] = Wrap(ArithOp::kMul, ra[i], rb[i]);
            break;
        }
      }
    });
  });
  if (divided_by_zero) return InvalidArgument("{}: division by zero", what);
  return out;
}

// Decimals of any scales into DECIMAL(p, s); a result beyond p digits is null.
Result<Array> DecimalKernel(ArithOp op, const Array& a, const Array& b, const DataTypePtr& type,
                            int64_t n, const std::string& what) {
  const int sa = a.type()->scale();
  const int sb = b.type()->scale();
  const int s = type->scale();
  const int p = type->precision();
  const Array args[] = {a, b};
  Validity validity = ArgsValidity(args, n);
  BufferBuilder valid;
  valid.Resize(bit_util::BytesForBits(n));
  uint8_t* valid_bits = valid.mutable_data();
  int64_t nulls = 0;
  bool divided_by_zero = false;
  Array values = WithReaders<int128, int128>(a, b, n, [&](auto ra, auto rb) {
    return MakeFixed<int128>(type, n, {}, [&](int128* dst) {
      for (int64_t i = 0; i < n; ++i) {
        dst[i] = 0;
        if (!ValidAt(validity, i)) {
          ++nulls;
          continue;
        }
        const int128 x = ra[i];
        const int128 y = rb[i];
        std::optional<int128> r;
        switch (op) {
          case ArithOp::kAdd:
          case ArithOp::kSub: {
            std::optional<int128> xs = Rescale(x, sa, s);
            std::optional<int128> ys = Rescale(y, sb, s);
            int128 sum;
            if (xs && ys &&
                !(op == ArithOp::kAdd ? __builtin_add_overflow(*xs, *ys, &sum)
                                      : __builtin_sub_overflow(*xs, *ys, &sum))) {
              r = sum;
            }
            break;
          }
          case ArithOp::kMul: {
            int128 product;
            if (!__builtin_mul_overflow(x, y, &product)) r = Rescale(product, sa + sb, s);
            break;
          }
          case ArithOp::kDiv: {
            if (y == 0) {
              divided_by_zero = true;
              break;
            }
            // x / 10^sa / (y / 10^sb) * 10^s = x * 10^(s - sa + sb) / y.
            std::optional<int128> xs = Rescale(x, 0, s - sa + sb);
            if (xs) r = DivHalfUp(*xs, y);
            break;
          }
          case ArithOp::kMod: {
            if (y == 0) {
              divided_by_zero = true;
              break;
            }
            std::optional<int128> xs = Rescale(x, sa, s);
            std::optional<int128> ys = Rescale(y, sb, s);
            if (xs && ys) r = *xs % *ys;
            break;
          }
        }
        if (r && FitsPrecision(*r, p)) {
          dst[i] = *r;
          bit_util::SetBit(valid_bits, i);
        } else {
          ++nulls;
        }
      }
    });
  });
  if (divided_by_zero) return InvalidArgument("{}: division by zero", what);
  return Array(type, n, nulls ? valid.Finish() : Buffer(), values.values(), {}, {}, nulls);
}

// Flink's decimal result type of `a op b` (LogicalTypeMerging).
DataTypePtr DecimalResultType(ArithOp op, const DataType& a, const DataType& b) {
  const int p1 = a.precision(), s1 = a.scale(), p2 = b.precision(), s2 = b.scale();
  switch (op) {
    case ArithOp::kAdd:
    case ArithOp::kSub: {
      const int scale = std::max(s1, s2);
      return AdjustedDecimal(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
    }
    case ArithOp::kMul:
      return AdjustedDecimal(p1 + p2, s1 + s2);
    case ArithOp::kDiv: {
      const int scale = std::max(6, s1 + p2 + 1);
      return AdjustedDecimal(p1 - s1 + s2 + scale, scale);
    }
    case ArithOp::kMod: {
      const int scale = std::max(s1, s2);
      return AdjustedDecimal(std::min(p1 - s1, p2 - s2) + scale, scale);
    }
  }
  return DataType::Decimal128(38, 0);
}

}  // namespace

Result<ScalarExprPtr> BindArithmetic(const Expr& expr, const Scope& scope) {
  if (std::optional<Result<ScalarExprPtr>> interval = BindIntervalArithmetic(expr, scope)) {
    return *std::move(interval);
  }
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr left, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr right, Bind(*expr.args[1], scope));
  return MakeArithmetic(expr.op, std::move(left), std::move(right), expr, TextOf(expr));
}

Result<ScalarExprPtr> MakeArithmetic(std::string_view op_text, ScalarExprPtr left,
                                     ScalarExprPtr right, const Expr& expr, std::string text) {
  const ArithOp op = ParseOp(op_text);
  DataTypePtr lt = left->type();
  DataTypePtr rt = right->type();
  if (IsNullType(*lt)) lt = IsNullType(*rt) ? DataType::Int32() : rt;
  if (IsNullType(*rt)) rt = lt;
  // A numeric string constant takes part as the other operand's type ('1' + 1).
  if (IsString(*lt) && left->constant() && IsNumeric(*rt)) lt = rt;
  if (IsString(*rt) && right->constant() && IsNumeric(*lt)) rt = lt;
  if (!IsNumeric(*lt) || !IsNumeric(*rt)) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("cannot apply '{}' to {} and {}", op_text,
                                  SqlTypeName(*left->type()), SqlTypeName(*right->type()))));
  }
  const std::string what = AtPosition(expr.position, text);
  const bool nullable = left->nullable() || right->nullable();
  const bool exact = !IsFloating(*lt) && !IsFloating(*rt);
  if (exact && (IsDecimal(*lt) || IsDecimal(*rt))) {
    DataTypePtr da = IsDecimal(*lt) ? lt : IntegerAsDecimal(*lt);
    DataTypePtr db = IsDecimal(*rt) ? rt : IntegerAsDecimal(*rt);
    DataTypePtr type = DecimalResultType(op, *da, *db);
    FLOE_ASSIGN_OR_RETURN(left, Coerce(std::move(left), da));
    FLOE_ASSIGN_OR_RETURN(right, Coerce(std::move(right), db));
    return MakeCall(NodeKind::kCall, {std::move(left), std::move(right)}, type, true, text,
                    [op, type, what](std::span<const Array> args, int64_t n) {
                      return DecimalKernel(op, args[0], args[1], type, n, what);
                    },
                    {.scalar_constants = true});
  }
  DataTypePtr type = WiderNumeric(lt, rt);
  FLOE_ASSIGN_OR_RETURN(left, Coerce(std::move(left), type));
  FLOE_ASSIGN_OR_RETURN(right, Coerce(std::move(right), type));
  return MakeCall(
      NodeKind::kCall, {std::move(left), std::move(right)}, type, nullable, text,
      [op, type, what](std::span<const Array> args, int64_t n) -> Result<Array> {
        return DispatchFixed(type->kind(), [&](auto tag) -> Result<Array> {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, int128>) {
            return InternalError("{}: not a numeric type", what);
          } else {
            return NumericKernel<T>(op, args[0], args[1], type, n, what);
          }
        });
      },
      {.scalar_constants = true});
}

Result<ScalarExprPtr> BindNegate(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, Bind(*expr.args[0], scope));
  DataTypePtr type = operand->type();
  if (IsNullType(*type)) type = DataType::Int32();
  if (!IsNumeric(*type)) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("cannot apply unary '{}' to {}", expr.op, SqlTypeName(*type))));
  }
  FLOE_ASSIGN_OR_RETURN(operand, Coerce(std::move(operand), type));
  if (expr.op == "+") return operand;
  const bool nullable = operand->nullable();
  return MakeCall(
      NodeKind::kCall, {std::move(operand)}, type, nullable, TextOf(expr),
      [type](std::span<const Array> args, int64_t n) -> Result<Array> {
        const Array& a = args[0];
        return DispatchFixed(type->kind(), [&](auto tag) -> Result<Array> {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, std::monostate>) {
            return InternalError("not a numeric type");
          } else {
            const T* values = a.Values<T>().data();
            return MakeFixed<T>(type, n, ValidityOf(a), [&](T* dst) {
              for (int64_t i = 0; i < n; ++i) {
                if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int128>) {
                  dst[i] = -values[i];
                } else {
                  dst[i] = Wrap(ArithOp::kSub, T{0}, values[i]);
                }
              }
            });
          }
        });
      });
}

}  // namespace floe::sql::scalar
