#include "floe/catalog/sql/jdbc_schema_internal.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kCreateTables =
    "CREATE TABLE iceberg_tables ("
    "catalog_name VARCHAR(255) NOT NULL, "
    "table_namespace VARCHAR(255) NOT NULL, "
    "table_name VARCHAR(255) NOT NULL, "
    "metadata_location VARCHAR(1000), "
    "previous_metadata_location VARCHAR(1000), "
    "iceberg_type VARCHAR(5), "
    "PRIMARY KEY (catalog_name, table_namespace, table_name))";

constexpr std::string_view kCreateNamespaceProperties =
    "CREATE TABLE iceberg_namespace_properties ("
    "catalog_name VARCHAR(255) NOT NULL, "
    "namespace VARCHAR(255) NOT NULL, "
    "property_key VARCHAR(255), "
    "property_value VARCHAR(1000), "
    "PRIMARY KEY (catalog_name, namespace, property_key))";

Status CreateIfMissing(SqlConnection& conn, std::string_view table, std::string_view ddl) {
  FLOE_ASSIGN_OR_RETURN(bool exists, TableExists(conn, table));
  if (exists) return {};
  auto created = conn.Execute(ddl);
  if (created) return {};
  // Another catalog may have created it between the check and the CREATE.
  FLOE_ASSIGN_OR_RETURN(bool now_exists, TableExists(conn, table));
  if (now_exists) return {};
  return std::unexpected(created.error().AddContext(fmt::format("creating {}", table)));
}

}  // namespace

Result<bool> EnsureJdbcSchema(SqlConnection& conn) {
  FLOE_RETURN_IF_ERROR(CreateIfMissing(conn, kTablesTable, kCreateTables));
  FLOE_RETURN_IF_ERROR(
      CreateIfMissing(conn, kNamespacePropertiesTable, kCreateNamespaceProperties));
  return ColumnExists(conn, kTablesTable, kRecordTypeColumn);
}

}  // namespace floe::catalog
