#pragma once

// Finding the tables DDL works on: an Iceberg table of a catalog, or a connector table of
// default_catalog. Errors are kNotFound naming the table (or its database or catalog).

#include <memory>
#include <string>

#include "floe/sql/session.h"
#include "floe/table/table.h"

namespace floe::sql {

// The table a written name resolves to, with no metadata-table suffix allowed.
Result<ResolvedName> ResolvePlainTable(Session& session, const ObjectName& name);

Result<std::shared_ptr<table::Table>> LoadIcebergTable(Session& session, const ResolvedName& name);

// Drops an Iceberg table as Flink's catalog does, through Iceberg's dropTable(ident), which
// purges the table's files; with 'gc.enabled' = 'false' the files may be shared with other tables
// and are kept.
Status DropIcebergTable(catalog::Catalog& catalog, const catalog::TableIdentifier& ident);

// "database.table", the key of Session::connector_tables().
std::string ConnectorKey(const ResolvedName& name);
// kNotFound naming the table.
Result<ConnectorTable*> FindConnectorTable(Session& session, const ResolvedName& name);

}  // namespace floe::sql
