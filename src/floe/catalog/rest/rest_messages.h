#pragma once

// The REST catalog's request and response bodies (the OpenAPI document's schemas of the same
// names), one struct each, with their JSON forms for both directions: the client writes requests
// and reads responses, the server the other way round. Catalog data reuses the catalog model
// (identifiers, CreateTableRequest, TableCommit) and spec/ JSON (metadata, schemas...).
//
// Reading tolerates unknown members; a missing required member or a wrong kind is kCorruptData
// naming it.

#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/util/json.h"

namespace floe::catalog::rest {

Json NamespaceToJson(const Namespace& ns);
Result<Namespace> NamespaceFromJson(const Json& json);
Json TableIdentifierToJson(const TableIdentifier& ident);
Result<TableIdentifier> TableIdentifierFromJson(const Json& json);

// CatalogConfig: GET /v1/config.
struct ConfigResponse {
  StringMap defaults;
  StringMap overrides;
  std::vector<std::string> endpoints;  // "GET /v1/{prefix}/namespaces"...; empty: not listed
};
Json ToJson(const ConfigResponse& config);
Result<ConfigResponse> ConfigResponseFromJson(const Json& json);

// ErrorModel, sent wrapped as IcebergErrorResponse {"error": {...}}.
struct ErrorModel {
  std::string message;
  std::string type;  // "NoSuchTableException"...
  int code = 500;
};
Json ToJson(const ErrorModel& error);
// From the IcebergErrorResponse wrapper.
Result<ErrorModel> ErrorModelFromJson(const Json& json);

struct StorageCredential {
  std::string prefix;
  StringMap config;
};

// LoadTableResult (also the body of create-table and register-table). metadata_location is empty
// for a staged create, whose metadata is not committed.
struct LoadTableResult {
  std::string metadata_location;
  TableMetadataPtr metadata;
  StringMap config;
  std::vector<StorageCredential> storage_credentials;
};
Json ToJson(const LoadTableResult& result);
// ToJson(result) as text, with the metadata given as its JSON text (what a metadata file
// holds), so that a server need not serialise metadata it has as a file already.
std::string LoadTableResultText(const LoadTableResult& result, std::string_view metadata_json);
Result<LoadTableResult> LoadTableResultFromJson(const Json& json);

// CreateTableRequest: the name and what the catalog's CreateTableRequest holds.
struct CreateTableMessage {
  std::string name;
  CreateTableRequest request;
  bool stage_create = false;
};
Json ToJson(const CreateTableMessage& message);
Result<CreateTableMessage> CreateTableMessageFromJson(const Json& json);

struct RegisterTableMessage {
  std::string name;
  std::string metadata_location;
  bool overwrite = false;
};
Json ToJson(const RegisterTableMessage& message);
Result<RegisterTableMessage> RegisterTableMessageFromJson(const Json& json);

struct RenameTableMessage {
  TableIdentifier source;
  TableIdentifier destination;
};
Json ToJson(const RenameTableMessage& message);
Result<RenameTableMessage> RenameTableMessageFromJson(const Json& json);

// CreateNamespaceRequest, CreateNamespaceResponse and GetNamespaceResponse share this shape.
struct NamespaceMessage {
  Namespace ns;
  StringMap properties;
};
Json ToJson(const NamespaceMessage& message);
Result<NamespaceMessage> NamespaceMessageFromJson(const Json& json);

struct UpdateNamespacePropertiesMessage {
  StringMap updates;
  std::vector<std::string> removals;
};
Json ToJson(const UpdateNamespacePropertiesMessage& message);
Result<UpdateNamespacePropertiesMessage> UpdateNamespacePropertiesMessageFromJson(const Json& json);

struct UpdateNamespacePropertiesResult {
  std::vector<std::string> updated;
  std::vector<std::string> removed;
  std::vector<std::string> missing;
};
Json ToJson(const UpdateNamespacePropertiesResult& result);

// ListNamespacesResponse.
struct NamespaceList {
  std::vector<Namespace> namespaces;
  std::optional<std::string> next_page_token;  // nullopt: the last page
};
Json ToJson(const NamespaceList& list);
Result<NamespaceList> NamespaceListFromJson(const Json& json);

// ListTablesResponse.
struct TableList {
  std::vector<TableIdentifier> identifiers;
  std::optional<std::string> next_page_token;
};
Json ToJson(const TableList& list);
Result<TableList> TableListFromJson(const Json& json);

// CommitTableRequest; identifier is required inside a CommitTransactionRequest.
struct CommitTableMessage {
  std::optional<TableIdentifier> identifier;
  TableCommit commit;
};
Json ToJson(const CommitTableMessage& message);
Result<CommitTableMessage> CommitTableMessageFromJson(const Json& json);

// CommitTransactionRequest's table-changes: every one names its table.
Result<std::vector<CommitTableMessage>> TableChangesFromJson(const Json& json);

// CommitTableResponse.
// With the metadata as JSON text, as LoadTableResultText.
std::string CommitTableResponseText(const std::string& metadata_location,
                                    std::string_view metadata_json);
Result<LoadedTable> CommitTableResponseFromJson(const Json& json, const TableIdentifier& ident);

// OAuthTokenResponse of the client-credentials grant.
struct OAuthToken {
  std::string access_token;
  std::string token_type = "bearer";
  std::optional<int64_t> expires_in_s;
};
Json ToJson(const OAuthToken& token);
Result<OAuthToken> OAuthTokenFromJson(const Json& json);

}  // namespace floe::catalog::rest
