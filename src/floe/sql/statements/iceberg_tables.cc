#include "floe/sql/statements/iceberg_tables.h"

#include <fmt/format.h>

#include "floe/sql/statements/catalog_statements.h"
#include "floe/table/table.h"

namespace floe::sql {
namespace {

// kIO rather than kNotFound: the table exists, so IF EXISTS / IF NOT EXISTS must not pass over it.
std::unexpected<Error> MissingMetadata(const ResolvedName& name, const Error& cause) {
  return std::unexpected<Error>(
      std::in_place, ErrorKind::kIO,
      fmt::format("table '{}' is in the catalog but its metadata file is missing ({}); "
                  "DROP TABLE {} removes it from the catalog",
                  name.ToString(), cause.message(), name.ToString()));
}

}  // namespace

Result<ResolvedName> ResolvePlainTable(Session& session, const ObjectName& name) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName resolved, session.ResolveTable(name));
  if (!resolved.metadata.empty()) {
    return InvalidArgument("'{}' is a metadata table; this statement takes a table",
                           resolved.ToString());
  }
  FLOE_RETURN_IF_ERROR(session.FindCatalog(resolved.catalog));
  return resolved;
}

stream::TableLoader LoaderFor(const SessionCatalog& catalog, const ResolvedName& name) {
  auto loader = stream::TableLoader::FromCatalog(catalog.name, catalog.properties, name.ident());
  if (catalog.properties.contains("catalog-impl")) loader.ShareCatalog(catalog.catalog);
  return loader;
}

Result<std::shared_ptr<table::Table>> LoadIcebergTable(Session& session, const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(name));
  auto table = table::Table::Load(catalog, name.ident());
  if (!table && table.error().kind() == ErrorKind::kNotFound) {
    // The catalog may still list a table whose metadata file is gone (its folder was deleted).
    FLOE_ASSIGN_OR_RETURN(bool listed, catalog->TableExists(name.ident()));
    if (listed) return MissingMetadata(name, table.error());
    FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
    return NotFound("table '{}' does not exist", name.ToString());
  }
  return table;
}

Status DropIcebergTable(catalog::Catalog& catalog, const catalog::TableIdentifier& ident) {
  auto loaded = catalog.LoadTable(ident);
  // Without its metadata file nothing names the table's files: the catalog forgets it.
  if (!loaded && loaded.error().kind() == ErrorKind::kNotFound) {
    FLOE_ASSIGN_OR_RETURN(bool listed, catalog.TableExists(ident));
    if (listed) return catalog.DropTable(ident, /*purge=*/false);
  }
  if (!loaded) return std::unexpected(std::move(loaded).error());
  const StringMap& properties = loaded->metadata->properties();
  auto gc = properties.find("gc.enabled");
  bool purge = gc == properties.end() || gc->second != "false";
  Status dropped = catalog.DropTable(ident, purge);
  // The metadata came from a cache, and purging found its file gone.
  if (!dropped && purge && dropped.error().kind() == ErrorKind::kNotFound) {
    FLOE_ASSIGN_OR_RETURN(bool listed, catalog.TableExists(ident));
    if (listed) return catalog.DropTable(ident, /*purge=*/false);
  }
  return dropped;
}

std::string ConnectorKey(const ResolvedName& name) { return name.ns.ToString() + "." + name.table; }

Result<ConnectorTable*> FindConnectorTable(Session& session, const ResolvedName& name) {
  auto it = session.connector_tables().find(ConnectorKey(name));
  if (it == session.connector_tables().end()) {
    FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
    return NotFound("table '{}' does not exist", name.ToString());
  }
  return &it->second;
}

}  // namespace floe::sql
