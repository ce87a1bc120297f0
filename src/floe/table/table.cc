#include "floe/table/table.h"

#include "floe/io/location.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/update/cherry_pick.h"
#include "floe/table/update/delete_files.h"
#include "floe/table/update/expire_snapshots.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/manage_snapshots.h"
#include "floe/table/update/merge_append.h"
#include "floe/table/update/overwrite_files.h"
#include "floe/table/update/replace_partitions.h"
#include "floe/table/update/rewrite_files.h"
#include "floe/table/update/rewrite_manifests.h"
#include "floe/table/update/row_delta.h"
#include "floe/table/update/transaction.h"
#include "floe/table/update/update_properties.h"
#include "floe/table/update/update_schema.h"
#include "floe/table/update/update_sort_order.h"
#include "floe/table/update/update_spec.h"

namespace floe::table {

Table::Table(std::shared_ptr<catalog::Catalog> catalog, catalog::LoadedTable loaded)
    : ident_(loaded.ident),
      catalog_(std::move(catalog)),
      io_(catalog_->file_io()),
      metadata_location_(std::move(loaded.metadata_location)),
      metadata_(std::move(loaded.metadata)) {}

Result<std::shared_ptr<Table>> Table::Load(std::shared_ptr<catalog::Catalog> catalog,
                                           const catalog::TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog->LoadTable(ident));
  return std::make_shared<Table>(std::move(catalog), std::move(loaded));
}

TableMetadataPtr Table::metadata() const {
  std::lock_guard lock(mutex_);
  return metadata_;
}

std::string Table::metadata_location() const {
  std::lock_guard lock(mutex_);
  return metadata_location_;
}

std::string Table::metadata_folder() const {
  TableMetadataPtr metadata = this->metadata();
  std::string_view path = metadata->property("write.metadata.path");
  if (!path.empty()) return io::NormalizeLocation(path);
  return io::JoinLocation(io::NormalizeLocation(metadata->location()), "metadata");
}

void Table::SetLoaded(catalog::LoadedTable loaded) {
  std::lock_guard lock(mutex_);
  metadata_location_ = std::move(loaded.metadata_location);
  metadata_ = std::move(loaded.metadata);
}

Status Table::Refresh() {
  catalog_->Invalidate(ident_);
  FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog_->LoadTable(ident_));
  SetLoaded(std::move(loaded));
  return Ok();
}

Result<TableMetadataPtr> Table::CommitUpdates(const catalog::TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog_->CommitTable(ident_, commit));
  TableMetadataPtr committed = loaded.metadata;
  SetLoaded(std::move(loaded));
  return committed;
}

TableScan Table::NewScan() const { return TableScan(metadata(), io_); }

std::unique_ptr<FastAppend> Table::NewFastAppend() { return std::make_unique<FastAppend>(*this); }
std::unique_ptr<MergeAppend> Table::NewMergeAppend() {
  return std::make_unique<MergeAppend>(*this);
}
std::unique_ptr<OverwriteFiles> Table::NewOverwrite() {
  return std::make_unique<OverwriteFiles>(*this);
}
std::unique_ptr<ReplacePartitions> Table::NewReplacePartitions() {
  return std::make_unique<ReplacePartitions>(*this);
}
std::unique_ptr<RowDelta> Table::NewRowDelta() { return std::make_unique<RowDelta>(*this); }
std::unique_ptr<RewriteFiles> Table::NewRewriteFiles() {
  return std::make_unique<RewriteFiles>(*this);
}
std::unique_ptr<RewriteManifests> Table::NewRewriteManifests() {
  return std::make_unique<RewriteManifests>(*this);
}
std::unique_ptr<DeleteFiles> Table::NewDeleteFiles() {
  return std::make_unique<DeleteFiles>(*this);
}
std::unique_ptr<CherryPick> Table::NewCherryPick() { return std::make_unique<CherryPick>(*this); }
std::unique_ptr<UpdateSchema> Table::NewUpdateSchema() {
  return std::make_unique<UpdateSchema>(*this);
}
std::unique_ptr<UpdateSpec> Table::NewUpdateSpec() { return std::make_unique<UpdateSpec>(*this); }
std::unique_ptr<ReplaceSortOrder> Table::NewReplaceSortOrder() {
  return std::make_unique<ReplaceSortOrder>(*this);
}
std::unique_ptr<UpdateProperties> Table::NewUpdateProperties() {
  return std::make_unique<UpdateProperties>(*this);
}
std::unique_ptr<ManageSnapshots> Table::NewManageSnapshots() {
  return std::make_unique<ManageSnapshots>(*this);
}
std::unique_ptr<ExpireSnapshots> Table::NewExpireSnapshots() {
  return std::make_unique<ExpireSnapshots>(*this);
}
std::unique_ptr<Transaction> Table::NewTransaction() {
  return std::make_unique<Transaction>(*this);
}

}  // namespace floe::table
