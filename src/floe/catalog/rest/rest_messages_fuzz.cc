// Fuzz target: arbitrary bytes as the JSON body of a REST catalog message, read as every message
// floe's client and server take in (rest_messages.h, table_update_json.h): config, errors, load and
// commit results, listings, tokens, and the requests the server reads (create, register, rename,
// namespaces, commits with their requirements and updates). Each must end in a message or an
// error, never a crash or a sanitizer report.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/table_update_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto json = floe::Json::Parse(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!json) return 0;
  namespace cat = floe::catalog::rest;
  (void)cat::NamespaceFromJson(*json);
  (void)cat::TableIdentifierFromJson(*json);
  (void)cat::ConfigResponseFromJson(*json);
  (void)cat::ErrorModelFromJson(*json);
  (void)cat::LoadTableResultFromJson(*json);
  (void)cat::CreateTableMessageFromJson(*json);
  (void)cat::RegisterTableMessageFromJson(*json);
  (void)cat::RenameTableMessageFromJson(*json);
  (void)cat::NamespaceMessageFromJson(*json);
  (void)cat::UpdateNamespacePropertiesMessageFromJson(*json);
  (void)cat::NamespaceListFromJson(*json);
  (void)cat::TableListFromJson(*json);
  (void)cat::CommitTableMessageFromJson(*json);
  (void)cat::TableChangesFromJson(*json);
  (void)cat::CommitTableResponseFromJson(*json, floe::catalog::TableIdentifier{{{"db"}}, "t"});
  (void)cat::OAuthTokenFromJson(*json);
  (void)cat::TableUpdateFromJson(*json);
  (void)cat::TableRequirementFromJson(*json);
  (void)cat::TableCommitFromJson(*json);
  return 0;
}
