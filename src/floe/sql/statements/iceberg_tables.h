#pragma once

// Finding the tables DDL works on: an Iceberg table of a catalog, or a connector table of
// default_catalog. Errors are kNotFound naming the table (or its database or catalog).

#include <memory>
#include <string>

#include "floe/sql/session.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/table/table.h"

namespace floe::sql {

// The table a written name resolves to, with no metadata-table suffix allowed.
Result<ResolvedName> ResolvePlainTable(Session& session, const ObjectName& name);

// How a job's sources and sinks reach the table `name` of the session catalog `catalog`: a new
// instance made from its properties, except for plugin catalogs (`catalog-impl`), whose tables
// may live in the session's instance alone, which the job then shares.
stream::TableLoader LoaderFor(const SessionCatalog& catalog, const ResolvedName& name);

// kNotFound naming the table (or its database) when the catalog has no such table; kIO naming the
// table and the missing file when the catalog lists it but its metadata file is gone.
Result<std::shared_ptr<table::Table>> LoadIcebergTable(Session& session, const ResolvedName& name);

// Drops an Iceberg table as Flink's catalog does, through Iceberg's dropTable(ident), which
// purges the table's files; with 'gc.enabled' = 'false' the files may be shared with other tables
// and are kept. A table whose metadata file is gone is dropped from the catalog alone.
Status DropIcebergTable(catalog::Catalog& catalog, const catalog::TableIdentifier& ident);

// "database.table", the key of Session::connector_tables().
std::string ConnectorKey(const ResolvedName& name);
// kNotFound naming the table.
Result<ConnectorTable*> FindConnectorTable(Session& session, const ResolvedName& name);

}  // namespace floe::sql
