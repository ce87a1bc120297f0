#pragma once

// How a job's sources and sinks find their table, again after every restart (Flink's TableLoader):
// through a catalog made from its properties (hadoop, sql, custom), or from a table folder in the
// hadoop layout. A loader is a small copyable value; each Load makes its own catalog (unless the
// loader shares one, see ShareCatalog).

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::table {
class Table;
}

namespace floe::stream {

class TableLoader {
 public:
  static TableLoader FromCatalog(std::string catalog_name, StringMap catalog_properties,
                                 catalog::TableIdentifier ident);
  static TableLoader FromFolder(std::string table_folder);

  // Load and LoadCatalog use `catalog` (thread-safe, as every catalog is) instead of making a new
  // instance from the properties: for a catalog that keeps its tables in the process, such as a
  // plugin's in-memory metastore, which a second instance would not see. Such a loader holds only
  // within the process that made it.
  TableLoader& ShareCatalog(std::shared_ptr<catalog::Catalog> catalog);

  // kNotFound when the table does not exist, or the catalog's errors.
  Result<std::shared_ptr<table::Table>> Load() const;
  // The catalog alone, e.g. to create the table first.
  Result<std::shared_ptr<catalog::Catalog>> LoadCatalog() const;
  // "catalog.db.table" or the folder: for messages and default sink ids.
  std::string ToString() const;

 private:
  TableLoader() = default;

  std::string catalog_name_;
  StringMap catalog_properties_;
  catalog::TableIdentifier ident_;
  std::string folder_;                        // set for FromFolder
  std::shared_ptr<catalog::Catalog> shared_;  // set by ShareCatalog
};

}  // namespace floe::stream
