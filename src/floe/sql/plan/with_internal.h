#pragma once

// Named queries: WITH queries and views. A FROM item whose one-part name is a WITH query in scope
// plans that query where it stands, once per reference, as Flink inlines them; the query sees only
// the WITH queries before it (no recursion), and an inner WITH hides an outer query of the same
// name. Names match exactly.
//
// A view is planned alike where a FROM item names it, without the WITH queries around that item
// (its names were resolved where it was made), under its own column names.
//
// Errors: a column list of another width than the query's columns, an OPTIONS hint on one, a view
// whose query reaches itself (a view dropped and made again over one that used it).

#include <cstddef>
#include <vector>

#include "floe/sql/plan/planner_context_internal.h"

namespace floe::sql::plan {

// Puts `with` in scope while it lives: made by the planning of the query that carries it.
class WithQueries {
 public:
  WithQueries(PlannerContext& context, const std::vector<CommonTableExpr>& with);
  ~WithQueries();
  WithQueries(const WithQueries&) = delete;
  WithQueries& operator=(const WithQueries&) = delete;

 private:
  PlannerContext& context_;
  std::size_t size_;
};

// The innermost WITH query in scope that `name` names, or null.
const CommonTableExpr* FindWithQuery(PlannerContext& context, const ObjectName& name);

// `query`'s rows for the FROM item `ref` that names it, qualified by ref's alias or the name.
Result<Relation> PlanWithQuery(PlannerContext& context, const CommonTableExpr& query,
                               const TableRef& ref);

// `view`'s rows for the FROM item `ref`, qualified by ref's alias or the view's name.
Result<Relation> PlanView(PlannerContext& context, const SessionView& view,
                          const ResolvedName& name, const TableRef& ref);

}  // namespace floe::sql::plan
