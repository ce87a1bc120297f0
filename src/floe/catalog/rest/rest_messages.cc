#include "floe/catalog/rest/rest_messages.h"

#include <fmt/format.h>

#include "floe/catalog/rest/table_update_json.h"
#include "floe/spec/json_fields.h"
#include "floe/spec/partition_spec_json.h"
#include "floe/spec/schema_json.h"
#include "floe/spec/sort_order_json.h"
#include "floe/spec/table_metadata_json.h"

namespace floe::catalog::rest {
namespace {

using json_fields::GetStringList;
using json_fields::GetStringMap;
using json_fields::StringMapToJson;

Json StringList(const std::vector<std::string>& items) {
  Json out = Json::MakeArray();
  for (const std::string& item : items) out.Push(Json(item));
  return out;
}

Status RequireObject(const Json& json, std::string_view what) {
  if (!json.is_object()) {
    return CorruptData("{}: expected an object, found {}", what, Json::KindName(json.kind()));
  }
  return {};
}

// A page of a listing: its items under key, and the token of the next page. The last page has
// none: the document's PageToken is a string (3.1 has no `nullable`), and clients take a missing
// token as the end.
template <typename T, typename ToJsonFn>
Json PageToJson(std::string_view key, const std::vector<T>& items,
                const std::optional<std::string>& next_page_token, ToJsonFn to_json) {
  Json array = Json::MakeArray();
  for (const T& item : items) array.Push(to_json(item));
  Json out = Json::MakeObject();
  if (next_page_token) out.Set("next-page-token", Json(*next_page_token));
  out.Set(std::string(key), std::move(array));
  return out;
}

// The items under key (none when it is missing) and the next page's token, of a listing's answer.
template <typename T, typename FromJsonFn>
Status PageFromJson(const Json& json, std::string_view what, std::string_view key,
                    std::vector<T>& items, std::optional<std::string>& next_page_token,
                    FromJsonFn from_json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, what));
  FLOE_ASSIGN_OR_RETURN(next_page_token, json.GetOptionalString("next-page-token"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* array, json_fields::GetOptionalArray(json, key));
  if (array == nullptr) return Ok();
  for (const Json& item : *array) {
    FLOE_ASSIGN_OR_RETURN(T value, from_json(item));
    items.push_back(std::move(value));
  }
  return Ok();
}

Result<TableIdentifier> IdentifierMember(const Json& json, std::string_view key) {
  FLOE_ASSIGN_OR_RETURN(const Json* member, json.Get(key));
  auto ident = TableIdentifierFromJson(*member);
  if (!ident) return std::unexpected(std::move(ident.error().AddContext(key)));
  return ident;
}

}  // namespace

Json NamespaceToJson(const Namespace& ns) { return StringList(ns.levels); }

Result<Namespace> NamespaceFromJson(const Json& json) {
  if (!json.is_array()) return CorruptData("a namespace must be an array of strings");
  Namespace ns;
  for (const Json& level : json.as_array()) {
    if (!level.is_string()) return CorruptData("a namespace must be an array of strings");
    ns.levels.push_back(level.as_string());
  }
  return ns;
}

Json TableIdentifierToJson(const TableIdentifier& ident) {
  Json out = Json::MakeObject();
  out.Set("namespace", NamespaceToJson(ident.ns));
  out.Set("name", Json(ident.name));
  return out;
}

Result<TableIdentifier> TableIdentifierFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "table identifier"));
  TableIdentifier ident;
  FLOE_ASSIGN_OR_RETURN(const Json* ns, json.Get("namespace"));
  FLOE_ASSIGN_OR_RETURN(ident.ns, NamespaceFromJson(*ns));
  FLOE_ASSIGN_OR_RETURN(ident.name, json.GetString("name"));
  return ident;
}

Json ToJson(const ConfigResponse& config) {
  Json out = Json::MakeObject();
  out.Set("defaults", StringMapToJson(config.defaults));
  out.Set("overrides", StringMapToJson(config.overrides));
  if (!config.endpoints.empty()) out.Set("endpoints", StringList(config.endpoints));
  return out;
}

Result<ConfigResponse> ConfigResponseFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "config response"));
  ConfigResponse config;
  FLOE_ASSIGN_OR_RETURN(config.defaults, GetStringMap(json, "defaults"));
  FLOE_ASSIGN_OR_RETURN(config.overrides, GetStringMap(json, "overrides"));
  FLOE_ASSIGN_OR_RETURN(config.endpoints, GetStringList(json, "endpoints"));
  return config;
}

Json ToJson(const ErrorModel& error) {
  Json model = Json::MakeObject();
  model.Set("message", Json(error.message));
  model.Set("type", Json(error.type));
  model.Set("code", Json(error.code));
  Json out = Json::MakeObject();
  out.Set("error", std::move(model));
  return out;
}

Result<ErrorModel> ErrorModelFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "error response"));
  FLOE_ASSIGN_OR_RETURN(const Json* model, json.Get("error"));
  FLOE_RETURN_IF_ERROR(RequireObject(*model, "error"));
  ErrorModel error;
  FLOE_ASSIGN_OR_RETURN(error.message, model->GetString("message"));
  FLOE_ASSIGN_OR_RETURN(error.type, model->GetString("type"));
  FLOE_ASSIGN_OR_RETURN(int64_t code, model->GetInt("code"));
  error.code = static_cast<int>(code);
  return error;
}

namespace {

// Every member of a LoadTableResult but the metadata.
Json LoadTableResultMembers(const LoadTableResult& result) {
  Json out = Json::MakeObject();
  if (!result.metadata_location.empty()) {
    out.Set("metadata-location", Json(result.metadata_location));
  }
  out.Set("config", StringMapToJson(result.config));
  if (!result.storage_credentials.empty()) {
    Json credentials = Json::MakeArray();
    for (const StorageCredential& credential : result.storage_credentials) {
      Json item = Json::MakeObject();
      item.Set("prefix", Json(credential.prefix));
      item.Set("config", StringMapToJson(credential.config));
      credentials.Push(std::move(item));
    }
    out.Set("storage-credentials", std::move(credentials));
  }
  return out;
}

}  // namespace

Json ToJson(const LoadTableResult& result) {
  Json out = LoadTableResultMembers(result);
  out.Set("metadata", TableMetadataToJson(*result.metadata));
  return out;
}

std::string LoadTableResultText(const LoadTableResult& result, std::string_view metadata_json) {
  // `config` is always there, so the members' object is never empty: {"config":...}.
  std::string members = LoadTableResultMembers(result).Dump();
  return fmt::format("{{\"metadata\":{},{}", metadata_json, std::string_view(members).substr(1));
}

Result<LoadTableResult> LoadTableResultFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "load table result"));
  LoadTableResult result;
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> location,
                        json.GetOptionalString("metadata-location"));
  result.metadata_location = location.value_or("");
  FLOE_ASSIGN_OR_RETURN(const Json* metadata, json.Get("metadata"));
  FLOE_ASSIGN_OR_RETURN(result.metadata, TableMetadataFromJson(*metadata));
  FLOE_ASSIGN_OR_RETURN(result.config, GetStringMap(json, "config"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* credentials,
                        json_fields::GetOptionalArray(json, "storage-credentials"));
  if (credentials) {
    for (const Json& item : *credentials) {
      FLOE_RETURN_IF_ERROR(RequireObject(item, "storage credential"));
      StorageCredential credential;
      FLOE_ASSIGN_OR_RETURN(credential.prefix, item.GetString("prefix"));
      FLOE_ASSIGN_OR_RETURN(credential.config, GetStringMap(item, "config"));
      result.storage_credentials.push_back(std::move(credential));
    }
  }
  return result;
}

Json ToJson(const CreateTableMessage& message) {
  const CreateTableRequest& request = message.request;
  Json out = Json::MakeObject();
  out.Set("name", Json(message.name));
  if (!request.location.empty()) out.Set("location", Json(request.location));
  out.Set("schema", SchemaToJson(*request.schema));
  if (request.spec) out.Set("partition-spec", PartitionSpecToJson(*request.spec));
  if (request.sort_order) out.Set("write-order", SortOrderToJson(*request.sort_order));
  if (message.stage_create) out.Set("stage-create", Json(true));
  out.Set("properties", StringMapToJson(request.properties));
  return out;
}

Result<CreateTableMessage> CreateTableMessageFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "create table request"));
  CreateTableMessage message;
  CreateTableRequest& request = message.request;
  FLOE_ASSIGN_OR_RETURN(message.name, json.GetString("name"));
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> location, json.GetOptionalString("location"));
  request.location = location.value_or("");
  FLOE_ASSIGN_OR_RETURN(const Json* schema, json.Get("schema"));
  FLOE_ASSIGN_OR_RETURN(request.schema, SchemaFromJson(*schema));
  if (const Json* spec = json.Find("partition-spec"); spec && !spec->is_null()) {
    Json with_id = *spec;
    if (with_id.is_object() && !with_id.Find("spec-id")) with_id.Set("spec-id", Json(0));
    FLOE_ASSIGN_OR_RETURN(request.spec, PartitionSpecFromJson(with_id));
  }
  if (const Json* order = json.Find("write-order"); order && !order->is_null()) {
    Json with_id = *order;
    if (with_id.is_object() && !with_id.Find("order-id")) with_id.Set("order-id", Json(0));
    FLOE_ASSIGN_OR_RETURN(request.sort_order, SortOrderFromJson(with_id));
  }
  FLOE_ASSIGN_OR_RETURN(std::optional<bool> stage, json.GetOptionalBool("stage-create"));
  message.stage_create = stage.value_or(false);
  FLOE_ASSIGN_OR_RETURN(request.properties, GetStringMap(json, "properties"));
  return message;
}

Json ToJson(const RegisterTableMessage& message) {
  Json out = Json::MakeObject();
  out.Set("name", Json(message.name));
  out.Set("metadata-location", Json(message.metadata_location));
  if (message.overwrite) out.Set("overwrite", Json(true));
  return out;
}

Result<RegisterTableMessage> RegisterTableMessageFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "register table request"));
  RegisterTableMessage message;
  FLOE_ASSIGN_OR_RETURN(message.name, json.GetString("name"));
  FLOE_ASSIGN_OR_RETURN(message.metadata_location, json.GetString("metadata-location"));
  FLOE_ASSIGN_OR_RETURN(std::optional<bool> overwrite, json.GetOptionalBool("overwrite"));
  message.overwrite = overwrite.value_or(false);
  return message;
}

Json ToJson(const RenameTableMessage& message) {
  Json out = Json::MakeObject();
  out.Set("source", TableIdentifierToJson(message.source));
  out.Set("destination", TableIdentifierToJson(message.destination));
  return out;
}

Result<RenameTableMessage> RenameTableMessageFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "rename table request"));
  RenameTableMessage message;
  FLOE_ASSIGN_OR_RETURN(message.source, IdentifierMember(json, "source"));
  FLOE_ASSIGN_OR_RETURN(message.destination, IdentifierMember(json, "destination"));
  return message;
}

Json ToJson(const NamespaceMessage& message) {
  Json out = Json::MakeObject();
  out.Set("namespace", NamespaceToJson(message.ns));
  out.Set("properties", StringMapToJson(message.properties));
  return out;
}

Result<NamespaceMessage> NamespaceMessageFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "namespace"));
  NamespaceMessage message;
  FLOE_ASSIGN_OR_RETURN(const Json* ns, json.Get("namespace"));
  FLOE_ASSIGN_OR_RETURN(message.ns, NamespaceFromJson(*ns));
  FLOE_ASSIGN_OR_RETURN(message.properties, GetStringMap(json, "properties"));
  return message;
}

Json ToJson(const UpdateNamespacePropertiesMessage& message) {
  Json out = Json::MakeObject();
  out.Set("removals", StringList(message.removals));
  out.Set("updates", StringMapToJson(message.updates));
  return out;
}

Result<UpdateNamespacePropertiesMessage> UpdateNamespacePropertiesMessageFromJson(
    const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "namespace properties update"));
  UpdateNamespacePropertiesMessage message;
  FLOE_ASSIGN_OR_RETURN(message.updates, GetStringMap(json, "updates"));
  FLOE_ASSIGN_OR_RETURN(message.removals, GetStringList(json, "removals"));
  return message;
}

Json ToJson(const UpdateNamespacePropertiesResult& result) {
  Json out = Json::MakeObject();
  out.Set("updated", StringList(result.updated));
  out.Set("removed", StringList(result.removed));
  if (!result.missing.empty()) out.Set("missing", StringList(result.missing));
  return out;
}

Json ToJson(const NamespaceList& list) {
  return PageToJson("namespaces", list.namespaces, list.next_page_token, NamespaceToJson);
}

Result<NamespaceList> NamespaceListFromJson(const Json& json) {
  NamespaceList list;
  FLOE_RETURN_IF_ERROR(PageFromJson(json, "list namespaces response", "namespaces", list.namespaces,
                                    list.next_page_token, NamespaceFromJson));
  return list;
}

Json ToJson(const TableList& list) {
  return PageToJson("identifiers", list.identifiers, list.next_page_token, TableIdentifierToJson);
}

Result<TableList> TableListFromJson(const Json& json) {
  TableList list;
  FLOE_RETURN_IF_ERROR(PageFromJson(json, "list tables response", "identifiers", list.identifiers,
                                    list.next_page_token, TableIdentifierFromJson));
  return list;
}

Json ToJson(const CommitTableMessage& message) {
  Json body = TableCommitToJson(message.commit);
  if (!message.identifier) return body;
  Json out = Json::MakeObject();
  out.Set("identifier", TableIdentifierToJson(*message.identifier));
  for (auto& [key, value] : body.as_object()) out.Set(key, std::move(value));
  return out;
}

Result<CommitTableMessage> CommitTableMessageFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "commit table request"));
  CommitTableMessage message;
  if (const Json* ident = json.Find("identifier"); ident && !ident->is_null()) {
    FLOE_ASSIGN_OR_RETURN(message.identifier, IdentifierMember(json, "identifier"));
  }
  FLOE_ASSIGN_OR_RETURN(message.commit, TableCommitFromJson(json));
  return message;
}

Result<std::vector<CommitTableMessage>> TableChangesFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "commit transaction request"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* changes, json.GetArray("table-changes"));
  std::vector<CommitTableMessage> out;
  for (const Json& change : *changes) {
    FLOE_ASSIGN_OR_RETURN(CommitTableMessage message, CommitTableMessageFromJson(change));
    if (!message.identifier) {
      return CorruptData("table-changes: every change must name its table ('identifier')");
    }
    out.push_back(std::move(message));
  }
  return out;
}

std::string CommitTableResponseText(const std::string& metadata_location,
                                    std::string_view metadata_json) {
  return fmt::format("{{\"metadata-location\":{},\"metadata\":{}}}", Json(metadata_location).Dump(),
                     metadata_json);
}

Result<LoadedTable> CommitTableResponseFromJson(const Json& json, const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "commit table response"));
  LoadedTable table;
  table.ident = ident;
  FLOE_ASSIGN_OR_RETURN(table.metadata_location, json.GetString("metadata-location"));
  FLOE_ASSIGN_OR_RETURN(const Json* metadata, json.Get("metadata"));
  FLOE_ASSIGN_OR_RETURN(table.metadata, TableMetadataFromJson(*metadata));
  return table;
}

Json ToJson(const OAuthToken& token) {
  Json out = Json::MakeObject();
  out.Set("access_token", Json(token.access_token));
  out.Set("token_type", Json(token.token_type));
  if (token.expires_in_s) out.Set("expires_in", Json(*token.expires_in_s));
  out.Set("issued_token_type", Json("urn:ietf:params:oauth:token-type:access_token"));
  return out;
}

Result<OAuthToken> OAuthTokenFromJson(const Json& json) {
  FLOE_RETURN_IF_ERROR(RequireObject(json, "token response"));
  OAuthToken token;
  FLOE_ASSIGN_OR_RETURN(token.access_token, json.GetString("access_token"));
  FLOE_ASSIGN_OR_RETURN(token.token_type, json.GetString("token_type"));
  FLOE_ASSIGN_OR_RETURN(token.expires_in_s, json.GetOptionalInt("expires_in"));
  return token;
}

}  // namespace floe::catalog::rest
