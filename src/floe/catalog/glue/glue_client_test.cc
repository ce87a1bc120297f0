// The Glue client on its own: the JSON protocol as a server of the test's own sees it (target
// header, content type, SigV4 scope, CatalogId, NextToken pages), Glue's error types as floe
// errors, signatures that moto's signature check accepts, and the Hive type names of columns.

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "floe/catalog/glue/glue_client_internal.h"
#include "floe/catalog/glue/glue_operations_internal.h"
#include "floe/catalog/glue/glue_table_input_internal.h"
#include "floe/testing/s3_server.h"
#include "floe/testing/testing.h"

namespace floe::catalog::glue {
namespace {

// A Glue of the test's own: answers each request with handler, logs what it received.
class ScriptedGlue {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
  explicit ScriptedGlue(Handler handler) : handler_(std::move(handler)) {
    server_.Post("/", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mu_);
        requests_.push_back(req);
      }
      handler_(req, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ScriptedGlue() {
    server_.stop();
    thread_.join();
  }
  std::string endpoint() const { return fmt::format("http://127.0.0.1:{}", port_); }
  std::vector<httplib::Request> requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::vector<httplib::Request> requests_;
};

GlueClientOptions OptionsFor(const std::string& endpoint) {
  return GlueClientOptionsFrom({{"glue.endpoint", endpoint},
                                {"glue.id", "123456789012"},
                                {"client.region", "eu-west-1"},
                                {"s3.access-key-id", "AKIDEXAMPLE"},
                                {"s3.secret-access-key", "secret"}})
      .value();
}

TEST(GlueClientTest, SpeaksGluesJsonProtocolAndFollowsNextToken) {
  ScriptedGlue glue([](const httplib::Request& req, httplib::Response& res) {
    auto body = Json::Parse(req.body).value();
    std::string token = body.GetOptionalString("NextToken").value().value_or("");
    Json page = Json::MakeObject();
    Json list = Json::MakeArray();
    Json database = Json::MakeObject();
    database.Set("Name", token.empty() ? "first" : "second");
    list.Push(std::move(database));
    page.Set("DatabaseList", std::move(list));
    if (token.empty()) page.Set("NextToken", "page-2");
    res.set_content(page.Dump(), "application/x-amz-json-1.1");
  });
  GlueClient client(OptionsFor(glue.endpoint()));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<GlueDatabase> databases, GetDatabases(client));
  ASSERT_EQ(databases.size(), 2u);
  EXPECT_EQ(databases[0].name, "first");
  EXPECT_EQ(databases[1].name, "second");

  std::vector<httplib::Request> requests = glue.requests();
  ASSERT_EQ(requests.size(), 2u);
  for (const httplib::Request& req : requests) {
    EXPECT_EQ(req.path, "/");
    EXPECT_EQ(req.get_header_value("X-Amz-Target"), "AWSGlue.GetDatabases");
    EXPECT_EQ(req.get_header_value("Content-Type"), "application/x-amz-json-1.1");
    std::string authorization = req.get_header_value("Authorization");
    EXPECT_TRUE(authorization.starts_with("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
        << authorization;
    EXPECT_NE(authorization.find("/eu-west-1/glue/aws4_request"), std::string::npos)
        << authorization;
    EXPECT_EQ(Json::Parse(req.body).value().GetString("CatalogId").value_or(""), "123456789012");
  }
  EXPECT_EQ(Json::Parse(requests[1].body).value().GetString("NextToken").value_or(""), "page-2");
}

TEST(GlueClientTest, ErrorTypesBecomeFloeErrorsNamingTheOperation) {
  ScriptedGlue glue([](const httplib::Request& req, httplib::Response& res) {
    std::string target = req.get_header_value("X-Amz-Target");
    res.status = 400;
    if (target == "AWSGlue.GetTable") {
      res.set_content(R"({"__type":"com.amazonaws.glue#EntityNotFoundException","Message":"no t"})",
                      "application/x-amz-json-1.1");
    } else if (target == "AWSGlue.UpdateTable") {
      res.set_header("x-amzn-ErrorType", "ConcurrentModificationException:http://internal");
      res.set_content(R"({"message":"version moved"})", "application/x-amz-json-1.1");
    } else if (target == "AWSGlue.CreateTable") {
      res.set_content(R"({"__type":"AlreadyExistsException","message":"taken"})",
                      "application/x-amz-json-1.1");
    } else {
      res.status = 500;
      res.set_content("down", "text/plain");
    }
  });
  GlueClient client(OptionsFor(glue.endpoint()));
  auto missing = GetTable(client, "db", "t");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_EQ(missing.error().message(), "Glue GetTable: EntityNotFoundException: no t");
  auto conflict = UpdateTable(client, "db", Json::MakeObject(), "3", true);
  ASSERT_FALSE(conflict);
  EXPECT_EQ(conflict.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_TRUE(conflict.error().retryable());
  EXPECT_EQ(conflict.error().message(),
            "Glue UpdateTable: ConcurrentModificationException: version moved");
  auto taken = CreateTable(client, "db", Json::MakeObject());
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind(), ErrorKind::kAlreadyExists);
  auto down = DeleteDatabase(client, "db");
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().kind(), ErrorKind::kIO);
  EXPECT_EQ(down.error().message(), "Glue DeleteDatabase: HTTP 500: down");
  // A write is sent once; an idempotent read is retried by the HTTP client on a 5xx.
  int deletes = 0;
  for (const httplib::Request& req : glue.requests()) {
    deletes += req.get_header_value("X-Amz-Target") == "AWSGlue.DeleteDatabase";
  }
  EXPECT_EQ(deletes, 1);
}

// Glue throttles with HTTP 400 ThrottlingException, which says the request was not performed:
// a write (CreateTable, never retried on a 5xx) is sent again after a backoff and lands; throttling
// past the client's attempts is an error naming it.
TEST(GlueClientTest, ThrottledRequestsAreSentAgainEvenWrites) {
  std::atomic<int> creates{0};
  ScriptedGlue glue([&](const httplib::Request& req, httplib::Response& res) {
    std::string target = req.get_header_value("X-Amz-Target");
    if (target == "AWSGlue.CreateTable" && ++creates <= 2) {
      res.status = 400;
      res.set_content(R"({"__type":"ThrottlingException","message":"Rate exceeded"})",
                      "application/x-amz-json-1.1");
    } else if (target == "AWSGlue.DeleteTable") {
      res.status = 400;
      res.set_header("x-amzn-ErrorType", "ThrottlingException:http://internal");
      res.set_content(R"({"message":"Rate exceeded"})", "application/x-amz-json-1.1");
    } else {
      res.set_content("{}", "application/x-amz-json-1.1");
    }
  });
  GlueClientOptions options = OptionsFor(glue.endpoint());
  options.http.max_attempts = 4;
  options.http.backoff_base_ms = 1;
  GlueClient client(options);
  FLOE_EXPECT_OK(CreateTable(client, "db", Json::MakeObject()));
  EXPECT_EQ(creates.load(), 3);

  auto throttled = DeleteTable(client, "db", "t");
  ASSERT_FALSE(throttled);
  EXPECT_EQ(throttled.error().message(), "Glue DeleteTable: ThrottlingException: Rate exceeded");
  int deletes = 0;
  for (const httplib::Request& req : glue.requests()) {
    deletes += req.get_header_value("X-Amz-Target") == "AWSGlue.DeleteTable";
  }
  EXPECT_EQ(deletes, 4);
}

// moto's signature check (its IAM users and keys): floe's SigV4 for the service glue passes it,
// and a wrong secret does not.
TEST(GlueClientTest, SignedRequestsPassMotosSignatureCheck) {
  const floe::testing::S3Server& server = floe::testing::S3Server::Authenticating();
  if (!server.running()) GTEST_SKIP() << "no moto server: " << server.reason();
  if (floe::testing::RunCommand("command -v aws").exit_code != 0) {
    GTEST_SKIP() << "the aws CLI (to create the IAM user) is not installed";
  }
  std::string aws = fmt::format(
      "AWS_ACCESS_KEY_ID=setup AWS_SECRET_ACCESS_KEY=setup AWS_DEFAULT_REGION=us-east-1 aws "
      "--endpoint-url {} --output text ",
      server.endpoint());
  ASSERT_EQ(floe::testing::RunCommand(aws + "iam create-user --user-name glue").exit_code, 0);
  floe::testing::CommandRun key =
      floe::testing::RunCommand(aws + "iam create-access-key --user-name glue");
  ASSERT_EQ(key.exit_code, 0) << key.err;
  std::istringstream fields(key.out);
  std::string tag, id, created, secret;
  fields >> tag >> id >> created >> secret;
  ASSERT_EQ(tag, "ACCESSKEY") << key.out;
  ASSERT_EQ(floe::testing::RunCommand(
                aws + "iam put-user-policy --user-name glue --policy-name all --policy-document " +
                floe::testing::ShellQuote(R"({"Version":"2012-10-17","Statement":[{"Effect":)"
                                          R"("Allow","Action":"*","Resource":"*"}]})"))
                .exit_code,
            0);

  auto options = [&](const std::string& key_secret) {
    return GlueClientOptionsFrom({{"glue.endpoint", server.endpoint()},
                                  {"client.region", "us-east-1"},
                                  {"s3.access-key-id", id},
                                  {"s3.secret-access-key", key_secret}})
        .value();
  };
  GlueClient signed_client(options(secret));
  FLOE_ASSERT_OK(CreateDatabase(signed_client, {"signed", "", "", {{"k", "v"}}}));
  FLOE_ASSERT_OK_AND_ASSIGN(GlueDatabase database, GetDatabase(signed_client, "signed"));
  EXPECT_EQ(database.parameters, (StringMap{{"k", "v"}}));
  GlueClient wrong(options("not-the-secret"));
  auto refused = GetDatabase(wrong, "signed");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("Glue GetDatabase: "), std::string::npos)
      << refused.error().message();
}

TEST(GlueTypeStringTest, HiveTypeNamesAsIcebergsGlueCatalogWritesThem) {
  using namespace floe::types;
  EXPECT_EQ(GlueTypeString(*Long()), "bigint");
  EXPECT_EQ(GlueTypeString(*Int()), "int");
  EXPECT_EQ(GlueTypeString(*TimestampTz()), "timestamp");
  EXPECT_EQ(GlueTypeString(*Uuid()), "string");
  EXPECT_EQ(GlueTypeString(*Decimal(9, 2)), "decimal(9,2)");
  EXPECT_EQ(GlueTypeString(*Fixed(16)), "binary");
  auto nested = StructType::Make(
      {Required(1, "a", Int()), Optional(2, "tags", ListType::Make(3, String(), false)),
       Optional(4, "m", MapType::Make(5, String(), 6, Double(), false))});
  EXPECT_EQ(GlueTypeString(*nested), "struct<a:int,tags:array<string>,m:map<string,double>>");
}

}  // namespace
}  // namespace floe::catalog::glue
