#include "floe/cli/table_ref.h"

#include "floe/catalog/hadoop/hadoop_catalog.h"

namespace floe::cli {

Result<StringMap> ParseKeyValues(const std::vector<std::string>& options, std::string_view flag) {
  StringMap map;
  for (const std::string& option : options) {
    size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgument("{} wants KEY=VALUE, got '{}'", flag, option);
    }
    map.insert_or_assign(option.substr(0, eq), option.substr(eq + 1));
  }
  return map;
}

Result<TableRef> ResolveTableRef(const std::string& table,
                                 const std::vector<std::string>& catalog_properties) {
  TableRef ref;
  if (!catalog_properties.empty()) {
    FLOE_ASSIGN_OR_RETURN(StringMap properties, ParseKeyValues(catalog_properties, "--catalog"));
    size_t dot = table.find('.');
    if (dot == std::string::npos) {
      return InvalidArgument("'{}' names no table: with --catalog, write catalog.db.table", table);
    }
    FLOE_ASSIGN_OR_RETURN(ref.ident, catalog::TableIdentifier::Parse(table.substr(dot + 1)));
    FLOE_ASSIGN_OR_RETURN(ref.catalog, catalog::CreateCatalog(table.substr(0, dot), properties));
    return ref;
  }
  FLOE_ASSIGN_OR_RETURN(catalog::FolderTable folder, catalog::OpenTableFolder(table));
  ref.catalog = std::move(folder.catalog);
  ref.ident = std::move(folder.ident);
  return ref;
}

}  // namespace floe::cli
