#pragma once

// The binder's internal entry points, one per family of expressions; each binds the children of
// its node with Bind and checks their types. Errors start with the node's "line L, column C".

#include <string>

#include "floe/batch/data_type.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/ast.h"

namespace floe::sql::scalar {

Result<ScalarExprPtr> Bind(const Expr& expr, const Scope& scope);
Result<std::vector<ScalarExprPtr>> BindAll(const std::vector<ExprPtr>& args, const Scope& scope);

// The text of an expression as written (normalised by the printer), and an error at its position.
std::string TextOf(const Expr& expr);
Error ErrorAt(const Expr& expr, std::string_view message);

Result<ScalarExprPtr> BindLiteral(const Expr& expr);
Result<ScalarExprPtr> BindArithmetic(const Expr& expr, const Scope& scope);
// left op right for op in + - * / %, bound already; errors at `expr`.
Result<ScalarExprPtr> MakeArithmetic(std::string_view op, ScalarExprPtr left, ScalarExprPtr right,
                                     const Expr& expr, std::string text);
Result<ScalarExprPtr> BindNegate(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindComparison(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindIn(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindBetween(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindLogic(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindNot(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindIsNull(const Expr& expr, const Scope& scope);
// IS [NOT] NAN of a FLOAT or DOUBLE: never null (a null value is not NaN), as Iceberg's is_nan.
Result<ScalarExprPtr> BindIsNan(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindLike(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindConcatOperator(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindCase(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindCastExpr(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindFunction(const Expr& expr, const Scope& scope);
// Date/timestamp +/- INTERVAL; nullopt when neither operand is an interval literal.
std::optional<Result<ScalarExprPtr>> BindIntervalArithmetic(const Expr& expr, const Scope& scope);

// Two operands converted to the type Flink compares them in: a string literal takes the other
// side's type, numbers widen, dates meet timestamps. `what` names the operation in errors.
Result<std::pair<ScalarExprPtr, ScalarExprPtr>> CoerceForComparison(ScalarExprPtr a,
                                                                    ScalarExprPtr b,
                                                                    const Expr& where,
                                                                    std::string_view what);
// Values of several branches converted to their common type (CASE, COALESCE, IN lists).
Result<std::vector<ScalarExprPtr>> CoerceToCommon(std::vector<ScalarExprPtr> values,
                                                  const Expr& where, std::string_view what);

}  // namespace floe::sql::scalar
