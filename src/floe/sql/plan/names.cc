#include <set>

#include "floe/sql/plan/names_internal.h"

namespace floe::sql::plan {

std::string DefaultColumnName(const Expr& expr, const std::optional<std::string>& alias,
                              int position) {
  if (alias) return *alias;
  if (expr.kind == ExprKind::kColumn && !expr.name.empty()) return expr.name.back();
  return "EXPR$" + std::to_string(position);
}

std::vector<std::string> UniqueNames(std::vector<std::string> names) {
  std::set<std::string> used;
  for (std::string& name : names) {
    if (used.insert(name).second) continue;
    for (int suffix = 0;; ++suffix) {
      std::string candidate = name + std::to_string(suffix);
      if (used.insert(candidate).second) {
        name = std::move(candidate);
        break;
      }
    }
  }
  return names;
}

}  // namespace floe::sql::plan
