#include "floe/sql/scalar/scalar_expr.h"

namespace floe::sql {

Result<int> Scope::Find(const std::vector<std::string>&, Position) const {
  return Unsupported("expressions are not implemented yet");
}

Scope Scope::ForSchema(const BatchSchema&, std::string) { return Scope(); }

Result<ScalarExprPtr> BindScalar(const Expr&, const Scope&) {
  return Unsupported("expressions are not implemented yet");
}

Result<ScalarExprPtr> CastScalar(ScalarExprPtr, const DataTypePtr&, bool) {
  return Unsupported("CAST is not implemented yet");
}

Result<DataTypePtr> ToBatchType(const DataType&) {
  return Unsupported("types are not implemented yet");
}

Result<Value> EvaluateConstant(const Expr&) {
  return Unsupported("expressions are not implemented yet");
}

bool IsAggregateFunction(std::string_view) { return false; }

bool ContainsAggregate(const Expr&) { return false; }

expr::ExprPtr ToIcebergFilter(const ScalarExpr&, const Scope&) { return expr::True(); }

Result<RecordBatch> FilterBatch(const RecordBatch&, const ScalarExpr&) {
  return Unsupported("filters are not implemented yet");
}

}  // namespace floe::sql
