#include "floe/sql/scalar/access_internal.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/syntax/printer.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

bool IsNiladicFunction(std::string_view name) {
  static constexpr std::string_view kNames[] = {"CURRENT_DATE",   "CURRENT_TIMESTAMP",
                                                "LOCALTIMESTAMP", "CURRENT_TIME",
                                                "LOCALTIME",      "CURRENT_ROW_TIMESTAMP"};
  for (std::string_view known : kNames) {
    if (AsciiUpper(name) == known) return true;
  }
  return false;
}

// `a.b.c` that is not a column name: the longest prefix (table.column or column) naming a
// column, then fields of that ROW column, as Calcite resolves compound identifiers.
std::optional<Result<ScalarExprPtr>> BindNestedColumn(const Expr& expr, const Scope& scope) {
  for (size_t prefix = std::min<size_t>(2, expr.name.size() - 1); prefix >= 1; --prefix) {
    std::vector<std::string> column(expr.name.begin(), expr.name.begin() + prefix);
    Result<int> index = scope.Find(column, expr.position);
    if (!index) continue;
    const ScopeColumn& found = scope.columns()[*index];
    ScalarExprPtr value =
        std::make_shared<ColumnNode>(*index, found.type, found.nullable, TextOf(expr));
    for (size_t part = prefix; part < expr.name.size(); ++part) {
      Result<ScalarExprPtr> field =
          MakeFieldAccess(std::move(value), expr.name[part], expr.position, TextOf(expr));
      if (!field) return field;
      value = *std::move(field);
    }
    return value;
  }
  return std::nullopt;
}

Result<ScalarExprPtr> BindColumn(const Expr& expr, const Scope& scope) {
  Result<int> index = expr.name.size() > 2
                          ? Result<int>(std::unexpected(Error(ErrorKind::kInvalidArgument, "")))
                          : scope.Find(expr.name, expr.position);
  if (!index && expr.name.size() > 1) {
    if (auto nested = BindNestedColumn(expr, scope)) return *std::move(nested);
    if (expr.name.size() > 2) index = scope.Find(expr.name, expr.position);
  }
  if (!index) {
    // CURRENT_DATE and its kin are written without parentheses; a column of that name wins.
    if (expr.name.size() == 1 && IsNiladicFunction(expr.name[0])) {
      Expr call;
      call.kind = ExprKind::kFunction;
      call.position = expr.position;
      call.name = expr.name;
      return BindFunction(call, scope);
    }
    return std::unexpected(index.error());
  }
  const ScopeColumn& column = scope.columns()[*index];
  return ScalarExprPtr(
      std::make_shared<ColumnNode>(*index, column.type, column.nullable, TextOf(expr)));
}

}  // namespace

std::string TextOf(const Expr& expr) { return PrintExpr(expr); }

Error ErrorAt(const Expr& expr, std::string_view message) {
  return Error(ErrorKind::kInvalidArgument, AtPosition(expr.position, message));
}

Result<std::vector<ScalarExprPtr>> BindAll(const std::vector<ExprPtr>& args, const Scope& scope) {
  std::vector<ScalarExprPtr> out;
  out.reserve(args.size());
  for (const ExprPtr& arg : args) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, Bind(*arg, scope));
    out.push_back(std::move(bound));
  }
  return out;
}

Result<ScalarExprPtr> Bind(const Expr& expr, const Scope& scope) {
  switch (expr.kind) {
    case ExprKind::kLiteral:
      return BindLiteral(expr);
    case ExprKind::kColumn:
      return BindColumn(expr, scope);
    case ExprKind::kStar:
      return std::unexpected(ErrorAt(expr, "'*' is not allowed here"));
    case ExprKind::kUnary:
      if (expr.op == "NOT") return BindNot(expr, scope);
      return BindNegate(expr, scope);
    case ExprKind::kBinary:
      if (expr.op == "AND" || expr.op == "OR") return BindLogic(expr, scope);
      if (expr.op == "||") return BindConcatOperator(expr, scope);
      if (expr.op == "+" || expr.op == "-" || expr.op == "*" || expr.op == "/" || expr.op == "%") {
        return BindArithmetic(expr, scope);
      }
      return BindComparison(expr, scope);
    case ExprKind::kIsNull:
      return BindIsNull(expr, scope);
    case ExprKind::kIsNan:
      return BindIsNan(expr, scope);
    case ExprKind::kIn:
      return BindIn(expr, scope);
    case ExprKind::kBetween:
      return BindBetween(expr, scope);
    case ExprKind::kLike:
      return BindLike(expr, scope);
    case ExprKind::kCase:
      return BindCase(expr, scope);
    case ExprKind::kCast:
      return BindCastExpr(expr, scope);
    case ExprKind::kFunction:
      if (expr.over) {
        return std::unexpected(
            ErrorAt(expr, "OVER windows are supported in a query's select list, not here"));
      }
      return BindFunction(expr, scope);
    case ExprKind::kSubquery:
      return std::unexpected(ErrorAt(
          expr,
          "subqueries are supported in a query's WHERE (IN and EXISTS as its conditions), select "
          "list, HAVING and ORDER BY, not here"));
    case ExprKind::kSubscript:
      return BindSubscript(expr, scope);
    case ExprKind::kFieldAccess:
      return BindFieldAccess(expr, scope);
  }
  return std::unexpected(ErrorAt(expr, "unknown expression"));
}

Result<ScalarExprPtr> BindCastExpr(const Expr& expr, const Scope& scope) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr input, Bind(*expr.args[0], scope));
  FLOE_ASSIGN_OR_RETURN(DataTypePtr target, ToBatchType(expr.type));
  const std::string text = TextOf(expr);
  Result<ScalarExprPtr> cast = MakeCast(std::move(input), target, expr.op == "TRY_CAST", text,
                                        AtPosition(expr.position, text));
  if (!cast) return std::unexpected(cast.error());
  return cast;
}

Result<std::pair<ScalarExprPtr, ScalarExprPtr>> CoerceForComparison(ScalarExprPtr a,
                                                                    ScalarExprPtr b,
                                                                    const Expr& where,
                                                                    std::string_view what) {
  const DataTypePtr& ta = a->type();
  const DataTypePtr& tb = b->type();
  // A string constant meets a typed value in that value's type: dt = '2024-01-01'.
  if (IsString(*ta) && a->constant() && !IsString(*tb) && !IsNullType(*tb)) {
    Result<ScalarExprPtr> cast = Coerce(a, tb);
    if (cast) return std::pair{*std::move(cast), std::move(b)};
  }
  if (IsString(*tb) && b->constant() && !IsString(*ta) && !IsNullType(*ta)) {
    Result<ScalarExprPtr> cast = Coerce(b, ta);
    if (cast) return std::pair{std::move(a), *std::move(cast)};
  }
  std::optional<DataTypePtr> common = CommonType(a->type(), b->type());
  if (!common) {
    return std::unexpected(
        ErrorAt(where, fmt::format("cannot {} {} and {}", what, SqlTypeName(*a->type()),
                                   SqlTypeName(*b->type()))));
  }
  FLOE_ASSIGN_OR_RETURN(a, Coerce(std::move(a), *common));
  FLOE_ASSIGN_OR_RETURN(b, Coerce(std::move(b), *common));
  return std::pair{std::move(a), std::move(b)};
}

Result<std::vector<ScalarExprPtr>> CoerceToCommon(std::vector<ScalarExprPtr> values,
                                                  const Expr& where, std::string_view what) {
  // String constants follow the typed values when there are any (CASE x WHEN '1' ...).
  DataTypePtr common = DataType::Null();
  for (int pass = 0; pass < 2 && IsNullType(*common); ++pass) {
    for (const ScalarExprPtr& value : values) {
      if (pass == 0 && IsString(*value->type()) && value->constant()) continue;
      std::optional<DataTypePtr> next = CommonType(common, value->type());
      if (!next) {
        return std::unexpected(
            ErrorAt(where, fmt::format("{}: no common type for {} and {}", what,
                                       SqlTypeName(*common), SqlTypeName(*value->type()))));
      }
      common = *next;
    }
  }
  for (ScalarExprPtr& value : values) {
    Result<ScalarExprPtr> cast = Coerce(value, common);
    if (!cast) {
      return std::unexpected(ErrorAt(where, fmt::format("{}: {}", what, cast.error().message())));
    }
    value = *std::move(cast);
  }
  return values;
}

}  // namespace floe::sql::scalar
