#pragma once

// The SqlCatalog class behind CreateSqlCatalog (sql_catalog.h), shared by its source files:
// tables in sql_catalog.cc, namespaces in sql_namespaces.cc, multi-table commits in
// sql_transaction.cc.

#include <memory>
#include <optional>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/catalog/multi_table_commit.h"
#include "floe/catalog/sql/connection_pool_internal.h"
#include "floe/catalog/sql/sql_database_internal.h"
#include "floe/util/lru_cache.h"

namespace floe::catalog {

class SqlCatalog final : public Catalog, public MultiTableCommitter {
 public:
  SqlCatalog(std::string name, std::string warehouse, SqlDatabase db,
             std::shared_ptr<io::FileIO> fileio, bool has_type_column);

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
  // Every new metadata file is written first; then all pointers are swapped (or inserted, for
  // create commits) in one database transaction, so that all changes land or none does.
  Result<std::vector<LoadedTable>> CommitTables(std::span<const TableChange> changes) override;

 private:
  // " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", or "" on a V0 database.
  std::string_view TableFilter() const;
  Result<bool> NamespaceExistsOn(SqlConnection& conn, const Namespace& ns);
  Result<std::vector<Namespace>> ListChildrenOn(SqlConnection& conn, const Namespace& parent);
  Result<std::vector<TableIdentifier>> ListTablesOn(SqlConnection& conn, const Namespace& ns);
  // The table's metadata_location; nullopt when there is no such table.
  Result<std::optional<std::string>> MetadataLocationOn(SqlConnection& conn,
                                                        const TableIdentifier& ident);
  // The table as its metadata file at location says, parsed once: a metadata file is never
  // changed after it is written, so the parse is remembered by location (for the last
  // kMetadataCacheSize files read or committed here).
  Result<LoadedTable> Load(const TableIdentifier& ident, const std::string& location);
  // Remembers what this catalog just committed (or created) for the next Load.
  Result<LoadedTable> Remember(Result<LoadedTable> committed);
  // Inserts the table's row pointing at location: kAlreadyExists when the identifier is taken,
  // kCommitStateUnknown when the connection was lost after the insert was sent.
  Status InsertRow(const TableIdentifier& ident, const std::string& location);
  Status InsertRowOn(SqlConnection& conn, const TableIdentifier& ident,
                     const std::string& location);
  // The compare-and-swap of the table's row from base_location to location (rows_changed 1 when
  // it held).
  Result<SqlResult> SwapRowOn(SqlConnection& conn, const TableIdentifier& ident,
                              const std::string& base_location, const std::string& location);

  std::string name_;
  std::string warehouse_;
  std::shared_ptr<io::FileIO> io_;
  bool has_type_column_;
  SqlConnectionPool pool_;
  static constexpr size_t kMetadataCacheSize = 32;
  LruCache<std::string, TableMetadata> metadata_cache_{kMetadataCacheSize};
};

// kInvalidArgument unless every level is a safe name without '.'.
Status ValidateSqlNamespace(const Namespace& ns);
Status ValidateSqlIdentifier(const TableIdentifier& ident);

}  // namespace floe::catalog
