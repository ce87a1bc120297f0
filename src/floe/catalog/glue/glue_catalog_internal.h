#pragma once

// The GlueCatalog class behind CreateGlueCatalog (glue_catalog.h), shared by its source files:
// namespaces in glue_catalog.cc, tables in glue_tables.cc.

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/catalog/glue/glue_operations_internal.h"

namespace floe::catalog::glue {

class GlueCatalog final : public Catalog {
 public:
  GlueCatalog(std::string name, std::string warehouse, bool skip_archive,
              std::unique_ptr<GlueClient> client, std::shared_ptr<io::FileIO> io);

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
  // The database of ns; kNotFound when Glue has none.
  Result<GlueDatabase> Database(const Namespace& ns);
  // The Glue table of ident, which must be an Iceberg table: kNotFound otherwise.
  Result<GlueTable> IcebergTable(const TableIdentifier& ident);
  Result<TableMetadataPtr> ReadMetadata(const TableIdentifier& ident, const std::string& location);
  // Where a new table of database goes when its request names no location.
  Result<std::string> DefaultLocation(const GlueDatabase& database, const TableIdentifier& ident);
  // CreateTable in Glue for a new table whose first metadata file is at location.
  Status AddTable(const TableIdentifier& ident, const std::string& location,
                  const TableMetadata& metadata);
  // The UpdateTable of a commit, from base (the Glue table read at load) to location.
  Status Swap(const TableIdentifier& ident, const GlueTable& base, const std::string& location,
              const TableMetadata& metadata);

  std::string name_;
  std::string warehouse_;
  bool skip_archive_;
  std::unique_ptr<GlueClient> client_;
  std::shared_ptr<io::FileIO> io_;
};

// kInvalidArgument unless ns has one level that Glue takes as a database name.
Result<std::string> DatabaseName(const Namespace& ns);
// kInvalidArgument unless ident's namespace and name are names Glue takes.
Status ValidateGlueIdentifier(const TableIdentifier& ident);
// Whether a Glue table's parameters say it is an Iceberg table (table_type, in any case).
bool IsIcebergTable(const StringMap& parameters);

}  // namespace floe::catalog::glue
