#pragma once

// FROM items: Iceberg tables of the session's catalogs (with their OPTIONS hints as read options,
// projection and filter push-down), metadata tables (`t$snapshots`...), default_catalog's
// connector tables (datagen, filesystem, kafka, iceberg), subqueries and joins.
//
// Errors: unknown tables (kNotFound naming them), hints while table.dynamic-table-options.enabled
// is false, unknown or malformed read options, connectors floe has no source for.

#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

// `use` is what the enclosing query block reads (projection push-down); `where` its WHERE, whose
// Iceberg-expressible part is pushed into a single table's scan. The caller still applies the
// whole WHERE: push-down only saves reading.
Result<Relation> PlanFrom(PlannerContext& context, const TableRef& ref, const ColumnUse& use,
                          const Expr* where);

// Columns of a stream's schema under one qualifier (field ids kept).
std::vector<ScopeColumn> ColumnsOf(const BatchSchema& schema, const std::string& qualifier);

}  // namespace floe::sql::plan
