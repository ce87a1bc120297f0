#pragma once

// Small operations on parsed expressions that the planner needs before binding: copies with
// subtrees replaced (aggregate calls and GROUP BY expressions become column references), the
// conjuncts of a predicate, and the column names a query block mentions (for projection
// push-down).

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "floe/sql/syntax/ast.h"

namespace floe::sql::plan {

// A deep copy of `expr`; where `replace` returns a node, that node is used instead of the subtree.
ExprPtr RewriteExpr(const Expr& expr, const std::function<ExprPtr(const Expr&)>& replace);
ExprPtr CloneExpr(const Expr& expr);
// A column reference `name` at `position`.
ExprPtr ColumnRef(std::string name, Position position);

// `a AND b AND c` -> {a, b, c}.
void SplitConjuncts(const Expr& expr, std::vector<const Expr*>& out);
// The conjuncts and-ed together again (copies); null when empty.
ExprPtr AndAll(const std::vector<const Expr*>& conjuncts);

// Which columns of a FROM item a query block may read: the last part of every column name it
// writes, and whether it selects `*` (or `q.*` for a qualifier) so that every column is needed.
struct ColumnUse {
  std::set<std::string> names;  // lower case: names resolve case-insensitively as a fallback
  bool all = false;
  std::set<std::string> star_qualifiers;
  bool Needs(const std::string& qualifier, const std::string& column) const;
};
void CollectColumnUse(const Expr& expr, ColumnUse& use);
ColumnUse QueryBlockColumnUse(const Query& query);

}  // namespace floe::sql::plan
