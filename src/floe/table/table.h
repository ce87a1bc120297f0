#pragma once

// A table as a program holds it: its identifier, the catalog it lives in, the metadata last loaded
// or committed, and the FileIO for its files. Every read starts here (NewScan) and so does every
// change (NewFastAppend, NewRowDelta, NewExpireSnapshots...), which commits through the catalog;
// the catalog checks the change's requirements and swaps the metadata atomically.
//
//   FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, Table::Load(catalog, ident));
//   TableScan scan = table->NewScan();  // floe/table/scan/table_scan.h
//   scan.Filter(expr::GreaterThan("id", Literal::Long(5))).Select({"id", "data"});
//   FLOE_ASSIGN_OR_RETURN(std::vector<CombinedScanTask> tasks, scan.PlanTasks());
//   TaskReader reader(table->io(), *scan.schema(), *scan.ProjectedSchema());  // task_reader.h
//
// Thread-safe: many threads may share one Table and commit through it at once (and several Table
// objects, in one process or many, may commit to one table); each commit that loses a race
// refreshes and re-applies its change. metadata() is a snapshot in time: take it once per use.
//
// Errors: those of the catalog (kNotFound, kCommitFailed, kCommitStateUnknown) and of the change.

#include <memory>
#include <mutex>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/io/file_io.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::table {

class FastAppend;
class MergeAppend;
class OverwriteFiles;
class ReplacePartitions;
class RowDelta;
class RewriteFiles;
class RewriteManifests;
class DeleteFiles;
class CherryPick;
class UpdateSchema;
class UpdateSpec;
class ReplaceSortOrder;
class UpdateProperties;
class ManageSnapshots;
class ExpireSnapshots;
class Transaction;
class TableScan;

class Table {
 public:
  Table(std::shared_ptr<catalog::Catalog> catalog, catalog::LoadedTable loaded);
  static Result<std::shared_ptr<Table>> Load(std::shared_ptr<catalog::Catalog> catalog,
                                             const catalog::TableIdentifier& ident);

  const catalog::TableIdentifier& ident() const { return ident_; }
  catalog::Catalog& catalog() const { return *catalog_; }
  const std::shared_ptr<io::FileIO>& io() const { return io_; }
  TableMetadataPtr metadata() const;
  std::string metadata_location() const;
  // Where new manifests and manifest lists go: `write.metadata.path`, else <location>/metadata.
  std::string metadata_folder() const;

  // Reloads the metadata from the catalog.
  Status Refresh();

  // Commits through the catalog and, on success, makes the committed metadata current. The
  // transactions call this; use the factories below to make changes.
  Result<TableMetadataPtr> CommitUpdates(const catalog::TableCommit& commit);

  // A scan of the metadata as it is now (a later Refresh or commit does not change it); the
  // scan's setters choose another snapshot, a filter and columns.
  TableScan NewScan() const;

  std::unique_ptr<FastAppend> NewFastAppend();
  std::unique_ptr<MergeAppend> NewMergeAppend();
  std::unique_ptr<OverwriteFiles> NewOverwrite();
  std::unique_ptr<ReplacePartitions> NewReplacePartitions();
  std::unique_ptr<RowDelta> NewRowDelta();
  std::unique_ptr<RewriteFiles> NewRewriteFiles();
  std::unique_ptr<RewriteManifests> NewRewriteManifests();
  std::unique_ptr<DeleteFiles> NewDeleteFiles();
  std::unique_ptr<CherryPick> NewCherryPick();
  std::unique_ptr<UpdateSchema> NewUpdateSchema();
  std::unique_ptr<UpdateSpec> NewUpdateSpec();
  std::unique_ptr<ReplaceSortOrder> NewReplaceSortOrder();
  std::unique_ptr<UpdateProperties> NewUpdateProperties();
  std::unique_ptr<ManageSnapshots> NewManageSnapshots();
  std::unique_ptr<ExpireSnapshots> NewExpireSnapshots();
  std::unique_ptr<Transaction> NewTransaction();

 private:
  void SetLoaded(catalog::LoadedTable loaded);

  catalog::TableIdentifier ident_;
  std::shared_ptr<catalog::Catalog> catalog_;
  std::shared_ptr<io::FileIO> io_;
  mutable std::mutex mutex_;
  std::string metadata_location_;
  TableMetadataPtr metadata_;
};

}  // namespace floe::table
