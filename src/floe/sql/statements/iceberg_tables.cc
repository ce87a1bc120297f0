#include "floe/sql/statements/iceberg_tables.h"

#include "floe/sql/statements/catalog_statements.h"

namespace floe::sql {

Result<ResolvedName> ResolvePlainTable(Session& session, const ObjectName& name) {
  FLOE_ASSIGN_OR_RETURN(ResolvedName resolved, session.ResolveTable(name));
  if (!resolved.metadata.empty()) {
    return InvalidArgument("'{}' is a metadata table; this statement takes a table",
                           resolved.ToString());
  }
  FLOE_RETURN_IF_ERROR(session.FindCatalog(resolved.catalog));
  return resolved;
}

Result<std::shared_ptr<table::Table>> LoadIcebergTable(Session& session, const ResolvedName& name) {
  FLOE_ASSIGN_OR_RETURN(auto catalog, session.IcebergCatalog(name));
  auto table = table::Table::Load(std::move(catalog), name.ident());
  if (!table && table.error().kind() == ErrorKind::kNotFound) {
    FLOE_RETURN_IF_ERROR(RequireDatabase(session, name));
    return NotFound("table '{}' does not exist", name.ToString());
  }
  return table;
}

Status DropIcebergTable(catalog::Catalog& catalog, const catalog::TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, catalog.LoadTable(ident));
  const StringMap& properties = loaded.metadata->properties();
  auto gc = properties.find("gc.enabled");
  bool purge = gc == properties.end() || gc->second != "false";
  return catalog.DropTable(ident, purge);
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
