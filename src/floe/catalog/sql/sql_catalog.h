#pragma once

// The sql catalog: Iceberg's JDBC-catalog schema on SQLite or PostgreSQL, so that Java, PyIceberg
// and floe can share one catalog database. Two tables, created when missing:
//
//   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
//                  previous_metadata_location, iceberg_type)       one row per table
//   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
//
// A namespace exists while it has a property row (creating one stores the reserved `exists`
// property, as Java does), a table, or a namespace below it; levels are stored joined with '.'.
// A commit writes a new metadata file and swaps it in with one compare-and-swap UPDATE on
// metadata_location. Databases made by older Java versions without `iceberg_type` are used as
// they are (not altered). All values are bound parameters.
//
// Properties, which say where the two tables are:
//
//   uri = jdbc:sqlite:/path/catalog.db | sqlite:/path/catalog.db | sqlite:///path/catalog.db
//         jdbc:postgresql://host:port/db | postgresql://... | postgres://... (libpq URIs, whose
//         query parameters must be libpq's) | a libpq `key=value` conninfo ("host=... dbname=...")
//   jdbc.user, jdbc.password  override the user and password of a PostgreSQL uri
//   warehouse                 where new tables go (`<warehouse>/<ns levels>/<table>`); without
//                             uri also the embedded default, a SQLite file beside the warehouse
//                             folder: /data/wh -> /data/wh.catalog.db (several catalogs may share
//                             it; rows carry the catalog name)
//
// Errors, besides those of Catalog: kIO with the database's message when it cannot be reached;
// kCommitStateUnknown when the connection is lost after the swap was sent; kInvalidArgument for
// a uri of another database, an in-memory SQLite database (every pooled connection would see a
// different one), neither uri nor a local warehouse, a namespace level containing '.' (the
// schema's level separator) or the reserved `exists` property.

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

// fileio: the FileIO for metadata and data files; nullptr means the local filesystem.
Result<std::shared_ptr<Catalog>> CreateSqlCatalog(const std::string& name,
                                                  const StringMap& properties,
                                                  std::shared_ptr<io::FileIO> fileio = nullptr);

}  // namespace floe::catalog
