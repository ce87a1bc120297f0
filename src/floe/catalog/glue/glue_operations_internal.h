#pragma once

// The Glue operations an Iceberg catalog needs, typed, over GlueClient (glue_client_internal.h):
// databases (create, get, update, delete, list every page) and tables (create, get, update with
// the VersionId the caller read, delete, list every page). Lists follow NextToken until Glue
// sends none. Errors are GlueClient's.

#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/glue/glue_client_internal.h"

namespace floe::catalog::glue {

struct GlueDatabase {
  std::string name;
  std::string description;   // "" when none
  std::string location_uri;  // "" when none
  StringMap parameters;
};

Status CreateDatabase(GlueClient& client, const GlueDatabase& database);
Result<GlueDatabase> GetDatabase(GlueClient& client, std::string_view name);
// Replaces the database's description, location and parameters with database's.
Status UpdateDatabase(GlueClient& client, const GlueDatabase& database);
Status DeleteDatabase(GlueClient& client, std::string_view name);
Result<std::vector<GlueDatabase>> GetDatabases(GlueClient& client);

// A table as GetTable returns it: the fields a TableInput may carry (Name, Description,
// StorageDescriptor, Parameters, TableType... as Glue sent them, so that an update or a copy
// keeps what other engines stored), and the version Glue's optimistic concurrency checks.
struct GlueTable {
  std::string database;
  std::string name;
  std::string version_id;  // "" when Glue sent none
  StringMap parameters;
  Json input = Json::MakeObject();
};

Status CreateTable(GlueClient& client, std::string_view database, const Json& table_input);
Result<GlueTable> GetTable(GlueClient& client, std::string_view database, std::string_view name);
// Sent once (not retried). version_id: the table's VersionId when it was read (Glue answers
// ConcurrentModificationException when it moved since); skip_archive: no TableVersion is kept
// for the replaced state (glue.skip-archive).
Status UpdateTable(GlueClient& client, std::string_view database, const Json& table_input,
                   const std::string& version_id, bool skip_archive);
Status DeleteTable(GlueClient& client, std::string_view database, std::string_view name);
Result<std::vector<GlueTable>> GetTables(GlueClient& client, std::string_view database);

}  // namespace floe::catalog::glue
