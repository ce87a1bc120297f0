#include "floe/catalog/rest/server/rest_server.h"

#include <gtest/gtest.h>

#include <thread>

#include "floe/catalog/rest/openapi_test_util.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/table_update_json.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/io/http/http_client.h"
#include "floe/spec/table_metadata.h"
#include "floe/testing/testing.h"

namespace floe::catalog::rest {
namespace {

// floe's REST server over a sql catalog in a temp folder, spoken to with plain HTTP requests.
class RestServerTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer({}); }

  void StartServer(ServerOptions options) {
    server_.reset();
    warehouse_ = (dir_.path() / "warehouse").string();
    auto catalog = CreateSqlCatalog(
        "served", {{"warehouse", warehouse_},
                   {"uri", "jdbc:sqlite:" + (dir_.path() / "catalog.db").string()}});
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    catalog_ = *catalog;
    auto service = std::make_shared<const RestService>(catalog_, warehouse_,
                                                       StringMap{{"s3.endpoint", "http://s3"}});
    options.port = 0;
    auto server = RestServer::Start(service, options);
    ASSERT_TRUE(server) << server.error().ToString();
    server_ = std::move(*server);
  }

  io::http::Response Send(const std::string& method, const std::string& path,
                          const std::string& body = "",
                          std::vector<io::http::Header> headers = {}) {
    io::http::Request request;
    request.method = method;
    request.url = server_->uri() + path;
    request.headers = std::move(headers);
    request.body = std::as_bytes(std::span(body));
    request.idempotent = false;
    auto response = http_.Send(request);
    EXPECT_TRUE(response) << method << " " << path << ": " << response.error().ToString();
    return response ? *response : io::http::Response{};
  }

  // Sends and expects status; records the body under schema for validation.
  std::string Expect(long status, const std::string& schema, const std::string& method,
                     const std::string& path, const std::string& body = "") {
    io::http::Response response = Send(method, path, body);
    EXPECT_EQ(response.status, status) << method << " " << path << ": " << response.body;
    if (!schema.empty()) bodies_.Add(schema, response.body);
    return response.body;
  }

  floe::testing::TempDir dir_;
  std::string warehouse_;
  std::shared_ptr<Catalog> catalog_;
  std::unique_ptr<RestServer> server_;
  io::http::Client http_{io::http::Client::Options{.max_attempts = 1}};
  openapi::OpenApiBodies bodies_;
};

std::string CreateTableBody(const std::string& name, bool stage) {
  CreateTableRequest request;
  request.schema = catalog::testing::SimpleSchema();
  return ToJson(CreateTableMessage{name, request, stage}).Dump();
}

TEST_F(RestServerTest, EveryResponseMatchesTheOpenApiDocument) {
  Expect(200, "CatalogConfig", "GET", "/v1/config");
  Expect(200, "CreateNamespaceResponse", "POST", "/v1/namespaces",
         R"({"namespace": ["db"], "properties": {"owner": "alice"}})");
  Expect(200, "CreateNamespaceResponse", "POST", "/v1/namespaces", R"({"namespace": ["db", "x"]})");
  std::string list = Expect(200, "ListNamespacesResponse", "GET", "/v1/namespaces");
  EXPECT_EQ(Json::Parse(list)->Find("namespaces")->Dump(), R"([["db"]])");
  std::string children = Expect(200, "ListNamespacesResponse", "GET", "/v1/namespaces?parent=db");
  EXPECT_EQ(Json::Parse(children)->Find("namespaces")->Dump(), R"([["db","x"]])");
  std::string loaded = Expect(200, "GetNamespaceResponse", "GET", "/v1/namespaces/db");
  EXPECT_EQ(Json::Parse(loaded)->Find("properties")->Find("owner")->as_string(), "alice");
  Expect(204, "", "HEAD", "/v1/namespaces/db%1Fx");
  Expect(404, "", "HEAD", "/v1/namespaces/nope");
  std::string updated =
      Expect(200, "UpdateNamespacePropertiesResponse", "POST", "/v1/namespaces/db/properties",
             R"({"updates": {"k": "v"}, "removals": ["owner", "absent"]})");
  EXPECT_EQ(Json::Parse(updated)->Find("missing")->Dump(), R"(["absent"])");

  std::string created = Expect(200, "LoadTableResult", "POST", "/v1/namespaces/db/tables",
                               CreateTableBody("t", false));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadTableResult result, LoadTableResultFromJson(*Json::Parse(created)));
  EXPECT_EQ(result.metadata->location(), warehouse_ + "/db/t");
  // The endpoint with the '/' ClickHouse's client needs (rest_service.h).
  EXPECT_EQ(result.config, (StringMap{{"s3.endpoint", "http://s3/"}}));
  Expect(200, "LoadTableResult", "POST", "/v1/namespaces/db/tables", CreateTableBody("s", true));
  Expect(200, "ListTablesResponse", "GET", "/v1/namespaces/db/tables");
  Expect(200, "LoadTableResult", "GET", "/v1/namespaces/db/tables/t");
  Expect(204, "", "HEAD", "/v1/namespaces/db/tables/t");
  Expect(404, "", "HEAD", "/v1/namespaces/db/tables/s");  // staged only

  TableCommit commit;
  commit.requirements = {AssertTableUuid{result.metadata->table_uuid()}};
  commit.updates = {SetProperties{{{"k", "v"}}}};
  Expect(200, "CommitTableResponse", "POST", "/v1/namespaces/db/tables/t",
         ToJson(CommitTableMessage{std::nullopt, commit}).Dump());
  // The same requirement on another uuid: a conflict, 409 CommitFailedException.
  commit.requirements = {AssertTableUuid{"00000000-0000-0000-0000-000000000000"}};
  std::string conflict = Expect(409, "IcebergErrorResponse", "POST", "/v1/namespaces/db/tables/t",
                                ToJson(CommitTableMessage{std::nullopt, commit}).Dump());
  EXPECT_EQ(ErrorModelFromJson(*Json::Parse(conflict))->type, "CommitFailedException");
  Expect(404, "IcebergErrorResponse", "GET", "/v1/namespaces/db/tables/missing");
  std::string no_ns = Expect(404, "IcebergErrorResponse", "GET", "/v1/namespaces/nope/tables");
  EXPECT_EQ(ErrorModelFromJson(*Json::Parse(no_ns))->type, "NoSuchNamespaceException");
  Expect(400, "IcebergErrorResponse", "POST", "/v1/namespaces", "{not json");
  Expect(409, "IcebergErrorResponse", "POST", "/v1/namespaces/db/tables",
         CreateTableBody("t", false));
  std::string not_empty = Expect(409, "IcebergErrorResponse", "DELETE", "/v1/namespaces/db");
  EXPECT_EQ(ErrorModelFromJson(*Json::Parse(not_empty))->type, "NamespaceNotEmptyException");
  Expect(404, "IcebergErrorResponse", "GET", "/v1/no/such/route");

  Expect(204, "", "POST", "/v1/tables/rename",
         R"({"source": {"namespace": ["db"], "name": "t"},
             "destination": {"namespace": ["db", "x"], "name": "u"}})");
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable renamed,
                            catalog_->LoadTable({Namespace{{"db", "x"}}, "u"}));
  Expect(204, "", "DELETE", "/v1/namespaces/db%1Fx/tables/u");
  Expect(200, "LoadTableResult", "POST", "/v1/namespaces/db/register",
         ToJson(RegisterTableMessage{"back", renamed.metadata_location}).Dump());
  EXPECT_TRUE(catalog_->TableExists({Namespace{{"db"}}, "back"}).value());
  Expect(204, "", "DELETE", "/v1/namespaces/db/tables/back?purgeRequested=true");
  EXPECT_FALSE(std::filesystem::exists(renamed.metadata_location));
  Expect(204, "", "DELETE", "/v1/namespaces/db%1Fx");
  FLOE_EXPECT_VALID_OPENAPI(bodies_);
}

TEST_F(RestServerTest, ListsArePagedWhenAPageTokenIsSent) {
  for (const char* name : {"e", "a", "d", "b", "c"}) {
    FLOE_ASSERT_OK(catalog_->CreateNamespace(Namespace{{name}}, {}));
  }
  // Without pageToken: everything at once, with no next-page-token.
  Json all = *Json::Parse(Expect(200, "ListNamespacesResponse", "GET", "/v1/namespaces"));
  EXPECT_EQ(all.Find("namespaces")->Dump(), R"([["a"],["b"],["c"],["d"],["e"]])");
  EXPECT_EQ(all.Find("next-page-token"), nullptr);
  std::vector<std::string> pages;
  std::string token;
  for (int i = 0; i < 5; ++i) {
    Json page = *Json::Parse(Expect(200, "ListNamespacesResponse", "GET",
                                    "/v1/namespaces?pageSize=2&pageToken=" + token));
    pages.push_back(page.Find("namespaces")->Dump());
    if (!page.Find("next-page-token")) break;
    token = page.Find("next-page-token")->as_string();
  }
  EXPECT_EQ(pages,
            (std::vector<std::string>{R"([["a"],["b"]])", R"([["c"],["d"]])", R"([["e"]])"}));
  Expect(400, "IcebergErrorResponse", "GET", "/v1/namespaces?pageSize=0&pageToken=");
  Expect(400, "IcebergErrorResponse", "GET", "/v1/namespaces?pageToken=x");
  FLOE_EXPECT_VALID_OPENAPI(bodies_);
}

TEST_F(RestServerTest, StagedCreateIsCommittedByACreateCommit) {
  FLOE_ASSERT_OK(catalog_->CreateNamespace(Namespace{{"db"}}, {}));
  std::string staged = Expect(200, "LoadTableResult", "POST", "/v1/namespaces/db/tables",
                              CreateTableBody("ctas", true));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadTableResult result, LoadTableResultFromJson(*Json::Parse(staged)));
  EXPECT_TRUE(result.metadata_location.empty());
  EXPECT_EQ(result.metadata->location(), warehouse_ + "/db/ctas");
  TableIdentifier ident{Namespace{{"db"}}, "ctas"};
  EXPECT_FALSE(catalog_->TableExists(ident).value());
  // The client commits what it staged: assert-create and the updates of the whole table.
  TableCommit commit{{AssertCreate{}}, UpdatesToCreate(*result.metadata)};
  std::string committed =
      Expect(200, "CommitTableResponse", "POST", "/v1/namespaces/db/tables/ctas",
             ToJson(CommitTableMessage{ident, commit}).Dump());
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog_->LoadTable(ident));
  EXPECT_EQ(table.metadata->table_uuid(), result.metadata->table_uuid());
  EXPECT_EQ(table.metadata_location,
            Json::Parse(committed)->Find("metadata-location")->as_string());
  // Staging a table that exists is refused.
  Expect(409, "IcebergErrorResponse", "POST", "/v1/namespaces/db/tables",
         CreateTableBody("ctas", true));
  FLOE_EXPECT_VALID_OPENAPI(bodies_);
}

TEST_F(RestServerTest, LoadAnswersNotModifiedWhileTheTableIsUnchanged) {
  FLOE_ASSERT_OK(catalog_->CreateNamespace(Namespace{{"db"}}, {}));
  TableIdentifier ident{Namespace{{"db"}}, "t"};
  CreateTableRequest request;
  request.schema = catalog::testing::SimpleSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog_->CreateTable(ident, request));
  io::http::Response first = Send("GET", "/v1/namespaces/db/tables/t");
  ASSERT_EQ(first.status, 200);
  std::string etag(first.header("etag"));
  ASSERT_FALSE(etag.empty());
  io::http::Response same =
      Send("GET", "/v1/namespaces/db/tables/t", "", {{"If-None-Match", etag}});
  EXPECT_EQ(same.status, 304);
  EXPECT_TRUE(same.body.empty());
  TableCommit commit{{}, {SetProperties{{{"k", "v"}}}}};
  FLOE_ASSERT_OK(catalog_->CommitTable(ident, commit));
  io::http::Response changed =
      Send("GET", "/v1/namespaces/db/tables/t", "", {{"If-None-Match", etag}});
  EXPECT_EQ(changed.status, 200);
  EXPECT_NE(changed.header("etag"), etag);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadTableResult result,
                            LoadTableResultFromJson(*Json::Parse(changed.body)));
  EXPECT_EQ(result.metadata->property("k"), "v");
}

// Snapshots that only the metadata holds: 1 <- 2 <- 3 on main, and a tag on 1.
void CommitThreeSnapshots(Catalog& catalog, const TableIdentifier& ident) {
  for (int64_t id = 1; id <= 3; ++id) {
    FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, catalog.LoadTable(ident));
    auto snapshot = std::make_shared<Snapshot>();
    snapshot->snapshot_id = id;
    if (id > 1) snapshot->parent_snapshot_id = id - 1;
    snapshot->sequence_number = table.metadata->last_sequence_number() + 1;
    snapshot->timestamp_ms = table.metadata->last_updated_ms() + 1;
    snapshot->manifest_list = table.metadata->location() + "/metadata/snap.avro";
    snapshot->summary = {{"operation", "append"}};
    SnapshotRef main;
    main.snapshot_id = id;
    TableCommit commit{{}, {AddSnapshot{snapshot}, SetSnapshotRef{"main", main}}};
    if (id == 1) {
      SnapshotRef tag;
      tag.snapshot_id = 1;
      tag.type = SnapshotRefType::kTag;
      commit.updates.push_back(SetSnapshotRef{"first", tag});
    }
    FLOE_ASSERT_OK(catalog.CommitTable(ident, commit));
  }
}

std::vector<int64_t> SnapshotIds(const std::string& body) {
  auto result = LoadTableResultFromJson(*Json::Parse(body));
  EXPECT_TRUE(result) << result.error().ToString();
  std::vector<int64_t> ids;
  if (result) {
    for (const SnapshotPtr& snapshot : result->metadata->snapshots()) {
      ids.push_back(snapshot->snapshot_id);
    }
  }
  return ids;
}

TEST_F(RestServerTest, LoadWithSnapshotsRefsSendsOnlyReferencedSnapshots) {
  FLOE_ASSERT_OK(catalog_->CreateNamespace(Namespace{{"db"}}, {}));
  TableIdentifier ident{Namespace{{"db"}}, "t"};
  CreateTableRequest request;
  request.schema = catalog::testing::SimpleSchema();
  FLOE_ASSERT_OK(catalog_->CreateTable(ident, request));
  CommitThreeSnapshots(*catalog_, ident);

  io::http::Response all = Send("GET", "/v1/namespaces/db/tables/t");
  io::http::Response all_named = Send("GET", "/v1/namespaces/db/tables/t?snapshots=all");
  io::http::Response refs = Send("GET", "/v1/namespaces/db/tables/t?snapshots=refs");
  ASSERT_EQ(all.status, 200);
  ASSERT_EQ(refs.status, 200) << refs.body;
  bodies_.Add("LoadTableResult", all.body);
  bodies_.Add("LoadTableResult", refs.body);
  EXPECT_EQ(SnapshotIds(all.body), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(all_named.body, all.body);
  EXPECT_EQ(SnapshotIds(refs.body), (std::vector<int64_t>{1, 3}));
  // The two forms are different representations: different ETags, and each one's 304.
  EXPECT_NE(refs.header("etag"), all.header("etag"));
  EXPECT_EQ(Send("GET", "/v1/namespaces/db/tables/t?snapshots=refs", "",
                 {{"If-None-Match", std::string(refs.header("etag"))}})
                .status,
            304);
  EXPECT_EQ(Send("GET", "/v1/namespaces/db/tables/t?snapshots=refs", "",
                 {{"If-None-Match", std::string(all.header("etag"))}})
                .status,
            200);
  // The body served from the cache follows a commit: the next load names the new metadata.
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable before, catalog_->LoadTable(ident));
  FLOE_ASSERT_OK(catalog_->CommitTable(ident, TableCommit{{}, {SetProperties{{{"k", "v"}}}}}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, catalog_->LoadTable(ident));
  ASSERT_NE(after.metadata_location, before.metadata_location);
  for (const char* query : {"", "?snapshots=refs"}) {
    io::http::Response loaded = Send("GET", std::string("/v1/namespaces/db/tables/t") + query);
    FLOE_ASSERT_OK_AND_ASSIGN(LoadTableResult result,
                              LoadTableResultFromJson(*Json::Parse(loaded.body)));
    EXPECT_EQ(result.metadata_location, after.metadata_location) << query;
    EXPECT_EQ(result.metadata->property("k"), "v") << query;
  }
  io::http::Response bad = Send("GET", "/v1/namespaces/db/tables/t?snapshots=some");
  EXPECT_EQ(bad.status, 400);
  bodies_.Add("IcebergErrorResponse", bad.body);
  FLOE_EXPECT_VALID_OPENAPI(bodies_);
}

TEST_F(RestServerTest, CredentialsGateEveryRequestBehindATokenThatExpires) {
  StartServer({.credentials = {"alice:secret"}, .token_lifetime_s = 1});
  Expect(401, "IcebergErrorResponse", "GET", "/v1/config");
  io::http::Response refused = Send(
      "POST", "/v1/oauth/tokens", "grant_type=client_credentials&client_id=alice&client_secret=no",
      {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(refused.status, 401) << refused.body;
  bodies_.Add("OAuthError", refused.body);
  io::http::Response granted =
      Send("POST", "/v1/oauth/tokens",
           "grant_type=client_credentials&client_id=alice&client_secret=secret&scope=catalog",
           {{"Content-Type", "application/x-www-form-urlencoded"}});
  ASSERT_EQ(granted.status, 200) << granted.body;
  bodies_.Add("OAuthTokenResponse", granted.body);
  FLOE_ASSERT_OK_AND_ASSIGN(OAuthToken token, OAuthTokenFromJson(*Json::Parse(granted.body)));
  EXPECT_EQ(token.expires_in_s, 1);
  std::vector<io::http::Header> bearer = {{"Authorization", "Bearer " + token.access_token}};
  EXPECT_EQ(Send("GET", "/v1/config", "", bearer).status, 200);
  EXPECT_EQ(Send("GET", "/v1/config", "", {{"Authorization", "Bearer forged"}}).status, 401);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  io::http::Response expired = Send("GET", "/v1/config", "", bearer);
  EXPECT_EQ(expired.status, 419) << expired.body;
  bodies_.Add("IcebergErrorResponse", expired.body);
  FLOE_EXPECT_VALID_OPENAPI(bodies_);
}

}  // namespace
}  // namespace floe::catalog::rest
