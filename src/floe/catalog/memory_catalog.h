#pragma once

// A catalog that keeps its namespaces and table pointers in memory, while the tables' metadata
// files are real files written through a FileIO (local or in-memory). For tests, for the SQL
// client's built-in `default_catalog`, and as the simplest complete Catalog. Thread-safe: one
// mutex guards the pointers; the metadata file of a commit is written outside it and swapped in
// only if the table still points at the commit's base.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/catalog/pointer_commit.h"

namespace floe::catalog {

class MemoryCatalog final : public Catalog {
 public:
  // Tables created without a location go to <warehouse>/<ns levels>/<table>.
  MemoryCatalog(std::string name, std::shared_ptr<io::FileIO> io, std::string warehouse);

  const std::string& name() const override { return name_; }
  std::shared_ptr<io::FileIO> file_io() const override { return io_; }

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
  struct Entry {
    std::string metadata_location;
    TableMetadataPtr metadata;
  };

  Status CheckNamespaceLocked(const Namespace& ns) const;
  // Adds ident's pointer, for create-table and create commits.
  SwapMetadataLocation AddTable(const TableIdentifier& ident);

  const std::string name_;
  const std::shared_ptr<io::FileIO> io_;
  const std::string warehouse_;
  mutable std::mutex mutex_;
  std::map<Namespace, StringMap> namespaces_;
  std::map<TableIdentifier, Entry> tables_;
};

}  // namespace floe::catalog
