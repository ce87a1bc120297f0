// The namespace half of SqlCatalog (see sql_catalog.h for how namespaces are stored).

#include <algorithm>
#include <set>

#include "floe/catalog/sql/sql_catalog_internal.h"

namespace floe::catalog {
namespace {

// Java's reserved property that keeps a namespace without other properties or tables alive.
constexpr std::string_view kExistsProperty = "exists";

std::vector<std::string> SplitLevels(std::string_view text) {
  std::vector<std::string> levels;
  size_t begin = 0;
  while (true) {
    size_t dot = text.find('.', begin);
    levels.emplace_back(text.substr(begin, dot - begin));
    if (dot == std::string_view::npos) return levels;
    begin = dot + 1;
  }
}

// Characters (not bytes) in UTF-8 text, as SQL's substr counts them.
int64_t CharacterCount(std::string_view text) {
  int64_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return count;
}

// A filter matching ns itself and every namespace below it, exactly (LIKE would treat '_' and
// '%' in names as wildcards, and SQLite's LIKE ignores case): column = ? OR substr(...) = ?.
std::string SelfOrBelow(std::string_view column) {
  return fmt::format("({0} = ? OR substr({0}, 1, ?) = ?)", column);
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

Status ValidateSqlNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(Validate(ns));
  for (const std::string& level : ns.levels) {
    if (level.find('.') != std::string::npos) {
      return InvalidArgument(
          "namespace level '{}' contains '.', which the sql catalog stores "
          "as the separator of levels",
          level);
    }
  }
  return {};
}

Status ValidateSqlIdentifier(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ident.ns));
  return ValidateIdentifierPart(ident.name, "table name");
}

Result<bool> SqlCatalog::NamespaceExistsOn(SqlConnection& conn, const Namespace& ns) {
  std::string key = ns.ToString();
  std::string prefix = key + '.';
  std::vector<SqlParam> params = {name_, key, CharacterCount(prefix), prefix};
  FLOE_ASSIGN_OR_RETURN(
      SqlResult tables,
      conn.Execute(fmt::format("SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND {} LIMIT 1",
                               SelfOrBelow("table_namespace")),
                   params));
  if (!tables.rows.empty()) return true;
  FLOE_ASSIGN_OR_RETURN(
      SqlResult properties,
      conn.Execute(fmt::format("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? "
                               "AND {} LIMIT 1",
                               SelfOrBelow("namespace")),
                   params));
  return !properties.rows.empty();
}

Result<std::vector<Namespace>> SqlCatalog::ListChildrenOn(SqlConnection& conn,
                                                          const Namespace& parent) {
  std::string filter;
  std::vector<SqlParam> params = {name_};
  if (!parent.empty()) {
    std::string prefix = parent.ToString() + '.';
    filter = " AND substr({0}, 1, ?) = ?";
    params.insert(params.end(), {CharacterCount(prefix), prefix});
  }
  std::vector<SqlParam> both = params;
  both.insert(both.end(), params.begin(), params.end());
  std::string sql = fmt::format(
      "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?{} UNION "
      "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?{}",
      fmt::format(fmt::runtime(filter), "table_namespace"),
      fmt::format(fmt::runtime(filter), "namespace"));
  FLOE_ASSIGN_OR_RETURN(SqlResult result, conn.Execute(sql, both));
  std::set<Namespace> children;
  for (const SqlRow& row : result.rows) {
    if (!row[0]) continue;
    std::vector<std::string> levels = SplitLevels(*row[0]);
    if (levels.size() <= parent.levels.size()) continue;
    if (!std::equal(parent.levels.begin(), parent.levels.end(), levels.begin())) continue;
    levels.resize(parent.levels.size() + 1);
    children.insert(Namespace{std::move(levels)});
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Status SqlCatalog::CreateNamespace(const Namespace& ns, const StringMap& properties) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  if (properties.contains(kExistsProperty)) {
    return InvalidArgument("namespace property '{}' is reserved by the sql catalog",
                           kExistsProperty);
  }
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(conn->Begin());
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, ns));
  if (exists) return AlreadyExists("namespace {} already exists", ns.ToString());
  StringMap rows = properties;
  rows.emplace(kExistsProperty, "true");
  for (const auto& [key, value] : rows) {
    auto inserted = conn->Execute(
        "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
        "property_value) VALUES (?, ?, ?, ?)",
        {name_, ns.ToString(), key, value});
    if (!inserted && inserted.error().kind() == ErrorKind::kAlreadyExists) {
      return AlreadyExists("namespace {} already exists", ns.ToString());
    }
    FLOE_RETURN_IF_ERROR(inserted);
  }
  return conn->Commit();
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(parent));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  if (!parent.empty()) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, parent));
    if (!exists) return NotFound("namespace {} does not exist", parent.ToString());
  }
  return ListChildrenOn(*conn, parent);
}

Result<bool> SqlCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  return NamespaceExistsOn(*conn, ns);
}

Result<StringMap> SqlCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, ns));
  if (!exists) return NotFound("namespace {} does not exist", ns.ToString());
  FLOE_ASSIGN_OR_RETURN(SqlResult result,
                        conn->Execute("SELECT property_key, property_value FROM "
                                      "iceberg_namespace_properties WHERE catalog_name = ? AND "
                                      "namespace = ?",
                                      {name_, ns.ToString()}));
  StringMap properties;
  for (const SqlRow& row : result.rows) {
    if (!row[0] || *row[0] == kExistsProperty) continue;
    properties[*row[0]] = row[1].value_or("");
  }
  // As Java: a namespace without its own location reports where its tables go by default.
  if (!properties.contains("location") && !warehouse_.empty()) {
    std::string location = warehouse_;
    for (const std::string& level : ns.levels) location += '/' + level;
    properties["location"] = std::move(location);
  }
  return properties;
}

Status SqlCatalog::UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                             const std::vector<std::string>& removals) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  for (const std::string& key : removals) {
    if (updates.contains(key)) {
      return InvalidArgument("namespace property '{}' is both set and removed", key);
    }
  }
  if (updates.contains(kExistsProperty) ||
      std::ranges::find(removals, kExistsProperty) != removals.end()) {
    return InvalidArgument("namespace property '{}' is reserved by the sql catalog",
                           kExistsProperty);
  }
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(conn->Begin());
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, ns));
  if (!exists) return NotFound("namespace {} does not exist", ns.ToString());
  std::string key = ns.ToString();
  for (const auto& [property, value] : updates) {
    FLOE_ASSIGN_OR_RETURN(SqlResult updated,
                          conn->Execute("UPDATE iceberg_namespace_properties SET property_value "
                                        "= ? WHERE catalog_name = ? AND namespace = ? AND "
                                        "property_key = ?",
                                        {value, name_, key, property}));
    if (updated.rows_changed == 0) {
      FLOE_RETURN_IF_ERROR(conn->Execute(
          "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
          "property_value) VALUES (?, ?, ?, ?)",
          {name_, key, property, value}));
    }
  }
  for (const std::string& property : removals) {
    FLOE_RETURN_IF_ERROR(conn->Execute(
        "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ? AND "
        "property_key = ?",
        {name_, key, property}));
  }
  return conn->Commit();
}

Status SqlCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(conn->Begin());
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, ns));
  if (!exists) return NotFound("namespace {} does not exist", ns.ToString());
  FLOE_ASSIGN_OR_RETURN(std::vector<Namespace> children, ListChildrenOn(*conn, ns));
  if (!children.empty()) {
    std::vector<std::string> names;
    for (const Namespace& child : children) names.push_back(child.ToString());
    return InvalidArgument("namespace {} is not empty: it holds namespaces {}", ns.ToString(),
                           JoinNames(names));
  }
  FLOE_ASSIGN_OR_RETURN(SqlResult entries,
                        conn->Execute("SELECT table_name FROM iceberg_tables WHERE catalog_name "
                                      "= ? AND table_namespace = ? ORDER BY table_name",
                                      {name_, ns.ToString()}));
  if (!entries.rows.empty()) {
    std::vector<std::string> names;
    for (const SqlRow& row : entries.rows) names.push_back(row[0].value_or(""));
    return InvalidArgument("namespace {} is not empty: it holds tables or views {}", ns.ToString(),
                           JoinNames(names));
  }
  FLOE_RETURN_IF_ERROR(conn->Execute(
      "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
      {name_, ns.ToString()}));
  return conn->Commit();
}

}  // namespace floe::catalog
