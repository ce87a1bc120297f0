#include <fmt/core.h>

#include "floe/sql/scalar/scalar_expr.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

std::string Written(const std::vector<std::string>& name) {
  std::string out;
  for (const std::string& part : name) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

}  // namespace

Result<int> Scope::Find(const std::vector<std::string>& name, Position position) const {
  if (name.empty() || name.size() > 2) {
    return InvalidArgument(
        "{}", AtPosition(position, fmt::format("'{}' is not a column name", Written(name))));
  }
  const std::string& column = name.back();
  const std::string* qualifier = name.size() == 2 ? &name[0] : nullptr;
  // Exact matches first; a case-insensitive one only when it is the only candidate.
  for (bool exact : {true, false}) {
    int found = -1;
    int count = 0;
    for (int i = 0; i < static_cast<int>(columns_.size()); ++i) {
      const ScopeColumn& c = columns_[i];
      const bool name_matches = exact ? c.name == column : EqualsIgnoreCase(c.name, column);
      const bool qualifier_matches =
          !qualifier ||
          (exact ? c.qualifier == *qualifier : EqualsIgnoreCase(c.qualifier, *qualifier));
      if (name_matches && qualifier_matches) {
        if (found < 0) found = i;
        ++count;
      }
    }
    if (count == 1) return found;
    if (count > 1) {
      return InvalidArgument(
          "{}", AtPosition(position, fmt::format("column '{}' is ambiguous", Written(name))));
    }
  }
  return InvalidArgument(
      "{}", AtPosition(position, fmt::format("column '{}' not found in any table", Written(name))));
}

Scope Scope::ForSchema(const BatchSchema& schema, std::string qualifier) {
  std::vector<ScopeColumn> columns;
  columns.reserve(schema.num_fields());
  for (const Field& field : schema.fields()) {
    columns.push_back({qualifier, field.name, field.type, field.nullable, field.field_id});
  }
  return Scope(std::move(columns));
}

}  // namespace floe::sql
