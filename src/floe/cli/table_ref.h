#pragma once

// How commands name a table in a catalog: `name.db.table` with the catalog's properties given as
// --catalog k=v options (`catalog-type`=hadoop|sql, `warehouse`, `uri`, ...), or, without
// properties, a table folder in the hadoop catalog's layout <warehouse>/<db>/<table>.

#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"

namespace floe::cli {

struct TableRef {
  std::shared_ptr<catalog::Catalog> catalog;
  catalog::TableIdentifier ident;
};

// kInvalidArgument for a property without '=', or a name without catalog, namespace and table.
Result<TableRef> ResolveTableRef(const std::string& table,
                                 const std::vector<std::string>& catalog_properties);

// "k=v" options as a map; kInvalidArgument naming the option when one has no '='.
Result<StringMap> ParseKeyValues(const std::vector<std::string>& options, std::string_view flag);

}  // namespace floe::cli
