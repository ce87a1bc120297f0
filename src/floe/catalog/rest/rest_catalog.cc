#include "floe/catalog/rest/rest_catalog.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "floe/catalog/multi_table_commit.h"
#include "floe/catalog/rest/rest_errors.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_session_internal.h"
#include "floe/io/prefix_file_io.h"
#include "floe/util/url_encode.h"

namespace floe::catalog {
namespace {

using rest::CallResult;
using rest::EncodePathPart;
using rest::NamespacePath;

// The status of a call whose response body does not matter.
Status Done(Result<Json> result) {
  if (!result) return std::unexpected(std::move(result.error()));
  return {};
}

// What a call expects of its response.
enum class Kind : unsigned char { kRead, kWrite, kCommit };

class RestCatalog final : public Catalog, public MultiTableCommitter {
 public:
  // endpoints: what the server's config lists ("GET /v1/{prefix}/namespaces"...); empty when it
  // lists none, and then every route is tried.
  RestCatalog(std::string name, StringMap properties, std::unique_ptr<rest::RestSession> session,
              std::vector<std::string> endpoints)
      : name_(std::move(name)),
        properties_(std::move(properties)),
        session_(std::move(session)),
        io_(std::make_shared<io::PrefixFileIO>(properties_)),
        endpoints_(endpoints.begin(), endpoints.end()) {
    if (auto it = properties_.find("rest.page-size"); it != properties_.end()) {
      page_size_ = it->second;
    }
  }

  const std::string& name() const override { return name_; }
  std::shared_ptr<io::FileIO> file_io() const override { return io_; }

  Status CreateNamespace(const Namespace& ns, const StringMap& properties) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    std::string body = ToJson(rest::NamespaceMessage{ns, properties}).Dump();
    return Done(Call("POST", NamespacesPath(), "", body, Kind::kWrite,
                     "create namespace " + ns.ToString()));
  }

  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    std::string query;
    if (!parent.empty()) {
      FLOE_RETURN_IF_ERROR(Validate(parent));
      query = "parent=" + NamespacePath(parent);
    }
    std::vector<Namespace> out;
    std::optional<std::string> token;
    do {
      FLOE_ASSIGN_OR_RETURN(Json json, Call("GET", NamespacesPath(), PageQuery(query, token), "",
                                            Kind::kRead, "list namespaces"));
      FLOE_ASSIGN_OR_RETURN(rest::NamespaceList list,
                            Decode(rest::NamespaceListFromJson, json, "list namespaces"));
      out.insert(out.end(), list.namespaces.begin(), list.namespaces.end());
      token = std::move(list.next_page_token);
    } while (token);
    return out;
  }

  Result<bool> NamespaceExists(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    return Exists(NamespaceUrl(ns), "namespace " + ns.ToString());
  }

  Result<StringMap> LoadNamespaceProperties(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    std::string what = "load namespace " + ns.ToString();
    FLOE_ASSIGN_OR_RETURN(Json json, Call("GET", NamespaceUrl(ns), "", "", Kind::kRead, what));
    FLOE_ASSIGN_OR_RETURN(rest::NamespaceMessage message,
                          Decode(rest::NamespaceMessageFromJson, json, what));
    return message.properties;
  }

  Status UpdateNamespaceProperties(const Namespace& ns, const StringMap& updates,
                                   const std::vector<std::string>& removals) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    std::string body = ToJson(rest::UpdateNamespacePropertiesMessage{updates, removals}).Dump();
    return Done(Call("POST", NamespaceUrl(ns) + "/properties", "", body, Kind::kWrite,
                     "update namespace " + ns.ToString()));
  }

  Status DropNamespace(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    return Done(
        Call("DELETE", NamespaceUrl(ns), "", "", Kind::kWrite, "drop namespace " + ns.ToString()));
  }

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override {
    FLOE_RETURN_IF_ERROR(Validate(ns));
    std::string what = "list tables of " + ns.ToString();
    std::vector<TableIdentifier> out;
    std::optional<std::string> token;
    do {
      FLOE_ASSIGN_OR_RETURN(Json json, Call("GET", NamespaceUrl(ns) + "/tables",
                                            PageQuery("", token), "", Kind::kRead, what));
      FLOE_ASSIGN_OR_RETURN(rest::TableList list, Decode(rest::TableListFromJson, json, what));
      out.insert(out.end(), list.identifiers.begin(), list.identifiers.end());
      token = std::move(list.next_page_token);
    } while (token);
    return out;
  }

  Result<bool> TableExists(const TableIdentifier& ident) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    return Exists(TableUrl(ident), "table " + ident.ToString());
  }

  // With the ETag of the last load, so that an unchanged table comes back as 304 Not Modified
  // and is not decoded again.
  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    std::string what = "load table " + ident.ToString();
    std::optional<TaggedTable> cached;
    {
      std::lock_guard lock(mu_);
      if (auto it = loads_.find(ident); it != loads_.end()) cached = it->second;
    }
    FLOE_RETURN_IF_ERROR(Offered("GET", TableUrl(ident), what));
    auto result = session_->Call("GET", TableUrl(ident), "", "", true, cached ? cached->etag : "");
    if (result && result->status == 304 && cached) return cached->table;
    std::string etag = result ? result->etag : "";
    FLOE_ASSIGN_OR_RETURN(Json json, Interpret(std::move(result), Kind::kRead, what));
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, Loaded(ident, json, what));
    std::lock_guard lock(mu_);
    if (etag.empty()) {
      loads_.erase(ident);
    } else {
      loads_[ident] = TaggedTable{std::move(etag), table};
    }
    return table;
  }

  Result<LoadedTable> CreateTable(const TableIdentifier& ident,
                                  const CreateTableRequest& request) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    if (!request.schema) return InvalidArgument("create table {}: no schema", ident.ToString());
    std::string what = "create table " + ident.ToString();
    std::string body = ToJson(rest::CreateTableMessage{ident.name, request, false}).Dump();
    FLOE_ASSIGN_OR_RETURN(
        Json json, Call("POST", NamespaceUrl(ident.ns) + "/tables", "", body, Kind::kWrite, what));
    return Loaded(ident, json, what);
  }

  Result<LoadedTable> CommitTable(const TableIdentifier& ident,
                                  const TableCommit& commit) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    std::string what = "commit to table " + ident.ToString();
    std::string body = ToJson(rest::CommitTableMessage{ident, commit}).Dump();
    FLOE_ASSIGN_OR_RETURN(Json json, Call("POST", TableUrl(ident), "", body, Kind::kCommit, what));
    auto table = rest::CommitTableResponseFromJson(json, ident);
    if (!table) {
      // The server answered 200: the commit landed, only its answer cannot be read.
      return CommitStateUnknown("{}: the server accepted the commit but its response is bad: {}",
                                what, table.error().message());
    }
    return table;
  }

  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override {
    FLOE_RETURN_IF_ERROR(Validate(from));
    FLOE_RETURN_IF_ERROR(Validate(to));
    std::string body = ToJson(rest::RenameTableMessage{from, to}).Dump();
    return Done(Call("POST", session_->Root() + "/tables/rename", "", body, Kind::kWrite,
                     fmt::format("rename table {} to {}", from.ToString(), to.ToString())));
  }

  Status DropTable(const TableIdentifier& ident, bool purge) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    return Done(Call("DELETE", TableUrl(ident), purge ? "purgeRequested=true" : "", "",
                     Kind::kWrite, "drop table " + ident.ToString()));
  }

  Result<LoadedTable> RegisterTable(const TableIdentifier& ident,
                                    const std::string& metadata_location) override {
    FLOE_RETURN_IF_ERROR(Validate(ident));
    std::string what = "register table " + ident.ToString();
    std::string body = ToJson(rest::RegisterTableMessage{ident.name, metadata_location}).Dump();
    FLOE_ASSIGN_OR_RETURN(Json json, Call("POST", NamespaceUrl(ident.ns) + "/register", "", body,
                                          Kind::kWrite, what));
    return Loaded(ident, json, what);
  }

  Result<std::vector<LoadedTable>> CommitTables(std::span<const TableChange> changes) override {
    Json table_changes = Json::MakeArray();
    for (const TableChange& change : changes) {
      FLOE_RETURN_IF_ERROR(Validate(change.ident));
      table_changes.Push(ToJson(rest::CommitTableMessage{change.ident, change.commit}));
    }
    Json body = Json::MakeObject();
    body.Set("table-changes", std::move(table_changes));
    std::string what = fmt::format("commit a transaction of {} tables", changes.size());
    FLOE_RETURN_IF_ERROR(Call("POST", session_->Root() + "/transactions/commit", "", body.Dump(),
                              Kind::kCommit, what));
    // The response has no body: the tables as committed are loaded again.
    std::vector<LoadedTable> out;
    for (const TableChange& change : changes) {
      auto table = LoadTable(change.ident);
      if (!table) {
        return CommitStateUnknown("{}: committed, but table {} cannot be loaded after it: {}", what,
                                  change.ident.ToString(), table.error().message());
      }
      out.push_back(std::move(*table));
    }
    return out;
  }

 private:
  std::string NamespacesPath() const { return session_->Root() + "/namespaces"; }
  std::string NamespaceUrl(const Namespace& ns) const {
    return NamespacesPath() + "/" + NamespacePath(ns);
  }
  std::string TableUrl(const TableIdentifier& ident) const {
    return NamespaceUrl(ident.ns) + "/tables/" + EncodePathPart(ident.name);
  }

  std::string PageQuery(std::string query, const std::optional<std::string>& token) const {
    if (page_size_.empty() && !token) return query;
    auto add = [&](std::string_view key, std::string_view value) {
      if (!query.empty()) query += "&";
      query += fmt::format("{}={}", key, UrlEncodeForm(value));
    };
    add("pageToken", token.value_or(""));
    if (!page_size_.empty()) add("pageSize", page_size_);
    return query;
  }

  // The response's JSON body (null when it has none), or the error its status means.
  Result<Json> Call(std::string_view method, const std::string& path, std::string_view query,
                    const std::string& body, Kind kind, const std::string& what) {
    FLOE_RETURN_IF_ERROR(Offered(method, path, what));
    return Interpret(session_->Call(method, path, query, body, kind == Kind::kRead), kind, what);
  }

  // The endpoint of a route as the config's `endpoints` name it: "POST
  // /v1/{prefix}/namespaces/{namespace}/tables/{table}" for a path below Root().
  std::string Endpoint(std::string_view method, std::string_view path) const {
    std::string_view rest = std::string_view(path).substr(session_->Root().size());
    std::vector<std::string_view> parts;
    while (!rest.empty()) {
      rest.remove_prefix(1);  // the '/'
      size_t end = rest.find('/');
      parts.push_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    }
    if (parts.size() > 1 && parts[0] == "namespaces") parts[1] = "{namespace}";
    if (parts.size() > 3 && parts[2] == "tables") parts[3] = "{table}";
    std::string endpoint = fmt::format("{} /v1/{{prefix}}", method);
    for (std::string_view part : parts) fmt::format_to(std::back_inserter(endpoint), "/{}", part);
    return endpoint;
  }

  bool Offers(std::string_view method, std::string_view path) const {
    return endpoints_.empty() || endpoints_.contains(Endpoint(method, path));
  }

  // kUnsupported, before anything is sent, for a route the server's config does not list.
  Status Offered(std::string_view method, std::string_view path, const std::string& what) const {
    if (Offers(method, path)) return {};
    return Unsupported(
        "{}: the server does not offer {} (the endpoints of its config do not list it)", what,
        Endpoint(method, path));
  }

  Result<Json> Interpret(Result<CallResult> result, Kind kind, const std::string& what) {
    if (!result) {
      if (kind == Kind::kCommit) {
        return CommitStateUnknown("{}: {} (the commit may or may not have been applied)", what,
                                  result.error().message());
      }
      return std::unexpected(std::move(result.error().AddContext(what)));
    }
    if (result->status >= 200 && result->status < 300) {
      if (result->body.empty()) return Json();
      auto json = Json::Parse(result->body);
      if (!json) {
        if (kind == Kind::kCommit) {
          return CommitStateUnknown("{}: the server accepted the commit but sent no JSON", what);
        }
        return CorruptData("{}: the response is not JSON: {}", what, json.error().message());
      }
      return json;
    }
    rest::ErrorModel model;
    if (auto json = Json::Parse(result->body)) {
      if (auto parsed = rest::ErrorModelFromJson(*json)) model = std::move(*parsed);
    }
    if (model.type.empty() && model.message.empty()) model.message = result->body.substr(0, 200);
    return std::unexpected(rest::ModelToError(result->status, model, what, kind == Kind::kCommit));
  }

  template <typename F>
  auto Decode(F from_json, const Json& json, const std::string& what) -> decltype(from_json(json)) {
    auto decoded = from_json(json);
    if (!decoded) return std::unexpected(std::move(decoded.error().AddContext(what)));
    return decoded;
  }

  // HEAD, or GET where the server does not offer HEAD on the route.
  Result<bool> Exists(const std::string& path, const std::string& what) {
    std::string_view method = Offers("HEAD", path) ? "HEAD" : "GET";
    FLOE_RETURN_IF_ERROR(Offered(method, path, what + " exists"));
    FLOE_ASSIGN_OR_RETURN(CallResult result, session_->Call(method, path, "", "", true));
    if (result.status == 204 || result.status == 200) return true;
    if (result.status == 404) return false;
    return std::unexpected(rest::ModelToError(result.status, {}, what + " exists", false));
  }

  // What a LoadTableResult configures for storage: its `config` for the files under the table's
  // location, each of its `storage-credentials` (over that config) for the files under its prefix.
  void ConfigureStorage(const rest::LoadTableResult& result) {
    io_->Configure(result.metadata->location(), result.config);
    for (const rest::StorageCredential& credential : result.storage_credentials) {
      StringMap config = result.config;
      for (const auto& [key, value] : credential.config) config[key] = value;
      io_->Configure(credential.prefix, config);
    }
  }

  Result<LoadedTable> Loaded(const TableIdentifier& ident, const Json& json,
                             const std::string& what) {
    FLOE_ASSIGN_OR_RETURN(rest::LoadTableResult result,
                          Decode(rest::LoadTableResultFromJson, json, what));
    ConfigureStorage(result);
    return LoadedTable{ident, std::move(result.metadata_location), std::move(result.metadata)};
  }

  // A table as last loaded, with the ETag the server sent for it.
  struct TaggedTable {
    std::string etag;
    LoadedTable table;
  };

  std::string name_;
  StringMap properties_;
  std::unique_ptr<rest::RestSession> session_;
  std::shared_ptr<io::PrefixFileIO> io_;
  std::string page_size_;
  std::set<std::string, std::less<>> endpoints_;
  std::mutex mu_;
  std::map<TableIdentifier, TaggedTable> loads_;
};

}  // namespace

Result<std::shared_ptr<Catalog>> CreateRestCatalog(const std::string& name,
                                                   const StringMap& properties) {
  FLOE_ASSIGN_OR_RETURN(auto session, rest::RestSession::Make(properties));
  std::string query;
  if (auto it = properties.find("warehouse"); it != properties.end() && !it->second.empty()) {
    query = "warehouse=" + UrlEncodeForm(it->second);
  }
  std::string what = fmt::format("catalog {}: GET {}/v1/config", name, session->uri());
  auto called = session->Call("GET", "/v1/config", query, "", true);
  // The transport's message names the request already.
  if (!called) {
    return std::unexpected(std::move(called.error().AddContext(fmt::format("catalog {}", name))));
  }
  CallResult result = std::move(*called);
  auto json = Json::Parse(result.body);
  if (result.status != 200) {
    rest::ErrorModel model;
    if (json) {
      if (auto parsed = rest::ErrorModelFromJson(*json)) model = std::move(*parsed);
    }
    return std::unexpected(rest::ModelToError(result.status, model, what, false));
  }
  if (!json) return CorruptData("{}: the response is not JSON", what);
  auto config = rest::ConfigResponseFromJson(*json);
  if (!config) return std::unexpected(std::move(config.error().AddContext(what)));
  StringMap merged = config->defaults;
  for (const auto& [key, value] : properties) merged[key] = value;
  for (const auto& [key, value] : config->overrides) merged[key] = value;
  FLOE_RETURN_IF_ERROR(session->Configure(merged));
  return std::shared_ptr<Catalog>(std::make_shared<RestCatalog>(
      name, std::move(merged), std::move(session), std::move(config->endpoints)));
}

}  // namespace floe::catalog
