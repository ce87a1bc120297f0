#include "floe/catalog/rest/rest_catalog.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <mutex>
#include <thread>

#include "floe/catalog/multi_table_commit.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/server/rest_server.h"
#include "floe/catalog/sql/sql_catalog.h"
#include "floe/catalog/test_commits.h"
#include "floe/testing/fault_proxy.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

using testing::AppendCommit;
using testing::SimpleSchema;

const Namespace kDb{{"db"}};

CreateTableRequest Request() {
  CreateTableRequest request;
  request.schema = SimpleSchema();
  return request;
}

size_t CountFiles(const std::filesystem::path& folder, std::string_view suffix) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    count += entry.path().string().ends_with(suffix);
  }
  return count;
}

// floe's server over a sql catalog, and clients made by the catalog factory.
class RestCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = (dir_.path() / "warehouse").string();
    auto served = CreateSqlCatalog(
        "served", {{"warehouse", warehouse_},
                   {"uri", "jdbc:sqlite:" + (dir_.path() / "catalog.db").string()}});
    ASSERT_TRUE(served) << served.error().ToString();
    served_ = *served;
    auto service = std::make_shared<const rest::RestService>(served_, warehouse_, StringMap{});
    auto server = rest::RestServer::Start(service, {.port = 0});
    ASSERT_TRUE(server) << server.error().ToString();
    server_ = std::move(*server);
  }

  std::shared_ptr<Catalog> Client(const std::string& uri, StringMap extra = {}) {
    extra["catalog-type"] = "rest";
    extra["uri"] = uri;
    auto catalog = CreateCatalog("remote", extra);
    EXPECT_TRUE(catalog) << catalog.error().ToString();
    return catalog ? *catalog : nullptr;
  }

  floe::testing::TempDir dir_;
  std::string warehouse_;
  std::shared_ptr<Catalog> served_;
  std::unique_ptr<rest::RestServer> server_;
};

TEST_F(RestCatalogTest, TransactionsCommitEveryTableOrNone) {
  auto client = Client(server_->uri());
  ASSERT_TRUE(client);
  FLOE_ASSERT_OK(client->CreateNamespace(kDb, {}));
  TableIdentifier a{kDb, "a"};
  TableIdentifier b{kDb, "b"};
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base_a, client->CreateTable(a, Request()));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base_b, client->CreateTable(b, Request()));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit append_a, AppendCommit(*client->file_io(), base_a, "a1"));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit append_b, AppendCommit(*client->file_io(), base_b, "b1"));

  // b's change asserts a uuid b does not have: nothing lands, a's new metadata file is removed.
  TableCommit stale_b = append_b;
  stale_b.requirements.push_back(AssertTableUuid{"00000000-0000-0000-0000-000000000000"});
  std::vector<TableChange> failing{{a, append_a}, {b, stale_b}};
  auto failed = CommitTables(*client, failing);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind(), ErrorKind::kCommitFailed) << failed.error().ToString();
  EXPECT_EQ(served_->LoadTable(a)->metadata_location, base_a.metadata_location);
  EXPECT_EQ(served_->LoadTable(b)->metadata_location, base_b.metadata_location);
  EXPECT_EQ(CountFiles(warehouse_ + "/db/a/metadata", ".metadata.json"), 1u);

  std::vector<TableChange> good{{a, append_a}, {b, append_b}};
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<LoadedTable> committed, CommitTables(*client, good));
  ASSERT_EQ(committed.size(), 2u);
  for (const LoadedTable& table : committed) {
    FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable on_server, served_->LoadTable(table.ident));
    EXPECT_EQ(on_server.metadata_location, table.metadata_location);
    EXPECT_EQ(on_server.metadata->snapshots().size(), 1u);
  }
  // Once is enough: the same changes again no longer hold on the new bases.
  auto again = CommitTables(*client, good);
  ASSERT_FALSE(again);
  EXPECT_TRUE(again.error().retryable());
  EXPECT_EQ(served_->LoadTable(a)->metadata->snapshots().size(), 1u);
}

TEST_F(RestCatalogTest, ALostCommitResponseKeepsTheFilesAndIsNotCommittedTwice) {
  floe::testing::FaultProxy proxy(server_->uri());
  ASSERT_FALSE(proxy.endpoint().empty());
  auto client = Client(proxy.endpoint());
  ASSERT_TRUE(client);
  TableIdentifier t{kDb, "t"};
  FLOE_ASSERT_OK(client->CreateNamespace(kDb, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable base, client->CreateTable(t, Request()));
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit append, AppendCommit(*client->file_io(), base, "once"));

  proxy.FailRequest(1, floe::testing::FaultProxy::Fault::kDropAfter);
  auto lost = client->CommitTable(t, append);
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind(), ErrorKind::kCommitStateUnknown) << lost.error().ToString();
  EXPECT_EQ(proxy.log(), (std::vector<std::string>{"POST /v1/namespaces/db/tables/t"}));

  // The commit landed on the server, and everything it references is there.
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable after, client->LoadTable(t));
  ASSERT_EQ(after.metadata->snapshots().size(), 1u);
  SnapshotPtr snapshot = after.metadata->current_snapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->summary.at("writer"), "once");
  EXPECT_TRUE(std::filesystem::exists(snapshot->manifest_list));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> files,
                            testing::CurrentDataFiles(*client->file_io(), *after.metadata));
  EXPECT_EQ(files, (std::vector<std::string>{warehouse_ + "/db/t/data/once.parquet"}));
  // Sent again, the commit's requirements no longer hold: it does not land twice.
  auto retried = client->CommitTable(t, append);
  ASSERT_FALSE(retried);
  EXPECT_EQ(retried.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_EQ(client->LoadTable(t)->metadata->snapshots().size(), 1u);

  // A 503 from the proxy on a commit is just as unknown; on a read it is retried.
  proxy.FailRequest(1, floe::testing::FaultProxy::Fault::kSlowDown);
  FLOE_ASSERT_OK_AND_ASSIGN(TableCommit second, AppendCommit(*client->file_io(), after, "two"));
  auto unavailable = client->CommitTable(t, second);
  ASSERT_FALSE(unavailable);
  EXPECT_EQ(unavailable.error().kind(), ErrorKind::kCommitStateUnknown);
  proxy.FailRequest(1, floe::testing::FaultProxy::Fault::kSlowDown);
  FLOE_EXPECT_OK(client->LoadTable(t));
  EXPECT_EQ(proxy.requests(), 2);
}

TEST_F(RestCatalogTest, ConcurrentAppendsThroughTheServerLandOnceEach) {
  auto setup = Client(server_->uri());
  ASSERT_TRUE(setup);
  TableIdentifier t{kDb, "events"};
  FLOE_ASSERT_OK(setup->CreateNamespace(kDb, {}));
  FLOE_ASSERT_OK(setup->CreateTable(t, Request()));
  constexpr int kThreads = 4;
  constexpr int kCommits = 10;
  std::vector<Status> results(kThreads);
  std::vector<std::thread> threads;
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      auto client = Client(server_->uri());
      for (int i = 0; i < kCommits && client; ++i) {
        auto attempts = testing::AppendWithRetry(*client, t, fmt::format("w{}-{}", w, i));
        if (!attempts) {
          results[w] = std::unexpected(attempts.error());
          return;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const Status& result : results) FLOE_EXPECT_OK(result);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, served_->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> writers,
                            testing::ChainWriters(*table.metadata));
  EXPECT_EQ(writers.size(), size_t{kThreads * kCommits});
  EXPECT_EQ(std::set<std::string>(writers.begin(), writers.end()).size(),
            size_t{kThreads * kCommits});
}

// A server of the test's own, answering as the test says, for what floe's server never does.
class ScriptedServer {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
  explicit ScriptedServer(Handler handler) : handler_(std::move(handler)) {
    auto route = [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mu_);
        std::string line = req.method + " " + req.path;
        for (const char* header : {"Authorization", "X-A", "X-B", "If-None-Match"}) {
          if (req.has_header(header))
            line += fmt::format(" {}={}", header, req.get_header_value(header));
        }
        log_.push_back(line);
      }
      handler_(req, res);
    };
    server_.Get(".*", route);
    server_.Post(".*", route);
    server_.Delete(".*", route);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ScriptedServer() {
    server_.stop();
    thread_.join();
  }
  std::string uri() const { return fmt::format("http://127.0.0.1:{}", port_); }
  std::vector<std::string> log() {
    std::lock_guard lock(mu_);
    return log_;
  }

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::vector<std::string> log_;
};

void Reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(body.Dump(), "application/json");
}

void ReplyError(httplib::Response& res, int status, const std::string& type) {
  Reply(res, status, ToJson(rest::ErrorModel{"scripted " + type, type, status}));
}

TEST(RestCatalogScriptedTest, ConfigDefaultsThenClientPropertiesThenOverrides) {
  ScriptedServer server([](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/config") {
      EXPECT_EQ(req.get_param_value("warehouse"), "wh one");
      rest::ConfigResponse config;
      config.defaults = {
          {"prefix", "from-defaults"}, {"header.X-A", "default"}, {"header.X-B", "default"}};
      config.overrides = {{"header.X-B", "override"}};
      Reply(res, 200, ToJson(config));
      return;
    }
    Reply(res, 200, ToJson(rest::NamespaceList{}));
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, CreateCatalog("c", {{"catalog-type", "rest"},
                                                              {"uri", server.uri() + "/v1"},
                                                              {"warehouse", "wh one"},
                                                              {"header.X-A", "client"},
                                                              {"header.X-B", "client"},
                                                              {"token", "t0k"}}));
  FLOE_ASSERT_OK(catalog->ListNamespaces(Namespace{}));
  EXPECT_EQ(server.log(),
            (std::vector<std::string>{
                "GET /v1/config Authorization=Bearer t0k X-A=client X-B=client",
                "GET /v1/from-defaults/namespaces Authorization=Bearer t0k X-A=client "
                "X-B=override"}));
}

TEST_F(RestCatalogTest, AnUnchangedTableIsNotSentAgain) {
  TableIdentifier t{kDb, "t"};
  FLOE_ASSERT_OK(served_->CreateNamespace(kDb, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable table, served_->CreateTable(t, Request()));
  std::string body =
      ToJson(rest::LoadTableResult{table.metadata_location, table.metadata, {}, {}}).Dump();
  ScriptedServer server([&](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/config") return Reply(res, 200, ToJson(rest::ConfigResponse{}));
    res.set_header("ETag", "\"v1\"");
    if (req.get_header_value("If-None-Match") == "\"v1\"") {
      res.status = 304;
      return;
    }
    res.status = 200;
    res.set_content(body, "application/json");
  });
  // Without the catalog cache in front, every load asks the server.
  auto client = Client(server.uri(), {{"cache-enabled", "false"}});
  ASSERT_TRUE(client);
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable first, client->LoadTable(t));
  FLOE_ASSERT_OK_AND_ASSIGN(LoadedTable second, client->LoadTable(t));
  EXPECT_EQ(first.metadata_location, table.metadata_location);
  EXPECT_EQ(second.metadata_location, table.metadata_location);
  EXPECT_EQ(second.metadata, first.metadata);  // the same object: nothing decoded again
  EXPECT_EQ(server.log(),
            (std::vector<std::string>{"GET /v1/config", "GET /v1/namespaces/db/tables/t",
                                      "GET /v1/namespaces/db/tables/t If-None-Match=\"v1\""}));
}

TEST(RestCatalogScriptedTest, ErrorsMeanWhatTheProtocolSays) {
  std::atomic<int> tokens = 0;
  ScriptedServer server([&](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/oauth/tokens") {
      EXPECT_NE(req.body.find("client_id=me"), std::string::npos) << req.body;
      rest::OAuthToken token{fmt::format("token{}", ++tokens), "bearer", 3600};
      Reply(res, 200, ToJson(token));
      return;
    }
    if (req.path == "/v1/config") {
      Reply(res, 200, ToJson(rest::ConfigResponse{}));
      return;
    }
    // The first token "expires" at once: 419, and the client must fetch another.
    if (req.get_header_value("Authorization") == "Bearer token1") {
      ReplyError(res, 419, "AuthenticationTimeoutException");
      return;
    }
    if (req.path.ends_with("/tables/conflict"))
      return ReplyError(res, 409, "CommitFailedException");
    if (req.path.ends_with("/tables/down")) {
      res.set_header("Retry-After", "1");
      return ReplyError(res, 503, "SlowDownException");
    }
    if (req.path.ends_with("/tables/broken"))
      return ReplyError(res, 500, "ServiceFailureException");
    if (req.path.ends_with("/tables/taken")) return ReplyError(res, 409, "AlreadyExistsException");
    if (req.path.ends_with("/tables")) return ReplyError(res, 409, "AlreadyExistsException");
    ReplyError(res, 404, "NoSuchTableException");
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, CreateCatalog("c", {{"catalog-type", "rest"},
                                                              {"uri", server.uri()},
                                                              {"credential", "me:pw"}}));
  TableCommit commit{{}, {SetProperties{{{"k", "v"}}}}};
  auto conflict = catalog->CommitTable({kDb, "conflict"}, commit);
  ASSERT_FALSE(conflict);
  EXPECT_EQ(conflict.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(conflict.error().retryable());
  EXPECT_NE(conflict.error().message().find("409 CommitFailedException"), std::string::npos)
      << conflict.error().message();
  EXPECT_EQ(tokens, 2);  // the 419 made the client fetch a second token and send again

  auto down = catalog->CommitTable({kDb, "down"}, commit);
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().kind(), ErrorKind::kCommitStateUnknown) << down.error().ToString();
  auto broken = catalog->CommitTable({kDb, "broken"}, commit);
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind(), ErrorKind::kCommitStateUnknown);
  auto missing = catalog->LoadTable({kDb, "missing"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message().find("HTTP 404 NoSuchTableException: scripted"),
            std::string::npos)
      << missing.error().message();
  auto taken = catalog->CreateTable({kDb, "x"}, Request());
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind(), ErrorKind::kAlreadyExists);
  // A read that keeps failing with 5xx is retried, then reported as an I/O error.
  auto unavailable = catalog->LoadTable({kDb, "broken"});
  ASSERT_FALSE(unavailable);
  EXPECT_EQ(unavailable.error().kind(), ErrorKind::kIO);
  size_t loads = 0;
  for (const std::string& line : server.log())
    loads += line.starts_with("GET /v1/namespaces/db/tables/broken");
  EXPECT_GT(loads, 1u);
}

TEST(RestCatalogScriptedTest, RoutesTheConfigDoesNotListAreRefusedOrReplaced) {
  ScriptedServer server([](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/config") {
      rest::ConfigResponse config;
      config.endpoints = {"GET /v1/{prefix}/namespaces", "GET /v1/{prefix}/namespaces/{namespace}",
                          "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}"};
      Reply(res, 200, ToJson(config));
      return;
    }
    if (req.path == "/v1/namespaces") return Reply(res, 200, ToJson(rest::NamespaceList{}));
    if (req.path == "/v1/namespaces/db") {
      return Reply(res, 200, ToJson(rest::NamespaceMessage{kDb, {}}));
    }
    ReplyError(res, 404,
               req.path.find("/tables/") != std::string::npos ? "NoSuchTableException"
                                                              : "NoSuchNamespaceException");
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog,
                            CreateCatalog("c", {{"catalog-type", "rest"}, {"uri", server.uri()}}));
  FLOE_ASSERT_OK(catalog->ListNamespaces(Namespace{}));
  // No HEAD in the list: existence is asked with GET.
  EXPECT_EQ(catalog->NamespaceExists(kDb), true);
  EXPECT_EQ(catalog->NamespaceExists(Namespace{{"nope"}}), false);
  EXPECT_EQ(catalog->TableExists({kDb, "t"}), false);
  // Routes that are not listed are refused before anything is sent.
  auto created = catalog->CreateTable({kDb, "t"}, Request());
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(created.error().message().find(
                "does not offer POST /v1/{prefix}/namespaces/{namespace}/tables"),
            std::string::npos)
      << created.error().message();
  auto committed = catalog->CommitTable({kDb, "t"}, TableCommit{{}, {SetProperties{{{"k", "v"}}}}});
  ASSERT_FALSE(committed);
  EXPECT_EQ(committed.error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(catalog->DropNamespace(kDb).error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(catalog->RenameTable({kDb, "t"}, {kDb, "u"}).error().kind(), ErrorKind::kUnsupported);
  EXPECT_EQ(server.log(), (std::vector<std::string>{
                              "GET /v1/config", "GET /v1/namespaces", "GET /v1/namespaces/db",
                              "GET /v1/namespaces/nope", "GET /v1/namespaces/db/tables/t"}));
}

// What botocore signs for a request the scripted server received (testdata/sigv4_botocore.py).
std::string BotocoreAuthorization(const httplib::Request& req, const std::string& url) {
  const std::string authorization = req.get_header_value("Authorization");
  size_t start = authorization.find("SignedHeaders=");
  if (start == std::string::npos) return "no SignedHeaders in '" + authorization + "'";
  start += std::string_view("SignedHeaders=").size();
  std::string signed_headers = authorization.substr(start, authorization.find(',', start) - start);
  Json headers = Json::MakeObject();
  for (std::string_view rest = signed_headers; !rest.empty();) {
    std::string name(rest.substr(0, rest.find(';')));
    headers.Set(name, Json(req.get_header_value(name)));
    rest.remove_prefix(std::min(rest.size(), name.size() + 1));
  }
  Json spec = Json::MakeObject();
  spec.Set("method", Json(req.method));
  spec.Set("url", Json(url + req.target));
  spec.Set("headers", std::move(headers));
  spec.Set("body", Json(req.body));
  spec.Set("access_key", Json("AKIDEXAMPLE"));
  spec.Set("secret_key", Json("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"));
  spec.Set("region", Json("eu-west-1"));
  spec.Set("service", Json("execute-api"));
  floe::testing::TempDir dir;
  std::string file = (dir.path() / "request.json").string();
  FILE* out = std::fopen(file.c_str(), "w");
  std::fputs(spec.Dump().c_str(), out);
  std::fclose(out);
  auto run = floe::testing::RunCommand(
      "python3 " +
      floe::testing::ShellQuote(std::string(FLOE_SOURCE_DIR) +
                                "/src/floe/catalog/rest/testdata/sigv4_botocore.py") +
      " " + floe::testing::ShellQuote(file));
  if (run.exit_code != 0) return "botocore failed: " + run.err;
  while (!run.out.empty() && run.out.back() == '\n') run.out.pop_back();
  return run.out;
}

TEST(RestCatalogScriptedTest, SigV4SignsEveryRequestAsBotocoreDoes) {
  if (floe::testing::RunCommand("python3 -c 'import botocore'").exit_code != 0) {
    GTEST_SKIP() << "python3 with botocore is needed to check the signatures";
  }
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> checked;  // (sent, botocore's)
  std::vector<std::string> original;
  std::string uri;
  ScriptedServer server([&](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard lock(mu);
      checked.emplace_back(req.get_header_value("Authorization"), BotocoreAuthorization(req, uri));
      original.push_back(req.get_header_value("Original-Authorization"));
    }
    if (req.path == "/v1/config") return Reply(res, 200, ToJson(rest::ConfigResponse{}));
    if (req.method == "POST") return ReplyError(res, 409, "CommitFailedException");
    Reply(res, 200, ToJson(rest::NamespaceList{}));
  });
  uri = server.uri();
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto catalog,
      CreateCatalog("c", {{"catalog-type", "rest"},
                          {"uri", server.uri()},
                          {"warehouse", "s3://bucket/wh"},
                          {"token", "t0k"},
                          {"rest.sigv4-enabled", "true"},
                          {"rest.signing-region", "eu-west-1"},
                          {"rest.access-key-id", "AKIDEXAMPLE"},
                          {"rest.secret-access-key", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}}));
  FLOE_ASSERT_OK(catalog->ListNamespaces(Namespace{{"a b"}}));
  auto conflict = catalog->CommitTable({kDb, "t"}, TableCommit{{}, {SetProperties{{{"k", "v"}}}}});
  EXPECT_EQ(conflict.error().kind(), ErrorKind::kCommitFailed);
  std::lock_guard lock(mu);
  ASSERT_EQ(checked.size(), 3u);  // config, the list (with a query), the commit (with a body)
  for (const auto& [sent, expected] : checked) {
    EXPECT_TRUE(sent.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")) << sent;
    EXPECT_NE(sent.find("/eu-west-1/execute-api/aws4_request"), std::string::npos) << sent;
    EXPECT_EQ(sent, expected);
  }
  EXPECT_EQ(original, (std::vector<std::string>(3, "Bearer t0k")));
  // A key without its secret is refused up front.
  auto unsigned_catalog = CreateCatalog("c", {{"catalog-type", "rest"},
                                              {"uri", server.uri()},
                                              {"rest.sigv4-enabled", "true"},
                                              {"rest.access-key-id", "AKIDEXAMPLE"}});
  ASSERT_FALSE(unsigned_catalog);
  EXPECT_EQ(unsigned_catalog.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::catalog
