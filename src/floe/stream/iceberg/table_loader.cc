#include "floe/stream/iceberg/table_loader.h"

#include <fmt/format.h>

#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/table/table.h"

namespace floe::stream {

TableLoader TableLoader::FromCatalog(std::string catalog_name, StringMap catalog_properties,
                                     catalog::TableIdentifier ident) {
  TableLoader loader;
  loader.catalog_name_ = std::move(catalog_name);
  loader.catalog_properties_ = std::move(catalog_properties);
  loader.ident_ = std::move(ident);
  return loader;
}

TableLoader TableLoader::FromFolder(std::string table_folder) {
  TableLoader loader;
  loader.folder_ = std::move(table_folder);
  return loader;
}

TableLoader& TableLoader::ShareCatalog(std::shared_ptr<catalog::Catalog> catalog) {
  shared_ = std::move(catalog);
  return *this;
}

Result<std::shared_ptr<catalog::Catalog>> TableLoader::LoadCatalog() const {
  if (shared_ != nullptr) return shared_;
  if (!folder_.empty()) {
    FLOE_ASSIGN_OR_RETURN(catalog::FolderTable table, catalog::OpenTableFolder(folder_));
    return std::move(table.catalog);
  }
  return catalog::CreateCatalog(catalog_name_, catalog_properties_);
}

Result<std::shared_ptr<table::Table>> TableLoader::Load() const {
  if (!folder_.empty() && shared_ == nullptr) {
    FLOE_ASSIGN_OR_RETURN(catalog::FolderTable table, catalog::OpenTableFolder(folder_));
    return table::Table::Load(std::move(table.catalog), table.ident);
  }
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Catalog> catalog, LoadCatalog());
  return table::Table::Load(std::move(catalog), ident_);
}

std::string TableLoader::ToString() const {
  if (!folder_.empty()) return folder_;
  return fmt::format("{}.{}", catalog_name_, ident_.ToString());
}

}  // namespace floe::stream
