#pragma once

// The one interface every catalog implements (hadoop, sql, plugins, the cache in front of them).
//
// A catalog maps table identifiers to the location of their current metadata file and swaps that
// location atomically on commit. Implementations are thread-safe: many threads (and, where the
// backing store allows it, many processes) may commit to one table at once; exactly one of two
// conflicting commits wins and the other gets a retryable kCommitFailed.
//
// Errors: kNotFound for a missing namespace or table, kAlreadyExists, kInvalidArgument for unsafe
// identifiers or bad properties, kCommitFailed (retryable) when a requirement does not hold, and
// kCommitStateUnknown when the outcome of a commit cannot be known (the caller must then neither
// report failure nor clean up the files the commit references).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/identifier.h"
#include "floe/catalog/table_update.h"
#include "floe/spec/snapshot.h"
#include "floe/util/error.h"

namespace floe {
class Schema;
class PartitionSpec;
class SortOrder;
class TableMetadata;
}  // namespace floe
namespace floe::io {
class FileIO;
}

namespace floe::catalog {

// A table as loaded: where its current metadata lives and what it says.
struct LoadedTable {
  TableIdentifier ident;
  std::string metadata_location;
  TableMetadataPtr metadata;
};

// What create-table needs besides the identifier. Unset spec / order mean unpartitioned /
// unsorted; an empty location means the catalog's default location for the table. Field ids in
// schema, spec and order are reassigned as Iceberg does for a new table.
struct CreateTableRequest {
  SchemaPtr schema;
  PartitionSpecPtr spec;
  SortOrderPtr sort_order;
  std::string location;
  StringMap properties;  // `format-version` (default 2) is taken from here
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  // The name the catalog was created with (`CREATE CATALOG name`).
  virtual const std::string& name() const = 0;
  // The FileIO for the files of this catalog's tables.
  virtual std::shared_ptr<io::FileIO> file_io() const = 0;

  // --- namespaces
  virtual Status CreateNamespace(const Namespace& ns, const StringMap& properties) = 0;
  // Children of parent (empty parent: the top level).
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  virtual Result<StringMap> LoadNamespaceProperties(const Namespace& ns) = 0;
  virtual Status UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                           const std::vector<std::string>& removals) = 0;
  // kInvalidArgument (naming what is left) when the namespace still holds tables or namespaces.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  // --- tables
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  virtual Result<bool> TableExists(const TableIdentifier& ident) = 0;
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& ident) = 0;
  virtual Result<LoadedTable> CreateTable(const TableIdentifier& ident,
                                          const CreateTableRequest& request) = 0;
  // Checks the requirements against the current metadata, applies the updates, writes the new
  // metadata file and swaps it in atomically. Returns the table as committed.
  virtual Result<LoadedTable> CommitTable(const TableIdentifier& ident,
                                          const TableCommit& commit) = 0;
  // kUnsupported where the layout cannot rename (hadoop).
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  // Forgets the table; with purge also deletes every file its metadata references and the
  // metadata files. Returns kNotFound when the table does not exist.
  virtual Status DropTable(const TableIdentifier& ident, bool purge) = 0;
  // Adds an existing table by its metadata file. kAlreadyExists when the identifier is taken.
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& ident,
                                            const std::string& metadata_location) = 0;

  // Drops what the catalog caches about ident (no-op for catalogs without a cache).
  virtual void Invalidate(const TableIdentifier& ident) { (void)ident; }
};

// Creates a catalog from Flink-style properties: `catalog-type` = hadoop | sql | rest
// (rest/rest_catalog.h), or `catalog-impl` = path of a plugin shared library; `warehouse`, `uri`,
// `cache-enabled`, `cache.expiration-interval-ms`, and whatever else the implementation takes.
// `hive` gives kUnsupported ("not yet supported"); unknown types kInvalidArgument.
Result<std::shared_ptr<Catalog>> CreateCatalog(const std::string& name,
                                               const StringMap& properties);

}  // namespace floe::catalog
