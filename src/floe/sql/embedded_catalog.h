#pragma once

// Where the embedded catalog `floe` of a session keeps itself: one folder, the warehouse, holds
// the tables and the catalog's SQLite file (`<warehouse>/catalog.db`), so that removing the folder
// removes the catalog with it. The warehouse is made absolute here, once.
//
// Folders made by floe before this layout kept the SQLite file beside the warehouse
// (`<warehouse>.catalog.db`): such a file is moved into the folder when the folder has none, and
// a note says so. Errors: the folder cannot be made, or the old file cannot be moved.

#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/snapshot.h"
#include "floe/util/error.h"

namespace floe::sql {

// The SQLite file's name inside the warehouse folder.
inline constexpr std::string_view kEmbeddedCatalogFile = "catalog.db";

struct EmbeddedCatalogPlace {
  StringMap properties;            // the catalog's properties: type, catalog-type, warehouse, uri
  std::vector<std::string> notes;  // what was done to an older layout, for the user
};

// Makes the warehouse folder when it is missing and returns the catalog's properties.
Result<EmbeddedCatalogPlace> PrepareEmbeddedCatalog(const std::string& warehouse);

}  // namespace floe::sql
