#include "floe/sql/scalar/table_filter.h"

#include <fmt/core.h>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/syntax/parser.h"
#include "floe/table/scan/batch_types.h"

namespace floe::sql {

Result<TableFilter> BindTableFilter(std::string_view text, const Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(ExprPtr parsed, ParseExpression(text));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, table::ToBatchFields(schema));
  TableFilter filter{.scope = Scope::ForSchema(BatchSchema(std::move(fields)))};
  FLOE_ASSIGN_OR_RETURN(filter.predicate, BindScalar(*parsed, filter.scope));
  const floe::DataType& type = *filter.predicate->type();
  if (type.kind() != floe::TypeKind::kBool && type.kind() != floe::TypeKind::kNull) {
    return std::unexpected(scalar::ErrorAt(
        *parsed, fmt::format("a filter must be BOOLEAN, not {}", scalar::SqlTypeName(type))));
  }
  return filter;
}

}  // namespace floe::sql
