#include "floe/catalog/rest/server/rest_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "floe/catalog/metadata_files.h"
#include "floe/catalog/multi_table_commit.h"
#include "floe/catalog/new_table.h"
#include "floe/catalog/rest/rest_errors.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/table_metadata_json.h"
#include "floe/util/clock.h"
#include "floe/util/xxhash64.h"

namespace floe::catalog::rest {
namespace {

constexpr char kUnitSeparator = '\x1F';

ServiceResponse JsonResponse(int status, const Json& body) { return {status, body.Dump(), ""}; }

// A table's metadata file names its whole state: its hash (with the snapshots sent, which the
// OpenAPI document wants told apart) is the ETag of a load.
std::string TableEtag(const std::string& load_key) {
  return fmt::format("\"{:016x}\"", XxHash64(load_key));
}

// The metadata with only the snapshots its branches and tags reference (`snapshots=refs`).
std::string RefsOnlyMetadataText(const TableMetadata& metadata) {
  std::set<int64_t> referenced;
  for (const auto& [name, ref] : metadata.refs()) referenced.insert(ref.snapshot_id);
  Json json = TableMetadataToJson(metadata);
  if (const Json* snapshots = json.Find("snapshots"); snapshots && snapshots->is_array()) {
    Json kept = Json::MakeArray();
    for (const Json& snapshot : snapshots->as_array()) {
      const Json* id = snapshot.Find("snapshot-id");
      if (id && id->is_int() && referenced.contains(id->as_int())) kept.Push(snapshot);
    }
    json.Set("snapshots", std::move(kept));
  }
  return json.Dump();
}

ServiceResponse ErrorResponse(const Error& error, Subject subject) {
  ErrorModel model = ErrorToModel(error, subject);
  return JsonResponse(model.code, ToJson(model));
}

ServiceResponse ErrorResponse(int code, std::string type, std::string message) {
  ErrorModel model{std::move(message), std::move(type), code};
  return JsonResponse(code, ToJson(model));
}

ServiceResponse NoContent() { return {204, "", ""}; }

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    size_t end = path.find('/');
    out.push_back(path.substr(0, end));
    path = end == std::string_view::npos ? std::string_view() : path.substr(end);
  }
  return out;
}

const std::string* QueryValue(const ServiceRequest& request, std::string_view key) {
  auto it = request.query.find(std::string(key));
  return it == request.query.end() ? nullptr : &it->second;
}

// A page of items: all of them without `pageToken`; else from the token's offset (an empty token
// is the first page), at most `pageSize` when given, with the offset of the next page.
template <typename T>
Result<std::pair<std::vector<T>, std::optional<std::string>>> Page(const ServiceRequest& request,
                                                                   std::vector<T> items) {
  const std::string* token = QueryValue(request, "pageToken");
  if (!token) return std::pair{std::move(items), std::optional<std::string>()};
  auto parse = [](const std::string& text, std::string_view what) -> Result<size_t> {
    size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return InvalidArgument("{} '{}' is not a non-negative integer", what, text);
    }
    return value;
  };
  size_t offset = 0;
  if (!token->empty()) {
    FLOE_ASSIGN_OR_RETURN(offset, parse(*token, "pageToken"));
  }
  size_t size = items.size();
  if (const std::string* page_size = QueryValue(request, "pageSize")) {
    FLOE_ASSIGN_OR_RETURN(size, parse(*page_size, "pageSize"));
    if (size == 0) return InvalidArgument("pageSize must be at least 1");
  }
  offset = std::min(offset, items.size());
  size_t end = offset + std::min(size, items.size() - offset);
  std::vector<T> page(std::make_move_iterator(items.begin() + offset),
                      std::make_move_iterator(items.begin() + end));
  std::optional<std::string> next;
  if (end < items.size()) next = std::to_string(end);
  return std::pair{std::move(page), std::move(next)};
}

template <typename F>
auto ParseBody(const ServiceRequest& request, F from_json)
    -> decltype(from_json(std::declval<const Json&>())) {
  auto json = Json::Parse(request.body);
  if (!json) return InvalidArgument("request body is not JSON: {}", json.error().message());
  auto parsed = from_json(*json);
  if (!parsed) return InvalidArgument("bad request body: {}", parsed.error().message());
  return parsed;
}

bool Contains(const std::vector<std::string>& keys, const std::string& key) {
  return std::ranges::find(keys, key) != keys.end();
}

}  // namespace

Result<Namespace> NamespaceFromPathSegment(std::string_view segment) {
  Namespace ns;
  while (true) {
    size_t end = segment.find(kUnitSeparator);
    std::string_view level = segment.substr(0, end);
    FLOE_RETURN_IF_ERROR(ValidateIdentifierPart(level, "namespace level"));
    ns.levels.emplace_back(level);
    if (end == std::string_view::npos) break;
    segment.remove_prefix(end + 1);
  }
  return ns;
}

RestService::RestService(std::shared_ptr<Catalog> catalog, std::string warehouse,
                         StringMap table_config)
    : catalog_(std::move(catalog)),
      warehouse_(std::move(warehouse)),
      table_config_(std::move(table_config)) {
  // The endpoint is vended with a trailing '/': ClickHouse's REST catalog client (26.7) finds the
  // metadata file inside the table's location only then, and otherwise asks for the location
  // twice over (bucket/wh/db/t/bucket/wh/db/t/metadata/...). floe's S3 client takes either form.
  if (auto it = table_config_.find("s3.endpoint");
      it != table_config_.end() && !it->second.empty() && !it->second.ends_with('/')) {
    it->second += '/';
  }
}

namespace {

// The handlers of one request, with the service's parts.
struct Handler {
  Catalog& catalog;
  const std::string& warehouse;
  const StringMap& table_config;
  LruCache<std::string, std::string>& load_bodies;
  const ServiceRequest& request;

  ServiceResponse Loaded(const LoadedTable& table, int status = 200) const {
    LoadTableResult result{table.metadata_location, table.metadata, table_config, {}};
    return JsonResponse(status, ToJson(result));
  }

  // The metadata's JSON text: read back from its file when that is plain JSON (reading is much
  // cheaper than serialising a large table's metadata), else serialised.
  std::string MetadataText(const LoadedTable& table) const {
    if (!table.metadata_location.empty()) {
      auto text = catalog.file_io()->ReadFile(table.metadata_location);
      if (text && !text->empty() && text->front() == '{') return *std::move(text);
    }
    return TableMetadataToJsonString(*table.metadata);
  }

  ServiceResponse Config() const {
    ConfigResponse config;
    config.endpoints = {"GET /v1/{prefix}/namespaces",
                        "POST /v1/{prefix}/namespaces",
                        "GET /v1/{prefix}/namespaces/{namespace}",
                        "HEAD /v1/{prefix}/namespaces/{namespace}",
                        "DELETE /v1/{prefix}/namespaces/{namespace}",
                        "POST /v1/{prefix}/namespaces/{namespace}/properties",
                        "GET /v1/{prefix}/namespaces/{namespace}/tables",
                        "POST /v1/{prefix}/namespaces/{namespace}/tables",
                        "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                        "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                        "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                        "POST /v1/{prefix}/namespaces/{namespace}/register",
                        "POST /v1/{prefix}/tables/rename",
                        "POST /v1/{prefix}/transactions/commit"};
    return JsonResponse(200, ToJson(config));
  }

  ServiceResponse ListNamespaces() const {
    Namespace parent;
    if (const std::string* text = QueryValue(request, "parent"); text && !text->empty()) {
      auto parsed = NamespaceFromPathSegment(*text);
      if (!parsed) return ErrorResponse(parsed.error(), Subject::kNamespace);
      parent = std::move(*parsed);
    }
    auto namespaces = catalog.ListNamespaces(parent);
    if (!namespaces) return ErrorResponse(namespaces.error(), Subject::kNamespace);
    std::ranges::sort(*namespaces);
    auto page = Page(request, std::move(*namespaces));
    if (!page) return ErrorResponse(page.error(), Subject::kNamespace);
    return JsonResponse(200, ToJson(NamespaceList{std::move(page->first), page->second}));
  }

  ServiceResponse CreateNamespace() const {
    auto message = ParseBody(request, NamespaceMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kNamespace);
    if (Status status = Validate(message->ns); !status) {
      return ErrorResponse(status.error(), Subject::kNamespace);
    }
    if (Status status = catalog.CreateNamespace(message->ns, message->properties); !status) {
      return ErrorResponse(status.error(), Subject::kNamespace);
    }
    return LoadNamespace(message->ns);
  }

  ServiceResponse LoadNamespace(const Namespace& ns) const {
    auto properties = catalog.LoadNamespaceProperties(ns);
    if (!properties) return ErrorResponse(properties.error(), Subject::kNamespace);
    return JsonResponse(200, ToJson(NamespaceMessage{ns, std::move(*properties)}));
  }

  ServiceResponse NamespaceExists(const Namespace& ns) const {
    auto exists = catalog.NamespaceExists(ns);
    if (!exists) return ErrorResponse(exists.error(), Subject::kNamespace);
    return *exists ? NoContent() : ServiceResponse{404, "", ""};
  }

  ServiceResponse DropNamespace(const Namespace& ns) const {
    Status status = catalog.DropNamespace(ns);
    if (!status && status.error().kind() == ErrorKind::kInvalidArgument) {
      return ErrorResponse(409, "NamespaceNotEmptyException", status.error().message());
    }
    if (!status) return ErrorResponse(status.error(), Subject::kNamespace);
    return NoContent();
  }

  ServiceResponse UpdateNamespaceProperties(const Namespace& ns) const {
    auto message = ParseBody(request, UpdateNamespacePropertiesMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kNamespace);
    for (const std::string& key : message->removals) {
      if (message->updates.contains(key)) {
        return ErrorResponse(422, "UnprocessableEntityException",
                             "property '" + key + "' is both updated and removed");
      }
    }
    auto before = catalog.LoadNamespaceProperties(ns);
    if (!before) return ErrorResponse(before.error(), Subject::kNamespace);
    UpdateNamespacePropertiesResult result;
    std::vector<std::string> removals;
    for (const std::string& key : message->removals) {
      if (before->contains(key)) {
        if (!Contains(removals, key)) removals.push_back(key);
      } else if (!Contains(result.missing, key)) {
        result.missing.push_back(key);
      }
    }
    if (Status status = catalog.UpdateNamespaceProperties(ns, message->updates, removals);
        !status) {
      return ErrorResponse(status.error(), Subject::kNamespace);
    }
    for (const auto& [key, value] : message->updates) result.updated.push_back(key);
    result.removed = std::move(removals);
    return JsonResponse(200, ToJson(result));
  }

  ServiceResponse ListTables(const Namespace& ns) const {
    auto tables = catalog.ListTables(ns);
    if (!tables) return ErrorResponse(tables.error(), Subject::kNamespace);
    std::ranges::sort(*tables);
    auto page = Page(request, std::move(*tables));
    if (!page) return ErrorResponse(page.error(), Subject::kNamespace);
    return JsonResponse(200, ToJson(TableList{std::move(page->first), page->second}));
  }

  ServiceResponse CreateTable(const Namespace& ns) const {
    auto message = ParseBody(request, CreateTableMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kTable);
    TableIdentifier ident{ns, message->name};
    if (Status status = Validate(ident); !status) {
      return ErrorResponse(status.error(), Subject::kTable);
    }
    if (!message->stage_create) {
      auto created = catalog.CreateTable(ident, message->request);
      if (!created) return ErrorResponse(created.error(), Subject::kTable);
      return Loaded(*created);
    }
    // A staged create: the metadata the table would get, committed later by a create commit.
    auto ns_exists = catalog.NamespaceExists(ns);
    if (!ns_exists) return ErrorResponse(ns_exists.error(), Subject::kNamespace);
    if (!*ns_exists) {
      return ErrorResponse(404, "NoSuchNamespaceException",
                           "namespace " + ns.ToString() + " does not exist");
    }
    auto exists = catalog.TableExists(ident);
    if (!exists) return ErrorResponse(exists.error(), Subject::kTable);
    if (*exists) {
      return ErrorResponse(409, "AlreadyExistsException",
                           "table " + ident.ToString() + " already exists");
    }
    std::string location = message->request.location;
    if (location.empty()) {
      if (warehouse.empty()) {
        return ErrorResponse(400, "BadRequestException",
                             "table " + ident.ToString() +
                                 " has no location and the catalog no "
                                 "warehouse");
      }
      location = DefaultTableLocation(warehouse, ident);
    }
    auto metadata = NewTableMetadata(message->request, io::NormalizeLocation(location), NowMs());
    if (!metadata) return ErrorResponse(metadata.error(), Subject::kTable);
    return Loaded(LoadedTable{ident, "", *metadata});
  }

  ServiceResponse LoadTable(const TableIdentifier& ident) const {
    bool refs_only = false;
    if (const std::string* snapshots = QueryValue(request, "snapshots")) {
      if (*snapshots != "all" && *snapshots != "refs") {
        return ErrorResponse(400, "BadRequestException",
                             "snapshots must be 'all' or 'refs', not '" + *snapshots + "'");
      }
      refs_only = *snapshots == "refs";
    }
    auto table = catalog.LoadTable(ident);
    if (!table) return ErrorResponse(table.error(), Subject::kTable);
    std::string key = table->metadata_location + (refs_only ? "\nrefs" : "");
    std::string etag = TableEtag(key);
    if (request.if_none_match == etag) return {304, "", etag};
    std::shared_ptr<const std::string> body = load_bodies.Get(key);
    if (!body) {
      LoadTableResult result{table->metadata_location, table->metadata, table_config, {}};
      body = std::make_shared<const std::string>(LoadTableResultText(
          result, refs_only ? RefsOnlyMetadataText(*table->metadata) : MetadataText(*table)));
      load_bodies.Put(key, body);
    }
    return {200, *body, std::move(etag)};
  }

  ServiceResponse TableExists(const TableIdentifier& ident) const {
    auto exists = catalog.TableExists(ident);
    if (!exists) return ErrorResponse(exists.error(), Subject::kTable);
    return *exists ? NoContent() : ServiceResponse{404, "", ""};
  }

  ServiceResponse CommitTable(const TableIdentifier& ident) const {
    auto message = ParseBody(request, CommitTableMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kTable);
    if (message->identifier && *message->identifier != ident) {
      return ErrorResponse(400, "BadRequestException",
                           "the body names table " + message->identifier->ToString() +
                               ", the path " + ident.ToString());
    }
    auto committed = catalog.CommitTable(ident, message->commit);
    if (!committed) return ErrorResponse(committed.error(), Subject::kTable);
    return {200, CommitTableResponseText(committed->metadata_location, MetadataText(*committed)),
            ""};
  }

  ServiceResponse DropTable(const TableIdentifier& ident) const {
    const std::string* purge = QueryValue(request, "purgeRequested");
    Status status = catalog.DropTable(ident, purge && *purge == "true");
    if (!status) return ErrorResponse(status.error(), Subject::kTable);
    return NoContent();
  }

  ServiceResponse RegisterTable(const Namespace& ns) const {
    auto message = ParseBody(request, RegisterTableMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kTable);
    if (message->overwrite) {
      return ErrorResponse(406, "UnsupportedOperationException",
                           "register with overwrite is not supported");
    }
    TableIdentifier ident{ns, message->name};
    if (Status status = Validate(ident); !status) {
      return ErrorResponse(status.error(), Subject::kTable);
    }
    auto table = catalog.RegisterTable(ident, message->metadata_location);
    if (!table) return ErrorResponse(table.error(), Subject::kTable);
    return Loaded(*table);
  }

  ServiceResponse RenameTable() const {
    auto message = ParseBody(request, RenameTableMessageFromJson);
    if (!message) return ErrorResponse(message.error(), Subject::kTable);
    for (const TableIdentifier* ident : {&message->source, &message->destination}) {
      if (Status status = Validate(*ident); !status) {
        return ErrorResponse(status.error(), Subject::kTable);
      }
    }
    Status status = catalog.RenameTable(message->source, message->destination);
    if (!status) return ErrorResponse(status.error(), Subject::kTable);
    return NoContent();
  }

  ServiceResponse CommitTransaction() const {
    auto changes = ParseBody(request, TableChangesFromJson);
    if (!changes) return ErrorResponse(changes.error(), Subject::kTable);
    std::vector<TableChange> table_changes;
    for (CommitTableMessage& change : *changes) {
      if (Status status = Validate(*change.identifier); !status) {
        return ErrorResponse(status.error(), Subject::kTable);
      }
      table_changes.push_back({std::move(*change.identifier), std::move(change.commit)});
    }
    auto committed = CommitTables(catalog, table_changes);
    if (!committed) return ErrorResponse(committed.error(), Subject::kTable);
    return NoContent();
  }
};

ServiceResponse NotFoundRoute(const ServiceRequest& request) {
  return ErrorResponse(404, "NoSuchRouteException",
                       "no route for " + request.method + " " + request.path);
}

}  // namespace

ServiceResponse RestService::Handle(const ServiceRequest& request) const {
  Handler h{*catalog_, warehouse_, table_config_, load_bodies_, request};
  std::vector<std::string_view> s = Segments(request.path);
  const std::string& m = request.method;
  if (s.size() < 2 || s[0] != "v1") return NotFoundRoute(request);
  if (s.size() == 2 && s[1] == "config" && m == "GET") return h.Config();
  if (s.size() == 3 && s[1] == "tables" && s[2] == "rename" && m == "POST") {
    return h.RenameTable();
  }
  if (s.size() == 3 && s[1] == "transactions" && s[2] == "commit" && m == "POST") {
    return h.CommitTransaction();
  }
  if (s[1] != "namespaces") return NotFoundRoute(request);
  if (s.size() == 2) {
    if (m == "GET") return h.ListNamespaces();
    if (m == "POST") return h.CreateNamespace();
    return NotFoundRoute(request);
  }
  auto ns = NamespaceFromPathSegment(s[2]);
  if (!ns) return ErrorResponse(ns.error(), Subject::kNamespace);
  if (s.size() == 3) {
    if (m == "GET") return h.LoadNamespace(*ns);
    if (m == "HEAD") return h.NamespaceExists(*ns);
    if (m == "DELETE") return h.DropNamespace(*ns);
    return NotFoundRoute(request);
  }
  if (s.size() == 4 && s[3] == "properties" && m == "POST") {
    return h.UpdateNamespaceProperties(*ns);
  }
  if (s.size() == 4 && s[3] == "register" && m == "POST") return h.RegisterTable(*ns);
  if (s[3] != "tables") return NotFoundRoute(request);
  if (s.size() == 4) {
    if (m == "GET") return h.ListTables(*ns);
    if (m == "POST") return h.CreateTable(*ns);
    return NotFoundRoute(request);
  }
  if (s.size() != 5) return NotFoundRoute(request);
  TableIdentifier ident{*ns, std::string(s[4])};
  if (Status status = Validate(ident); !status) {
    return ErrorResponse(status.error(), Subject::kTable);
  }
  if (m == "GET") return h.LoadTable(ident);
  if (m == "HEAD") return h.TableExists(ident);
  if (m == "POST") return h.CommitTable(ident);
  if (m == "DELETE") return h.DropTable(ident);
  return NotFoundRoute(request);
}

}  // namespace floe::catalog::rest
