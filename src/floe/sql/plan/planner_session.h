#pragma once

// What the query planner needs of the session it plans for, and nothing of how statements run:
// the SET options, table names resolved against the current catalog and database, the catalogs'
// tables and default_catalog's connector tables. The session implements it (session.h), so that
// plan/ includes no statement executor.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/sql/session_config.h"
#include "floe/sql/syntax/ast.h"
#include "floe/stream/iceberg/table_loader.h"

namespace floe::sql {

inline constexpr std::string_view kDefaultCatalog = "default_catalog";

// A table of default_catalog defined by CREATE TABLE ... WITH ('connector' = ...): its columns
// as written and its options. Nothing is stored anywhere: it lives as long as the session.
// Its event time: `WATERMARK FOR column AS column [- INTERVAL ...]`.
struct EventTime {
  std::string column;
  int64_t delay_ms = 0;
  std::string strategy;  // as printed: "`ts` - INTERVAL '5' SECOND"
};

struct ConnectorTable {
  std::vector<ColumnDef> columns;
  std::vector<std::string> primary_key;
  std::optional<EventTime> watermark;
  std::optional<std::string> comment;
  Options options;
};

// A view (CREATE [TEMPORARY] VIEW): its query, planned where a FROM item names it, its text as
// written and its column names. It lives as long as the session.
struct SessionView {
  std::shared_ptr<const Query> query;
  std::string text;
  std::vector<std::string> columns;
  std::optional<std::string> comment;
  bool temporary = false;
};

// A written object name resolved against the session.
struct ResolvedName {
  std::string catalog;    // the catalog's name
  catalog::Namespace ns;  // the database (one level, or more for catalogs that nest)
  std::string table;      // the table, without a metadata-table suffix
  std::string metadata;   // "snapshots" for `t$snapshots`, empty otherwise
  bool in_default_catalog() const { return catalog == kDefaultCatalog; }
  catalog::TableIdentifier ident() const { return {ns, table}; }
  std::string ToString() const;  // "cat.db.t" (with "$snapshots" when set)
};

namespace plan {

class PlannerSession {
 public:
  virtual ~PlannerSession() = default;

  virtual const SessionConfig& config() const = 0;
  // A table name (1 to 3 parts, the last one may carry `$suffix`) against the current catalog
  // and database; checks the parts, not that the table exists.
  virtual Result<ResolvedName> ResolveTable(const ObjectName& name) const = 0;
  // The catalog a resolved name lives in; kInvalidArgument for default_catalog.
  virtual Result<std::shared_ptr<catalog::Catalog>> IcebergCatalog(const ResolvedName& name) = 0;
  // How job tasks load an Iceberg table of the session's catalogs; kNotFound for an unknown
  // catalog.
  virtual Result<stream::TableLoader> CatalogTableLoader(const ResolvedName& name) = 0;
  // The view a resolved name names: a temporary one before a permanent one; null for none.
  virtual const SessionView* FindView(const ResolvedName& name) const = 0;
  // default_catalog's connector tables by "database.table".
  virtual std::map<std::string, ConnectorTable, std::less<>>& connector_tables() = 0;
  // The Iceberg table behind a connector table WITH ('connector' = 'iceberg'); `key` is its
  // "database.table".
  virtual Result<stream::TableLoader> ConnectorTableLoader(std::string_view key,
                                                           const ConnectorTable& table) = 0;
};

}  // namespace plan
}  // namespace floe::sql
