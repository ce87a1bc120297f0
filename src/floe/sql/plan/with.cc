#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include "floe/sql/plan/select_internal.h"
#include "floe/sql/plan/with_internal.h"
#include "floe/sql/syntax/printer.h"

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

namespace {

// `cat`.`db`.`v`, as Flink names a view in its messages.
std::string QuotedName(const ResolvedName& name) {
  std::string out = QuoteIdentifier(name.catalog);
  for (const std::string& level : name.ns.levels) {
    fmt::format_to(std::back_inserter(out), ".{}", QuoteIdentifier(level));
  }
  fmt::format_to(std::back_inserter(out), ".{}", QuoteIdentifier(name.table));
  return out;
}

}  // namespace

Result<Relation> PlanView(PlannerContext& context, const SessionView& view,
                          const ResolvedName& name, const TableRef& ref) {
  if (!ref.hints.empty()) {
    return InvalidArgument(
        "View '{}' cannot be enriched with new options. Hints can only be applied to tables.",
        QuotedName(name));
  }
  std::vector<const SessionView*>& in_progress = context.views_in_progress();
  if (std::find(in_progress.begin(), in_progress.end(), &view) != in_progress.end()) {
    return InvalidArgument("view {} refers to itself through its query", name.ToString());
  }
  std::vector<const CommonTableExpr*> saved = std::move(context.with_queries());
  context.with_queries().clear();
  in_progress.push_back(&view);
  Result<Relation> planned = PlanQueryNode(context, *view.query);
  in_progress.pop_back();
  context.with_queries() = std::move(saved);
  FLOE_ASSIGN_OR_RETURN(Relation relation, std::move(planned));
  if (relation.columns.size() != view.columns.size()) {
    return InvalidArgument("view {} has {} columns but its query now gives {}", name.ToString(),
                           view.columns.size(), relation.columns.size());
  }
  std::string qualifier = ref.alias.value_or(name.table);
  for (size_t i = 0; i < relation.columns.size(); ++i) {
    relation.columns[i].name = view.columns[i];
    relation.columns[i].qualifier = qualifier;
    relation.columns[i].field_id.reset();
  }
  return relation;
}

}  // namespace floe::sql::plan
