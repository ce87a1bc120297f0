#pragma once

// Iceberg's HadoopCatalog layout on a FileIO: namespaces are folders under the warehouse, a table
// is the folder `<warehouse>/<ns levels>/<table>` holding `metadata/v<N>.metadata.json` and
// `metadata/version-hint.text`. Tables written this way by Iceberg Java, Spark, PyIceberg, DuckDB
// or ClickHouse (IcebergLocal) load here, and the tables floe writes load there.
//
// A commit writes the next version to a hidden temporary file and renames it to v<N+1> without
// replacing: of concurrent committers exactly one wins, across threads and processes; the others
// get kCommitFailed (retryable). On S3 the write is one PUT with If-None-Match: *, and a store
// that does not honour it is refused (kUnsupported) at the first commit rather than risk a lost
// commit (docs/s3.md). The version hint is then rewritten, best effort, since readers
// probe past it. As in Java: namespaces store no properties (LoadNamespaceProperties returns the
// folder as `location`; setting properties is kUnsupported, creating with properties is
// kInvalidArgument), tables cannot be renamed (kUnsupported) nor given a location or metadata
// path other than their folder (kInvalidArgument), and dropping a table deletes its folder
// (purge also deletes the files its metadata references elsewhere).
//
// kCommitStateUnknown is returned only when the new version was renamed into place but making
// that durable (fsync of the folder) failed. Failures after that (the version hint, deleting old
// metadata files) are not reported: the commit happened.

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

// A table folder in this layout, <warehouse>/<db>/<table>, as a catalog on its warehouse (uncached)
// and the table's identifier, as Flink's TableLoader.fromHadoopTable takes a table path.
// kInvalidArgument when the path has no two parent levels or names an unsafe identifier.
struct FolderTable {
  std::shared_ptr<Catalog> catalog;
  TableIdentifier ident;
};
Result<FolderTable> OpenTableFolder(const std::string& folder);

class HadoopCatalog : public Catalog {
 public:
  // Properties: `warehouse` (required; a path, file: URI or s3:// location). io defaults to the
  // FileIO for the warehouse's scheme, configured by the same properties (s3.*).
  static Result<std::shared_ptr<HadoopCatalog>> Make(std::string name, const StringMap& properties,
                                                     std::shared_ptr<io::FileIO> io = nullptr);

  const std::string& name() const override { return name_; }
  std::shared_ptr<io::FileIO> file_io() const override { return io_; }
  const std::string& warehouse() const { return warehouse_; }

  Status CreateNamespace(const Namespace& ns, const StringMap& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<StringMap> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                   const std::vector<std::string>& removals) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<bool> TableExists(const TableIdentifier& ident) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& ident,
                                  const CreateTableRequest& request) override;
  Result<LoadedTable> CommitTable(const TableIdentifier& ident, const TableCommit& commit) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropTable(const TableIdentifier& ident, bool purge) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& ident,
                                    const std::string& metadata_location) override;

 private:
  HadoopCatalog(std::string name, std::string warehouse, std::shared_ptr<io::FileIO> io);

  std::string NamespaceFolder(const Namespace& ns) const;
  std::string TableFolder(const TableIdentifier& ident) const;
  Result<bool> IsTableFolder(const std::string& folder);
  Result<bool> IsNamespaceFolder(const std::string& folder);
  // Writes v1 of a new table; kAlreadyExists when another writer made the table first.
  Result<LoadedTable> WriteFirstVersion(const TableIdentifier& ident, TableMetadataPtr metadata);
  // A create commit (AssertCreate) on a table that does not exist yet.
  Result<LoadedTable> CreateByCommit(const TableIdentifier& ident, const TableCommit& commit);

  std::string name_;
  std::string warehouse_;
  std::shared_ptr<io::FileIO> io_;
};

}  // namespace floe::catalog
