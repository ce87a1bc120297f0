// Math functions with Flink's types: ABS, SIGN, CEIL, FLOOR, ROUND and TRUNCATE keep the
// argument's kind (decimals get Flink's result precision and scale), the others work in DOUBLE.
// ROUND rounds HALF_UP as Flink does (through BigDecimal, so on the decimal digits Java prints
// for a double), MOD is the % operator.

#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <numbers>
#include <random>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/decimal_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/uuid.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

Result<ScalarExprPtr> NumericArg(const Expr& call, ScalarExprPtr arg, int index) {
  if (IsNullType(*arg->type())) return Coerce(std::move(arg), DataType::Int32());
  if (!IsNumeric(*arg->type())) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{}: argument {} must be a number, not {}", CallName(call),
                                  index + 1, SqlTypeName(*arg->type()))));
  }
  return arg;
}

// A DOUBLE function of DOUBLE arguments.
template <typename F>
Result<ScalarExprPtr> DoubleCall(const Expr& call, Args args, F f) {
  for (size_t k = 0; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], DoubleArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Float64(), nullable, TextOf(call),
                  [f](std::span<const Array> a, int64_t n) {
                    return MapFixed<double>(a, DataType::Float64(), n, [&](int64_t i, double& out) {
                      if (a.size() == 1) {
                        out = f(a[0].Value<double>(i), 0.0);
                      } else {
                        out = f(a[0].Value<double>(i), a[1].Value<double>(i));
                      }
                      return true;
                    });
                  });
}

// A function of one number giving the same type; op(T value, const DataType& type) -> T.
template <typename Op>
Result<ScalarExprPtr> SameTypeCall(const Expr& call, Args args, DataTypePtr result_type, Op op) {
  FLOE_ASSIGN_OR_RETURN(args[0], NumericArg(call, std::move(args[0]), 0));
  const DataTypePtr input_type = args[0]->type();
  if (!result_type) result_type = input_type;
  const bool nullable = args[0]->nullable();
  return MakeCall(
      NodeKind::kCall, {std::move(args[0])}, result_type, nullable, TextOf(call),
      [op, input_type, result_type](std::span<const Array> a, int64_t n) -> Result<Array> {
        return DispatchFixed(input_type->kind(), [&](auto tag) -> Result<Array> {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, std::monostate>) {
            return InternalError("not a number");
          } else {
            const T* values = a[0].Values<T>().data();
            return MakeFixed<T>(result_type, n, ValidityOf(a[0]), [&](T* out) {
              for (int64_t i = 0; i < n; ++i) out[i] = op(values[i], *input_type);
            });
          }
        });
      });
}

template <typename T>
T AbsOf(T v, const DataType&) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(v);
  } else if constexpr (std::is_same_v<T, int128>) {
    return v < 0 ? -v : v;
  } else {
    // Java's Math.abs: the minimum value stays itself.
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;
    return v < 0 ? static_cast<T>(U{0} - static_cast<U>(v)) : v;
  }
}

template <typename T>
T SignOf(T v, const DataType& type) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return v;
    return static_cast<T>((v > 0) - (v < 0));
  } else if constexpr (std::is_same_v<T, int128>) {
    return static_cast<int128>((v > 0) - (v < 0)) * Pow10(type.scale());
  } else {
    return static_cast<T>((v > 0) - (v < 0));
  }
}

Result<ScalarExprPtr> BindAbs(const Expr& call, Args args) {
  return SameTypeCall(call, std::move(args), nullptr,
                      [](auto v, const DataType& type) { return AbsOf(v, type); });
}

Result<ScalarExprPtr> BindSign(const Expr& call, Args args) {
  return SameTypeCall(call, std::move(args), nullptr,
                      [](auto v, const DataType& type) { return SignOf(v, type); });
}

// CEIL and FLOOR: integers unchanged, decimals to DECIMAL(p - s + 1, 0), floating kept.
template <bool kCeil>
Result<ScalarExprPtr> BindCeilFloor(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], NumericArg(call, std::move(args[0]), 0));
  DataTypePtr type = args[0]->type();
  DataTypePtr result = nullptr;
  if (IsDecimal(*type)) {
    result = DataType::Decimal128(std::min(38, type->precision() - type->scale() + 1), 0);
  }
  return SameTypeCall(call, std::move(args), result, [](auto v, const DataType& t) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      return kCeil ? std::ceil(v) : std::floor(v);
    } else if constexpr (std::is_same_v<T, int128>) {
      const int128 unit = Pow10(t.scale());
      int128 q = v / unit;
      const int128 r = v % unit;
      if (kCeil && r > 0) ++q;
      if (!kCeil && r < 0) --q;
      return q;
    } else {
      return v;
    }
  });
}

// The decimal digits Java prints for a double, rounded (or cut) at `digits` after the point.
double RoundDouble(double v, int64_t digits, bool truncate) {
  if (!std::isfinite(v)) return v;
  if (truncate) {
    const double scale = std::pow(10.0, static_cast<double>(digits));
    return std::trunc(v * scale) / scale;
  }
  char buffer[64];
  auto written = std::to_chars(buffer, buffer + sizeof buffer, v);
  const int scale = static_cast<int>(std::clamp<int64_t>(digits, -38, 38));
  std::optional<int128> rounded =
      scale >= 0 ? ParseDecimal(std::string_view(buffer, written.ptr), 38, scale) : std::nullopt;
  if (scale < 0) {
    std::optional<int128> whole = ParseDecimal(std::string_view(buffer, written.ptr), 38, 0);
    if (!whole) return v;
    return static_cast<double>(DivPow10HalfUp(*whole, -scale) * Pow10(-scale));
  }
  if (!rounded) return v;
  return std::strtod(DecimalToString(*rounded, scale).c_str(), nullptr);
}

// ROUND(x[, d]) and TRUNCATE(x[, d]). Flink's result type for DECIMAL(p, s) rounded at d < s is
// DECIMAL(p - s + d + 1, d) (d >= 0) or DECIMAL(p - s + 1, 0).
template <bool kTruncate>
Result<ScalarExprPtr> BindRound(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], NumericArg(call, std::move(args[0]), 0));
  int64_t digits = 0;
  if (args.size() > 1) {
    FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
    std::optional<Value> constant = args[1]->constant();
    if (!constant || constant->is_null()) {
      return std::unexpected(ErrorAt(
          call, fmt::format("{}: the number of digits must be a constant", CallName(call))));
    }
    digits = constant->get<int64_t>();
  }
  const DataTypePtr type = args[0]->type();
  const bool nullable = args[0]->nullable();
  const std::string text = TextOf(call);
  if (IsFloating(*type)) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr x, Coerce(args[0], DataType::Float64()));
    return MakeCall(NodeKind::kCall, {std::move(x)}, DataType::Float64(), nullable, text,
                    [digits](std::span<const Array> a, int64_t n) {
                      return MapFixed<double>(
                          a, DataType::Float64(), n, [&](int64_t i, double& out) {
                            out = RoundDouble(a[0].Value<double>(i), digits, kTruncate);
                            return true;
                          });
                    });
  }
  const int scale = IsDecimal(*type) ? type->scale() : 0;
  DataTypePtr result = type;
  if (IsDecimal(*type) && digits < scale) {
    const int p = type->precision();
    result = digits >= 0 ? DataType::Decimal128(std::min<int64_t>(38, p - scale + digits + 1),
                                                static_cast<int32_t>(digits))
                         : DataType::Decimal128(std::min(38, p - scale + 1), 0);
  }
  const int target_scale = result->kind() == TypeKind::kDecimal128 ? result->scale() : 0;
  return SameTypeCall(
      call, {args[0]}, result, [digits, scale, target_scale](auto v, const DataType&) {
        using T = decltype(v);
        if constexpr (std::is_floating_point_v<T>) {
          return v;
        } else {
          // Drop the digits below 10^-digits, then express the value at the result's scale.
          const int drop = static_cast<int>(std::clamp<int64_t>(scale - digits, 0, 38));
          if (drop == 0) return v;
          const int128 wide = static_cast<int128>(v);
          const int128 kept = kTruncate ? wide / Pow10(drop) : DivPow10HalfUp(wide, drop);
          // kept is at scale (scale - drop); the result's scale is target_scale.
          const int kept_scale = scale - drop;
          const int128 out = kept_scale >= target_scale ? kept / Pow10(kept_scale - target_scale)
                                                        : kept * Pow10(target_scale - kept_scale);
          return static_cast<T>(out);
        }
      });
}

Result<ScalarExprPtr> BindMod(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], NumericArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], NumericArg(call, std::move(args[1]), 1));
  return MakeArithmetic("%", std::move(args[0]), std::move(args[1]), call, TextOf(call));
}

Result<ScalarExprPtr> BindPower(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double b) { return std::pow(a, b); });
}
Result<ScalarExprPtr> BindSqrt(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return std::sqrt(a); });
}
Result<ScalarExprPtr> BindExp(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return std::exp(a); });
}
Result<ScalarExprPtr> BindLn(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return std::log(a); });
}
Result<ScalarExprPtr> BindLog10(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return std::log10(a); });
}
Result<ScalarExprPtr> BindLog2(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return std::log2(a); });
}
// LOG(x) is the natural logarithm, LOG(b, x) the logarithm of x to base b.
Result<ScalarExprPtr> BindLog(const Expr& call, Args args) {
  if (args.size() == 1) return BindLn(call, std::move(args));
  return DoubleCall(call, std::move(args),
                    [](double base, double x) { return std::log(x) / std::log(base); });
}

Result<ScalarExprPtr> BindPi(const Expr& call, Args) {
  return MakeLiteral(Value(std::numbers::pi), DataType::Float64(), TextOf(call));
}
Result<ScalarExprPtr> BindE(const Expr& call, Args) {
  return MakeLiteral(Value(std::numbers::e), DataType::Float64(), TextOf(call));
}

// The trigonometric functions, in radians, and the conversions to and from degrees.
template <double (*F)(double)>
Result<ScalarExprPtr> BindUnary(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double a, double) { return F(a); });
}
double Sin(double a) { return std::sin(a); }
double Cos(double a) { return std::cos(a); }
double Tan(double a) { return std::tan(a); }
double Cot(double a) { return 1.0 / std::tan(a); }
double Asin(double a) { return std::asin(a); }
double Acos(double a) { return std::acos(a); }
double Atan(double a) { return std::atan(a); }
double Sinh(double a) { return std::sinh(a); }
double Cosh(double a) { return std::cosh(a); }
double Tanh(double a) { return std::tanh(a); }
double Degrees(double a) { return a * (180.0 / std::numbers::pi); }
double Radians(double a) { return a / 180.0 * std::numbers::pi; }

Result<ScalarExprPtr> BindAtan2(const Expr& call, Args args) {
  return DoubleCall(call, std::move(args), [](double y, double x) { return std::atan2(y, x); });
}

// RAND([seed]) in [0, 1) and RAND_INTEGER([seed,] bound) in [0, bound): without a seed each call
// draws from the per-thread generator; with one, a node's values are a repeatable sequence from
// that seed (Flink keeps one java.util.Random per call site; the sequences differ from Java's).
// Not folded: each row gets its own value.
class RandomSource {
 public:
  explicit RandomSource(std::optional<int64_t> seed) : seeded_(seed.has_value()) {
    if (seed) engine_.seed(static_cast<uint64_t>(*seed));
  }
  uint64_t Next() { return seeded_ ? engine_() : RandomU64(); }
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  bool seeded_;
  std::mt19937_64 engine_;
};

Result<std::optional<int64_t>> SeedOf(const Expr& call, const ScalarExprPtr& seed) {
  if (!seed) return std::optional<int64_t>();
  if (!IsInteger(*seed->type()) || !seed->constant()) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{}: the seed must be an integer constant", CallName(call))));
  }
  const std::optional<Value> value = seed->constant();
  if (value->is_null()) return std::optional<int64_t>();
  return std::optional<int64_t>(value->get<int64_t>());
}

Result<ScalarExprPtr> BindRand(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> seed,
                        SeedOf(call, args.empty() ? nullptr : args[0]));
  auto source = std::make_shared<RandomSource>(seed);
  return MakeCall(NodeKind::kCall, {}, DataType::Float64(), false, TextOf(call),
                  [source](std::span<const Array>, int64_t n) {
                    return MapFixed<double>({}, DataType::Float64(), n, [&](int64_t, double& out) {
                      out = source->NextDouble();
                      return true;
                    });
                  },
                  {.deterministic = false});
}

Result<ScalarExprPtr> BindRandInteger(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> seed,
                        SeedOf(call, args.size() == 2 ? args[0] : nullptr));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound,
                        IntegerArg(call, args.back(), static_cast<int>(args.size()) - 1));
  auto source = std::make_shared<RandomSource>(seed);
  const std::string what = AtPosition(call.position, TextOf(call));
  const bool nullable = bound->nullable();
  return MakeCall(NodeKind::kCall, {std::move(bound)}, DataType::Int32(), nullable, TextOf(call),
                  [source, what](std::span<const Array> a, int64_t n) -> Result<Array> {
                    Status failed = Ok();
                    Result<Array> out =
                        MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                          const int64_t limit = a[0].Value<int64_t>(i);
                          if (limit <= 0 || limit > INT32_MAX) {
                            if (failed) {
                              failed = InvalidArgument("{}: the bound must be positive, not {}",
                                                       what, limit);
                            }
                            return false;
                          }
                          out = static_cast<int32_t>(source->Next() % static_cast<uint64_t>(limit));
                          return true;
                        });
                    FLOE_RETURN_IF_ERROR(failed);
                    return out;
                  },
                  {.deterministic = false});
}

constexpr FunctionDef kMathFunctions[] = {
    {"ABS", 1, 1, BindAbs},
    {"SIGN", 1, 1, BindSign},
    {"CEIL", 1, 1, BindCeilFloor<true>},
    {"CEILING", 1, 1, BindCeilFloor<true>},
    {"FLOOR", 1, 1, BindCeilFloor<false>},
    {"ROUND", 1, 2, BindRound<false>},
    {"TRUNCATE", 1, 2, BindRound<true>},
    {"MOD", 2, 2, BindMod},
    {"POWER", 2, 2, BindPower},
    {"POW", 2, 2, BindPower},
    {"SQRT", 1, 1, BindSqrt},
    {"EXP", 1, 1, BindExp},
    {"LN", 1, 1, BindLn},
    {"LOG10", 1, 1, BindLog10},
    {"LOG2", 1, 1, BindLog2},
    {"LOG", 1, 2, BindLog},
    {"PI", 0, 0, BindPi},
    {"E", 0, 0, BindE},
    {"SIN", 1, 1, BindUnary<Sin>},
    {"COS", 1, 1, BindUnary<Cos>},
    {"TAN", 1, 1, BindUnary<Tan>},
    {"COT", 1, 1, BindUnary<Cot>},
    {"ASIN", 1, 1, BindUnary<Asin>},
    {"ACOS", 1, 1, BindUnary<Acos>},
    {"ATAN", 1, 1, BindUnary<Atan>},
    {"ATAN2", 2, 2, BindAtan2},
    {"SINH", 1, 1, BindUnary<Sinh>},
    {"COSH", 1, 1, BindUnary<Cosh>},
    {"TANH", 1, 1, BindUnary<Tanh>},
    {"DEGREES", 1, 1, BindUnary<Degrees>},
    {"RADIANS", 1, 1, BindUnary<Radians>},
    {"RAND", 0, 1, BindRand},
    {"RAND_INTEGER", 1, 2, BindRandInteger},
};

}  // namespace

std::span<const FunctionDef> MathFunctions() { return kMathFunctions; }

}  // namespace floe::sql::scalar
