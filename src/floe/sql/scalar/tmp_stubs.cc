#include "floe/sql/scalar/binder.h"
#include "floe/sql/scalar/functions.h"
namespace floe::sql::scalar {
Result<ScalarExprPtr> BindCase(const Expr& expr, const Scope&) {
  return std::unexpected(ErrorAt(expr, "x"));
}
std::optional<Result<ScalarExprPtr>> BindIntervalArithmetic(const Expr&, const Scope&) {
  return std::nullopt;
}
std::span<const FunctionDef> MathFunctions() { return {}; }
std::span<const FunctionDef> DateTimeFunctions() { return {}; }
std::span<const FunctionDef> ConditionalFunctions() { return {}; }
}  // namespace floe::sql::scalar
