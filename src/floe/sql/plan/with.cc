#include "floe/sql/plan/with_internal.h"

#include <algorithm>
#include <string>
#include <utility>

#include "floe/sql/plan/select_internal.h"

namespace floe::sql::plan {

WithQueries::WithQueries(PlannerContext& context, const std::vector<CommonTableExpr>& with)
    : context_(context), size_(context.with_queries().size()) {
  for (const CommonTableExpr& query : with) context_.with_queries().push_back(&query);
}

WithQueries::~WithQueries() { context_.with_queries().resize(size_); }

const CommonTableExpr* FindWithQuery(PlannerContext& context, const ObjectName& name) {
  if (name.parts.size() != 1) return nullptr;
  const std::vector<const CommonTableExpr*>& scope = context.with_queries();
  for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
    if ((*it)->name == name.parts[0]) return *it;
  }
  return nullptr;
}

Result<Relation> PlanWithQuery(PlannerContext& context, const CommonTableExpr& query,
                               const TableRef& ref) {
  if (!ref.hints.empty()) {
    return InvalidArgument("OPTIONS hint on {}: it is a WITH query, not a table", query.name);
  }
  // The query sees the WITH queries before it, not itself or later ones.
  std::vector<const CommonTableExpr*> saved = context.with_queries();
  auto self = std::find(saved.begin(), saved.end(), &query);
  context.with_queries().assign(saved.begin(), self);
  Result<Relation> planned = PlanQueryNode(context, *query.query);
  context.with_queries() = std::move(saved);
  FLOE_ASSIGN_OR_RETURN(Relation relation, std::move(planned));
  if (!query.columns.empty() && query.columns.size() != relation.columns.size()) {
    return InvalidArgument("WITH query {} names {} columns but its query has {}", query.name,
                           query.columns.size(), relation.columns.size());
  }
  std::string qualifier = ref.alias.value_or(query.name);
  for (size_t i = 0; i < relation.columns.size(); ++i) {
    ScopeColumn& column = relation.columns[i];
    if (!query.columns.empty()) column.name = query.columns[i];
    column.qualifier = qualifier;
    column.field_id.reset();
  }
  return relation;
}

}  // namespace floe::sql::plan
