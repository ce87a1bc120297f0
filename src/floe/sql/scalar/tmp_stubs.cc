#include "floe/sql/scalar/binder.h"
#include "floe/sql/scalar/functions.h"
namespace floe::sql::scalar {
std::optional<Result<ScalarExprPtr>> BindIntervalArithmetic(const Expr&, const Scope&) {
  return std::nullopt;
}
std::span<const FunctionDef> DateTimeFunctions() { return {}; }
}  // namespace floe::sql::scalar
