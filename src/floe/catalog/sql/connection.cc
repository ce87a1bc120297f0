#include "floe/catalog/sql/connection_internal.h"

namespace floe::catalog {

Result<bool> TableExists(SqlConnection& conn, std::string_view table) {
  std::string_view sql =
      conn.dialect() == SqlDialect::kSqlite
          ? "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
          : "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND "
            "table_name = ?";
  FLOE_ASSIGN_OR_RETURN(SqlResult result, conn.Execute(sql, {std::string(table)}));
  return !result.rows.empty();
}

Result<bool> ColumnExists(SqlConnection& conn, std::string_view table, std::string_view column) {
  std::string_view sql =
      conn.dialect() == SqlDialect::kSqlite
          ? "SELECT 1 FROM pragma_table_info(?) WHERE name = ?"
          : "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND "
            "table_name = ? AND column_name = ?";
  FLOE_ASSIGN_OR_RETURN(SqlResult result,
                        conn.Execute(sql, {std::string(table), std::string(column)}));
  return !result.rows.empty();
}

}  // namespace floe::catalog
