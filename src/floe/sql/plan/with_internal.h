#pragma once

// WITH queries. A FROM item whose one-part name is a WITH query in scope plans that query where it
// stands, once per reference, as Flink inlines them; the query sees only the WITH queries before
// it (no recursion), and an inner WITH hides an outer query of the same name. Names match exactly.
//
// Errors: a column list of another width than the query's columns, an OPTIONS hint on one.

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

}  // namespace floe::sql::plan
