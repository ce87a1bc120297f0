#include <optional>

#include "floe/catalog/glue/glue_operations_internal.h"

namespace floe::catalog::glue {
namespace {

// The fields of GetTable's Table that TableInput also has.
constexpr std::string_view kTableInputFields[] = {
    "Name",      "Description",       "Owner",         "LastAccessTime",   "LastAnalyzedTime",
    "Retention", "StorageDescriptor", "PartitionKeys", "ViewOriginalText", "ViewExpandedText",
    "TableType", "Parameters",        "TargetTable"};

StringMap StringsOf(const Json* object) {
  StringMap out;
  if (object == nullptr || !object->is_object()) return out;
  for (const auto& [key, value] : object->as_object()) {
    if (value.is_string()) out[key] = value.as_string();
  }
  return out;
}

Json JsonOf(const StringMap& strings) {
  Json out = Json::MakeObject();
  for (const auto& [key, value] : strings) out.Set(key, value);
  return out;
}

std::string StringOf(const Json& object, std::string_view key) {
  const Json* value = object.Find(key);
  return value != nullptr && value->is_string() ? value->as_string() : std::string();
}

Json DatabaseInput(const GlueDatabase& database) {
  Json input = Json::MakeObject();
  input.Set("Name", database.name);
  if (!database.description.empty()) input.Set("Description", database.description);
  if (!database.location_uri.empty()) input.Set("LocationUri", database.location_uri);
  input.Set("Parameters", JsonOf(database.parameters));
  return input;
}

GlueDatabase DatabaseOf(const Json& json) {
  return GlueDatabase{StringOf(json, "Name"), StringOf(json, "Description"),
                      StringOf(json, "LocationUri"), StringsOf(json.Find("Parameters"))};
}

GlueTable TableOf(const Json& json, std::string_view database) {
  GlueTable table;
  table.database = StringOf(json, "DatabaseName");
  if (table.database.empty()) table.database = database;
  table.name = StringOf(json, "Name");
  table.version_id = StringOf(json, "VersionId");
  table.parameters = StringsOf(json.Find("Parameters"));
  for (std::string_view field : kTableInputFields) {
    if (const Json* value = json.Find(field)) table.input.Set(field, *value);
  }
  return table;
}

// Calls a paged list operation until Glue sends no NextToken; `key` names the array.
template <typename F>
Status ForEachPage(GlueClient& client, std::string_view operation, Json request,
                   std::string_view key, F on_item) {
  std::optional<std::string> token;
  do {
    Json page_request = request;
    if (token) page_request.Set("NextToken", *token);
    FLOE_ASSIGN_OR_RETURN(Json page, client.Call(operation, std::move(page_request), true));
    if (const Json* items = page.Find(key); items != nullptr && items->is_array()) {
      for (const Json& item : items->as_array()) on_item(item);
    }
    std::string next = StringOf(page, "NextToken");
    if (!next.empty() && token == next) {
      return CorruptData("Glue {}: the same NextToken came back twice", operation);
    }
    token = next.empty() ? std::nullopt : std::optional(next);
  } while (token);
  return {};
}

Status Done(Result<Json> result) {
  if (!result) return std::unexpected(std::move(result.error()));
  return {};
}

}  // namespace

Status CreateDatabase(GlueClient& client, const GlueDatabase& database) {
  Json request = Json::MakeObject();
  request.Set("DatabaseInput", DatabaseInput(database));
  return Done(client.Call("CreateDatabase", std::move(request), false));
}

Result<GlueDatabase> GetDatabase(GlueClient& client, std::string_view name) {
  Json request = Json::MakeObject();
  request.Set("Name", name);
  FLOE_ASSIGN_OR_RETURN(Json response, client.Call("GetDatabase", std::move(request), true));
  const Json* database = response.Find("Database");
  if (database == nullptr || !database->is_object()) {
    return CorruptData("Glue GetDatabase {}: the response has no Database", name);
  }
  return DatabaseOf(*database);
}

Status UpdateDatabase(GlueClient& client, const GlueDatabase& database) {
  Json request = Json::MakeObject();
  request.Set("Name", database.name);
  request.Set("DatabaseInput", DatabaseInput(database));
  return Done(client.Call("UpdateDatabase", std::move(request), false));
}

Status DeleteDatabase(GlueClient& client, std::string_view name) {
  Json request = Json::MakeObject();
  request.Set("Name", name);
  return Done(client.Call("DeleteDatabase", std::move(request), false));
}

Result<std::vector<GlueDatabase>> GetDatabases(GlueClient& client) {
  std::vector<GlueDatabase> out;
  FLOE_RETURN_IF_ERROR(ForEachPage(client, "GetDatabases", Json::MakeObject(), "DatabaseList",
                                   [&](const Json& item) { out.push_back(DatabaseOf(item)); }));
  return out;
}

Status CreateTable(GlueClient& client, std::string_view database, const Json& table_input) {
  Json request = Json::MakeObject();
  request.Set("DatabaseName", database);
  request.Set("TableInput", table_input);
  return Done(client.Call("CreateTable", std::move(request), false));
}

Result<GlueTable> GetTable(GlueClient& client, std::string_view database, std::string_view name) {
  Json request = Json::MakeObject();
  request.Set("DatabaseName", database);
  request.Set("Name", name);
  FLOE_ASSIGN_OR_RETURN(Json response, client.Call("GetTable", std::move(request), true));
  const Json* table = response.Find("Table");
  if (table == nullptr || !table->is_object()) {
    return CorruptData("Glue GetTable {}.{}: the response has no Table", database, name);
  }
  return TableOf(*table, database);
}

Status UpdateTable(GlueClient& client, std::string_view database, const Json& table_input,
                   const std::string& version_id, bool skip_archive) {
  Json request = Json::MakeObject();
  request.Set("DatabaseName", database);
  request.Set("TableInput", table_input);
  if (!version_id.empty()) request.Set("VersionId", version_id);
  request.Set("SkipArchive", skip_archive);
  return Done(client.Call("UpdateTable", std::move(request), false));
}

Status DeleteTable(GlueClient& client, std::string_view database, std::string_view name) {
  Json request = Json::MakeObject();
  request.Set("DatabaseName", database);
  request.Set("Name", name);
  return Done(client.Call("DeleteTable", std::move(request), false));
}

Result<std::vector<GlueTable>> GetTables(GlueClient& client, std::string_view database) {
  Json request = Json::MakeObject();
  request.Set("DatabaseName", database);
  std::vector<GlueTable> out;
  FLOE_RETURN_IF_ERROR(
      ForEachPage(client, "GetTables", std::move(request), "TableList",
                  [&](const Json& item) { out.push_back(TableOf(item, database)); }));
  return out;
}

}  // namespace floe::catalog::glue
