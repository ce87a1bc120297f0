#pragma once

// The two tables of Iceberg's JDBC catalog, with the column names, types and primary keys Java
// creates (JdbcUtil, schema version V1: V0 plus `iceberg_type`, 'TABLE' or 'VIEW', NULL for rows
// written by V0 catalogs, which count as tables).

#include <string>
#include <string_view>

#include "floe/catalog/sql/connection_internal.h"

namespace floe::catalog {

inline constexpr std::string_view kTablesTable = "iceberg_tables";
inline constexpr std::string_view kNamespacePropertiesTable = "iceberg_namespace_properties";
inline constexpr std::string_view kRecordTypeColumn = "iceberg_type";
inline constexpr std::string_view kTableRecordType = "TABLE";

// Creates the tables when missing (tolerating another process creating them at the same moment).
// Returns whether iceberg_tables has the iceberg_type column (false for a V0 database, which is
// used as it is).
Result<bool> EnsureJdbcSchema(SqlConnection& conn);

}  // namespace floe::catalog
