#include "floe/catalog/sql/sql_catalog.h"

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/pointer_commit.h"
#include "floe/catalog/purge.h"
#include "floe/catalog/sql/jdbc_schema_internal.h"
#include "floe/catalog/sql/sql_catalog_internal.h"
#include "floe/io/location.h"
#include "floe/io/resolving_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/util/clock.h"

namespace floe::catalog {

SqlCatalog::SqlCatalog(std::string name, std::string warehouse, SqlDatabase db,
                       std::shared_ptr<io::FileIO> fileio, bool has_type_column)
    : name_(std::move(name)),
      warehouse_(std::move(warehouse)),
      io_(std::move(fileio)),
      has_type_column_(has_type_column),
      pool_([db = std::move(db)] { return db.Connect(); }) {}

std::string_view SqlCatalog::TableFilter() const {
  return has_type_column_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

Result<std::optional<std::string>> SqlCatalog::MetadataLocationOn(SqlConnection& conn,
                                                                  const TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(
      SqlResult result,
      conn.Execute(fmt::format("SELECT metadata_location FROM iceberg_tables WHERE catalog_name "
                               "= ? AND table_namespace = ? AND table_name = ?{}",
                               TableFilter()),
                   {name_, ident.ns.ToString(), ident.name}));
  if (result.rows.empty()) return std::nullopt;
  if (!result.rows[0][0] || result.rows[0][0]->empty()) {
    return CorruptData("table {} in catalog {} has no metadata_location", ident.ToString(), name_);
  }
  return *result.rows[0][0];
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListTablesOn(SqlConnection& conn,
                                                              const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(
      SqlResult result,
      conn.Execute(fmt::format("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                               "table_namespace = ?{} ORDER BY table_name",
                               TableFilter()),
                   {name_, ns.ToString()}));
  std::vector<TableIdentifier> tables;
  for (const SqlRow& row : result.rows) {
    if (row[0]) tables.push_back(TableIdentifier{ns, *row[0]});
  }
  return tables;
}

Result<LoadedTable> SqlCatalog::Load(const TableIdentifier& ident, const std::string& location) {
  if (TableMetadataPtr cached = metadata_cache_.Get(location)) {
    return LoadedTable{ident, location, std::move(cached)};
  }
  auto metadata = ReadTableMetadata(*io_, location);
  if (!metadata) {
    return std::unexpected(
        metadata.error().AddContext(fmt::format("loading table {}", ident.ToString())));
  }
  metadata_cache_.Put(location, *metadata);
  return LoadedTable{ident, location, *std::move(metadata)};
}

Result<LoadedTable> SqlCatalog::Remember(Result<LoadedTable> committed) {
  if (committed) metadata_cache_.Put(committed->metadata_location, committed->metadata);
  return committed;
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateSqlNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsOn(*conn, ns));
  if (!exists) return NotFound("namespace {} does not exist", ns.ToString());
  return ListTablesOn(*conn, ns);
}

Result<bool> SqlCatalog::TableExists(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> location, MetadataLocationOn(*conn, ident));
  return location.has_value();
}

Result<LoadedTable> SqlCatalog::LoadTable(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  std::optional<std::string> location;
  {
    FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
    FLOE_ASSIGN_OR_RETURN(location, MetadataLocationOn(*conn, ident));
  }
  if (!location) return NotFound("table {} does not exist", ident.ToString());
  return Load(ident, *location);
}

Status SqlCatalog::InsertRow(const TableIdentifier& ident, const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  return InsertRowOn(*conn, ident, location);
}

Status SqlCatalog::InsertRowOn(SqlConnection& conn, const TableIdentifier& ident,
                               const std::string& location) {
  Result<SqlResult> inserted =
      has_type_column_
          ? conn.Execute(
                "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location, iceberg_type) VALUES "
                "(?, ?, ?, ?, NULL, ?)",
                {name_, ident.ns.ToString(), ident.name, location, std::string(kTableRecordType)})
          : conn.Execute(
                "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                "metadata_location, previous_metadata_location) VALUES "
                "(?, ?, ?, ?, NULL)",
                {name_, ident.ns.ToString(), ident.name, location});
  if (inserted) return {};
  if (conn.broken()) {
    return CommitStateUnknown(
        "table {}: the connection was lost after the insert was sent, so "
        "the table may or may not exist now: {}",
        ident.ToString(), inserted.error().message());
  }
  if (inserted.error().kind() == ErrorKind::kAlreadyExists) {
    return AlreadyExists("table {} already exists", ident.ToString());
  }
  return std::unexpected(inserted.error());
}

Result<LoadedTable> SqlCatalog::CreateTable(const TableIdentifier& ident,
                                            const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  {
    FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsOn(*conn, ident.ns));
    if (!ns_exists) return NotFound("namespace {} does not exist", ident.ns.ToString());
    FLOE_ASSIGN_OR_RETURN(std::optional<std::string> current, MetadataLocationOn(*conn, ident));
    if (current) return AlreadyExists("table {} already exists", ident.ToString());
  }
  std::string table_location = request.location;
  if (table_location.empty()) {
    if (warehouse_.empty()) {
      return InvalidArgument("table {} has no location and catalog {} no `warehouse`",
                             ident.ToString(), name_);
    }
    table_location = DefaultTableLocation(warehouse_, ident);
  }
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata,
                        NewTableMetadata(request, io::NormalizeLocation(table_location), NowMs()));
  return Remember(CreateByPointer(*io_, ident, std::move(metadata),
                                  [&](const std::string& location, const TableMetadataPtr&) {
                                    return InsertRow(ident, location);
                                  }));
}

Result<LoadedTable> SqlCatalog::RegisterTable(const TableIdentifier& ident,
                                              const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  {
    FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsOn(*conn, ident.ns));
    if (!ns_exists) return NotFound("namespace {} does not exist", ident.ns.ToString());
  }
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, Load(ident, metadata_location));
  FLOE_RETURN_IF_ERROR(InsertRow(ident, metadata_location));
  return table;
}

Result<LoadedTable> SqlCatalog::CommitTable(const TableIdentifier& ident,
                                            const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> base_location, MetadataLocationOn(*conn, ident));
  if (!base_location) {
    if (!IsCreateCommit(commit)) return NotFound("table {} does not exist", ident.ToString());
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsOn(*conn, ident.ns));
    if (!ns_exists) return NotFound("namespace {} does not exist", ident.ns.ToString());
    // The insert fails with kAlreadyExists when another writer created the table meanwhile.
    return Remember(CreateByCommit(
        *io_, ident, commit, warehouse_.empty() ? "" : DefaultTableLocation(warehouse_, ident),
        [&](const std::string& location, const TableMetadataPtr&) {
          return InsertRow(ident, location);
        }));
  }
  FLOE_ASSIGN_OR_RETURN(LoadedTable base, Load(ident, *base_location));
  // The swap: one UPDATE that matches only while the row still points at the base.
  auto swap = [&](const std::string& location, const TableMetadataPtr&) -> Status {
    Result<SqlResult> swapped = SwapRowOn(*conn, ident, *base_location, location);
    if (!swapped && conn->broken()) {
      return CommitStateUnknown(
          "table {}: the connection was lost after the commit of {} was "
          "sent: {}",
          ident.ToString(), location, swapped.error().message());
    }
    if (!swapped && !swapped.error().retryable()) return std::unexpected(swapped.error());
    if (!swapped || swapped->rows_changed != 1) {
      std::string why = swapped ? fmt::format("its metadata is no longer {}", *base_location)
                                : swapped.error().message();
      return std::unexpected(
          Error(ErrorKind::kCommitFailed,
                fmt::format("table {} changed concurrently: {}", ident.ToString(), why),
                /*retryable=*/true));
    }
    return {};
  };
  return Remember(CommitByPointerSwap(*io_, base, commit, swap));
}

Result<SqlResult> SqlCatalog::SwapRowOn(SqlConnection& conn, const TableIdentifier& ident,
                                        const std::string& base_location,
                                        const std::string& location) {
  return conn.Execute(
      fmt::format("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location "
                  "= ? WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND "
                  "metadata_location = ?{}",
                  TableFilter()),
      {location, base_location, name_, ident.ns.ToString(), ident.name, base_location});
}

Status SqlCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(from));
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(to));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_RETURN_IF_ERROR(conn->Begin());
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> current, MetadataLocationOn(*conn, from));
  if (!current) return NotFound("table {} does not exist", from.ToString());
  if (from == to) return conn->Commit();
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsOn(*conn, to.ns));
  if (!ns_exists) return NotFound("namespace {} does not exist", to.ns.ToString());
  auto renamed = conn->Execute(
      fmt::format("UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE "
                  "catalog_name = ? AND table_namespace = ? AND table_name = ?{}",
                  TableFilter()),
      {to.ns.ToString(), to.name, name_, from.ns.ToString(), from.name});
  if (!renamed) {
    if (renamed.error().kind() == ErrorKind::kAlreadyExists) {
      return AlreadyExists("cannot rename {} to {}: the name is taken", from.ToString(),
                           to.ToString());
    }
    return std::unexpected(renamed.error());
  }
  if (renamed->rows_changed != 1) return NotFound("table {} does not exist", from.ToString());
  return conn->Commit();
}

Status SqlCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  FLOE_RETURN_IF_ERROR(ValidateSqlIdentifier(ident));
  FLOE_ASSIGN_OR_RETURN(auto conn, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> location, MetadataLocationOn(*conn, ident));
  if (!location) return NotFound("table {} does not exist", ident.ToString());
  // Purging needs the metadata that names the files: read it before the table is forgotten.
  TableMetadataPtr metadata;
  if (purge) {
    FLOE_ASSIGN_OR_RETURN(metadata, ReadTableMetadata(*io_, *location));
  }
  FLOE_ASSIGN_OR_RETURN(
      SqlResult deleted,
      conn->Execute(fmt::format("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                "table_namespace = ? AND table_name = ? AND metadata_location = "
                                "?{}",
                                TableFilter()),
                    {name_, ident.ns.ToString(), ident.name, *location}));
  if (deleted.rows_changed != 1) {
    return CommitFailed("table {} changed while it was being dropped", ident.ToString());
  }
  if (!purge) return {};
  FLOE_RETURN_IF_ERROR(DeleteTableFiles(*io_, *metadata));
  // Best effort, like the files DeleteTableFiles removes: the table is gone either way.
  (void)io_->Delete(*location);
  return {};
}

Result<std::shared_ptr<Catalog>> CreateSqlCatalog(const std::string& name,
                                                  const StringMap& properties,
                                                  std::shared_ptr<io::FileIO> fileio) {
  if (name.empty()) return InvalidArgument("a sql catalog needs a name");
  FLOE_ASSIGN_OR_RETURN(SqlDatabase db, SqlDatabaseFromProperties(properties));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> conn, db.Connect());
  FLOE_ASSIGN_OR_RETURN(bool has_type_column, EnsureJdbcSchema(*conn));
  std::string warehouse;
  if (auto it = properties.find("warehouse"); it != properties.end()) {
    warehouse = io::NormalizeLocation(it->second);
  }
  if (!fileio) fileio = io::MakeFileIO(properties);
  return std::shared_ptr<Catalog>(std::make_shared<SqlCatalog>(
      name, std::move(warehouse), std::move(db), std::move(fileio), has_type_column));
}

}  // namespace floe::catalog
