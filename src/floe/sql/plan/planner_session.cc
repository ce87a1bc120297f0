#include "floe/sql/plan/planner_session.h"

namespace floe::sql {

std::string ResolvedName::ToString() const {
  std::string text = catalog;
  for (const auto& level : ns.levels) text += "." + level;
  if (!table.empty()) text += "." + table;
  if (!metadata.empty()) text += "$" + metadata;
  return text;
}

}  // namespace floe::sql
