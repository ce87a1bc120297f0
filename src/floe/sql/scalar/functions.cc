#include <fmt/core.h>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

const FunctionDef* FindFunction(std::string_view upper) {
  for (auto family :
       {StringFunctions(), MathFunctions(), DateTimeFunctions(), ConditionalFunctions(),
        ConstructorFunctions(), EncodingFunctions(), JsonFunctions(), CollectionFunctions(),
        JsonConstructorFunctions(), UrlFunctions()}) {
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

Result<ScalarExprPtr> ArgError(const Expr& call, const ScalarExprPtr& arg, int index,
                               std::string_view wanted) {
  return std::unexpected(
      ErrorAt(call, fmt::format("{}: argument {} must be {}, not {}", CallName(call), index + 1,
                                wanted, SqlTypeName(*arg->type()))));
}

}  // namespace

std::string CallName(const Expr& call) { return AsciiUpper(call.name.back()); }

Result<ScalarExprPtr> StringArg(const Expr& call, ScalarExprPtr arg, int index) {
  if (!IsString(*arg->type()) && !IsNullType(*arg->type())) {
    return ArgError(call, arg, index, "a STRING");
  }
  return Coerce(std::move(arg), DataType::String());
}

Result<ScalarExprPtr> IntegerArg(const Expr& call, ScalarExprPtr arg, int index) {
  if (!IsInteger(*arg->type()) && !IsNullType(*arg->type())) {
    return ArgError(call, arg, index, "an integer");
  }
  return Coerce(std::move(arg), DataType::Int64());
}

Result<ScalarExprPtr> DoubleArg(const Expr& call, ScalarExprPtr arg, int index) {
  if (!IsNumeric(*arg->type()) && !IsNullType(*arg->type())) {
    return ArgError(call, arg, index, "a number");
  }
  return Coerce(std::move(arg), DataType::Float64());
}

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
