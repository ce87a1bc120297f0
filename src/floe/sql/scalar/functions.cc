#include "floe/sql/scalar/functions.h"

#include <fmt/core.h>

#include "floe/sql/scalar/binder.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

const FunctionDef* FindFunction(std::string_view upper) {
  for (auto family :
       {StringFunctions(), MathFunctions(), DateTimeFunctions(), ConditionalFunctions()}) {
    for (const FunctionDef& def : family) {
      if (def.name == upper) return &def;
    }
  }
  return nullptr;
}

std::string ArgumentCount(const FunctionDef& def) {
  if (def.max_args < 0)
    return fmt::format("at least {} argument{}", def.min_args, def.min_args == 1 ? "" : "s");
  if (def.min_args == def.max_args) {
    return fmt::format("{} argument{}", def.min_args, def.min_args == 1 ? "" : "s");
  }
  return fmt::format("{} to {} arguments", def.min_args, def.max_args);
}

}  // namespace

Result<ScalarExprPtr> BindFunction(const Expr& expr, const Scope& scope) {
  const std::string& written = expr.name.back();
  const std::string upper = AsciiUpper(written);
  if (IsAggregateFunction(upper)) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("aggregate function {} is not allowed here", upper)));
  }
  const FunctionDef* def = expr.name.size() == 1 ? FindFunction(upper) : nullptr;
  if (!def) {
    return std::unexpected(ErrorAt(expr, fmt::format("no function named '{}'", written)));
  }
  const int count = static_cast<int>(expr.args.size());
  if (expr.star || count < def->min_args || (def->max_args >= 0 && count > def->max_args)) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("{} takes {}, got {}", upper, ArgumentCount(*def),
                                  expr.star ? "*" : std::to_string(count))));
  }
  std::vector<ScalarExprPtr> args;
  for (int i = 0; i < count; ++i) {
    if (i == 0 && def->unit_first) {
      args.push_back(nullptr);
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr arg, Bind(*expr.args[i], scope));
    args.push_back(std::move(arg));
  }
  return def->bind(expr, std::move(args));
}

}  // namespace floe::sql::scalar
