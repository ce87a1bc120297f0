#pragma once

// Binding of access into nested values: map subscripts (`summary['added-records']`), array
// subscripts (`a[1]`, 1-based) and ROW fields (`partition.data`,
// `readable_metrics.id.lower_bound`). Errors: a subscript of a value that is neither a MAP nor an
// ARRAY, a key that cannot be the map's key type, a field a ROW does not have; each names the
// expression and its position.

#include <string>
#include <string_view>

#include "floe/sql/scalar/scalar_expr.h"
#include "floe/sql/syntax/ast.h"

namespace floe::sql::scalar {

Result<ScalarExprPtr> BindSubscript(const Expr& expr, const Scope& scope);
Result<ScalarExprPtr> BindFieldAccess(const Expr& expr, const Scope& scope);
// Field `field` (exact name first, then a unique case-insensitive match) of a ROW expression.
Result<ScalarExprPtr> MakeFieldAccess(ScalarExprPtr base, std::string_view field, Position position,
                                      std::string text);

}  // namespace floe::sql::scalar
