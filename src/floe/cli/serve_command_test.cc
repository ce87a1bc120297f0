// `floe serve` end to end with the real binary: a REST catalog served by one floe process and used
// by another through `catalog-type`='rest' in SQL; an independent REST client (iceberg-js, from
// ../shared/peers) creating a table that floe then writes and reads; ClickHouse's DataLakeCatalog
// listing and reading a table floe wrote through the server to an S3 warehouse (moto); SIGTERM
// stopping the server.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using testing::CommandRun;
using testing::IdDataRows;
using testing::Quote;
using testing::Served;

TEST(ServeCommandTest, SqlOnARestCatalogServedByFloe) {
  floe::testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "server");
  Served server(dir.path() / "server", "--warehouse " + Quote((dir.path() / "lake").string()));
  ASSERT_FALSE(server.uri().empty()) << server.err();

  const std::string script =
      "CREATE CATALOG r WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + server.uri() +
      "');\n"
      "USE CATALOG r;\n"
      "CREATE DATABASE db;\n"
      "USE db;\n"
      "CREATE TABLE t (id BIGINT, data STRING) PARTITIONED BY (data);\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "SET 'sql-client.execution.result-mode' = 'changelog';\n"
      "INSERT INTO t VALUES (1, 'a'), (2, 'b');\n"
      "INSERT INTO t VALUES (3, 'a');\n"
      "ALTER TABLE t ADD (score INT);\n"
      "ALTER TABLE t SET ('k' = 'v');\n"
      "INSERT INTO t VALUES (4, 'c', 40);\n"
      "SELECT id, data, score FROM t ORDER BY id;\n"
      "SHOW TABLES;\n";
  CommandRun run = testing::Floe("sql --warehouse " + Quote((dir.path() / "client").string()) +
                                 " -e " + Quote(script) + " </dev/null");
  ASSERT_EQ(run.exit_code, kExitOk) << run.out << run.err << server.err();
  for (const char* row : {"+I[1, a, null]\n+I[2, b, null]\n+I[3, a, null]\n+I[4, c, 40]\n"}) {
    EXPECT_NE(run.out.find(row), std::string::npos) << row << "\n" << run.out;
  }

  // The served catalog is the embedded one of `floe sql --warehouse lake`: the same table there.
  CommandRun local =
      testing::Floe("sql --warehouse " + Quote((dir.path() / "lake").string()) + " -e " +
                    Quote("SET 'sql-client.execution.result-mode' = 'changelog';\n"
                          "SET 'execution.runtime-mode' = 'batch';\n"
                          "SELECT count(*) AS n, sum(score) AS s FROM floe.db.t;\n"
                          "SELECT count(*) AS commits FROM floe.db.t$snapshots;\n") +
                    " </dev/null");
  ASSERT_EQ(local.exit_code, kExitOk) << local.out << local.err;
  EXPECT_NE(local.out.find("[4, 40]\n"), std::string::npos) << local.out;
  EXPECT_NE(local.out.find("[3]\n"), std::string::npos) << local.out;  // three INSERTs

  EXPECT_EQ(server.Stop(), 0);
  std::string log = server.err();
  EXPECT_NE(log.find("floe serve: POST /v1/namespaces/db/tables 200"), std::string::npos) << log;
  EXPECT_NE(log.find("floe serve: POST /v1/namespaces/db/tables/t 200"), std::string::npos) << log;
  EXPECT_NE(log.find("SIGTERM received, stopping"), std::string::npos) << log;
  EXPECT_NE(log.find("floe serve: stopped"), std::string::npos) << log;
}

TEST(ServeCommandTest, IcebergJsCreatesATableThatFloeWritesAndReads) {
  if (!floe::testing::PeerInstalled("iceberg-js")) {
    GTEST_SKIP() << "iceberg-js is not installed (../shared/peers/setup)";
  }
  floe::testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "server");
  Served server(dir.path() / "server", "--warehouse " + Quote((dir.path() / "lake").string()) +
                                           " --credential js:s3cret --quiet");
  ASSERT_FALSE(server.uri().empty()) << server.err();
  // iceberg-js with a token floe's server issued for the client-credentials grant.
  CommandRun token = floe::testing::RunCommand(
      "curl -s -X POST -d grant_type=client_credentials -d client_id=js -d client_secret=s3cret " +
      Quote(server.uri() + "/v1/oauth/tokens"));
  ASSERT_EQ(token.exit_code, 0) << token.err;
  auto token_json = Json::Parse(token.out);
  ASSERT_TRUE(token_json && token_json->Find("access_token")) << token.out;
  const std::string module =
      (floe::testing::PeersHome() / "node_modules" / "iceberg-js" / "dist" / "index.mjs").string();
  const std::string js =
      "const { IcebergRestCatalog } = await import(" + Json(module).Dump() +
      ");\n"
      "const catalog = new IcebergRestCatalog({ baseUrl: process.argv[2], auth: { type: 'bearer', "
      "token: process.argv[3] } });\n"
      "await catalog.createNamespace({ namespace: ['js'] }, { properties: { owner: 'node' } });\n"
      "await catalog.createTable({ namespace: ['js'] }, { name: 'events', schema: { type: "
      "'struct', 'schema-id': 0, fields: [ { id: 1, name: 'id', type: 'long', required: true }, "
      "{ id: 2, name: 'name', type: 'string', required: false } ] }, 'partition-spec': { "
      "'spec-id': 0, fields: [] }, properties: { 'write.format.default': 'parquet' } });\n"
      "const { namespaces } = await catalog.listNamespaces();\n"
      "const { identifiers } = await catalog.listTables({ namespace: ['js'] });\n"
      "console.log(JSON.stringify({ namespaces, identifiers }));\n";
  std::ofstream(dir.path() / "create.mjs") << js;
  CommandRun node = floe::testing::RunCommand(
      "node " + Quote((dir.path() / "create.mjs").string()) + " " + Quote(server.uri()) + " " +
      Quote(token_json->Find("access_token")->as_string()));
  ASSERT_EQ(node.exit_code, 0) << node.out << node.err;
  auto listed = Json::Parse(node.out);
  ASSERT_TRUE(listed) << node.out;
  EXPECT_EQ(listed->Find("namespaces")->Dump(), R"([{"namespace":["js"]}])");
  EXPECT_EQ(listed->Find("identifiers")->Dump(), R"([{"namespace":["js"],"name":"events"}])");

  const std::string script =
      "CREATE CATALOG r WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + server.uri() +
      "', 'credential'='js:s3cret');\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "SET 'sql-client.execution.result-mode' = 'changelog';\n"
      "INSERT INTO r.js.events VALUES (1, 'one'), (2, 'two');\n"
      "SELECT id, name FROM r.js.events ORDER BY id;\n";
  CommandRun run = testing::Floe("sql --warehouse " + Quote((dir.path() / "client").string()) +
                                 " -e " + Quote(script) + " </dev/null");
  ASSERT_EQ(run.exit_code, kExitOk) << run.out << run.err << server.err();
  EXPECT_NE(run.out.find("+I[1, one]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("+I[2, two]"), std::string::npos) << run.out;
}

// floe serve over a sql catalog whose warehouse is an S3 bucket; floe sql creates, appends and
// upserts through it; ClickHouse's REST catalog client lists the table and reads the same rows,
// reaching the bucket with only what LoadTable's config vends (endpoint, keys).
TEST(ServeCommandTest, ClickHouseReadsThroughItsDataLakeCatalog) {
  FLOE_REQUIRE_S3_SERVER();
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  floe::testing::TempDir dir;
  io::S3Client s3(io::TestS3Options());
  FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(s3, "served"));
  const std::string endpoint = floe::testing::S3Server::Get().endpoint();
  std::filesystem::create_directories(dir.path() / "server");
  Served server(dir.path() / "server",
                fmt::format("--catalog catalog-type=sql --catalog uri=jdbc:sqlite:{} --catalog "
                            "warehouse=s3://{}/wh --catalog s3.endpoint={} --catalog "
                            "s3.access-key-id=test-key --catalog s3.secret-access-key=test-secret",
                            Quote((dir.path() / "catalog.db").string()), bucket, Quote(endpoint)));
  ASSERT_FALSE(server.uri().empty()) << server.err();

  const std::string catalog =
      "CREATE CATALOG r WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + server.uri() +
      "');\n"
      "USE CATALOG r;\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "SET 'sql-client.execution.result-mode' = 'jsonl';\n";
  CommandRun written = testing::Floe(
      "sql --warehouse " + Quote((dir.path() / "client").string()) + " -e " +
      Quote(catalog +
            "CREATE DATABASE db;\n"
            "CREATE TABLE db.t (id BIGINT, data STRING, PRIMARY KEY (id) NOT ENFORCED) "
            "WITH ('format-version'='2');\n"
            "INSERT INTO db.t VALUES (1, 'a'), (2, 'b'), (3, 'c');\n"
            "INSERT INTO db.t /*+ OPTIONS('upsert-enabled'='true') */ VALUES (2, 'B'), (4, 'd');\n"
            "SELECT id, data FROM db.t;\n") +
      " </dev/null");
  ASSERT_EQ(written.exit_code, kExitOk) << written.out << written.err << server.err();
  const std::set<std::string> floe_rows = IdDataRows(written.out);
  EXPECT_EQ(floe_rows, (std::set<std::string>{"1:a", "2:B", "3:c", "4:d"})) << written.out;

  auto read = floe::testing::RunPeer(
      "ch", {fmt::format("SET allow_experimental_database_iceberg = 1; "
                         "CREATE DATABASE d ENGINE = DataLakeCatalog('{}/v1') "
                         "SETTINGS catalog_type = 'rest', warehouse = 's3://{}/wh'; "
                         "SHOW TABLES FROM d; "
                         "SELECT id, data FROM d.`db.t` ORDER BY id",
                         server.uri(), bucket)});
  ASSERT_TRUE(read.has_value()) << read.error().ToString() << server.err();
  std::set<std::string> listed;
  std::istringstream lines(*read);
  for (std::string line; std::getline(lines, line);) {
    auto row = Json::Parse(line);
    if (row && row->Find("name") != nullptr) listed.insert(row->Find("name")->as_string());
  }
  EXPECT_EQ(listed, (std::set<std::string>{"db.t"})) << *read;
  EXPECT_EQ(IdDataRows(*read), floe_rows) << *read;

  EXPECT_EQ(server.Stop(), 0);
  std::string log = server.err();
  EXPECT_NE(log.find("floe serve: GET /v1/namespaces/db/tables/t 200"), std::string::npos) << log;
}

// 4 processes, each running 4 streaming INSERT jobs into one table through `floe serve`: 16
// committers at once, each committing every 100 ms, so commits conflict at the server and are
// retried on the new base. Every job writes its own range of ids, so ClickHouse counting every id
// exactly once means every checkpoint's commit landed once: none lost to a conflict, none twice.
TEST(ServeCommandTest, SixteenConcurrentStreamingCommittersLandEveryCommitOnce) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  constexpr int kProcesses = 4;
  constexpr int kJobs = 4;
  constexpr int kRowsPerJob = 1500;
  floe::testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "server");
  const std::filesystem::path lake = dir.path() / "lake";
  Served server(dir.path() / "server", "--warehouse " + Quote(lake.string()));
  ASSERT_FALSE(server.uri().empty()) << server.err();
  const std::string catalog =
      "CREATE CATALOG r WITH ('type'='iceberg', 'catalog-type'='rest', "
      "'uri'='" +
      server.uri() + "');\n";
  CommandRun created = testing::Floe(
      "sql --warehouse " + Quote((dir.path() / "client").string()) + " -e " +
      Quote(catalog + "CREATE DATABASE r.db;\nCREATE TABLE r.db.t (id BIGINT, data STRING);\n") +
      " </dev/null");
  ASSERT_EQ(created.exit_code, kExitOk) << created.out << created.err << server.err();

  std::vector<pid_t> pids;
  for (int p = 0; p < kProcesses; ++p) {
    const std::filesystem::path work = dir.path() / fmt::format("worker{}", p);
    std::filesystem::create_directories(work);
    std::string script = catalog + "SET 'execution.checkpointing.interval' = '100ms';\n";
    for (int j = 0; j < kJobs; ++j) {
      const int first = (p * kJobs + j) * kRowsPerJob;
      script += fmt::format(
          "CREATE TABLE default_catalog.default_database.gen{j} (id BIGINT, data STRING) WITH "
          "('connector'='datagen', 'number-of-rows'='{n}', 'rows-per-second'='3000', "
          "'fields.id.kind'='sequence', 'fields.id.start'='{first}', 'fields.id.end'='{last}', "
          "'fields.data.length'='4');\n"
          "SET 'pipeline.name' = 'worker{p}-job{j}';\n"
          "INSERT INTO r.db.t SELECT * FROM default_catalog.default_database.gen{j};\n",
          fmt::arg("j", j), fmt::arg("p", p), fmt::arg("n", kRowsPerJob), fmt::arg("first", first),
          fmt::arg("last", first + kRowsPerJob - 1));
    }
    std::ofstream(work / "pipeline.sql") << script;
    pids.push_back(testing::StartFloe(work, "run pipeline.sql --warehouse wh --checkpoint-dir cp"));
    ASSERT_GT(pids.back(), 0);
  }
  for (int p = 0; p < kProcesses; ++p) {
    const std::filesystem::path work = dir.path() / fmt::format("worker{}", p);
    EXPECT_EQ(testing::WaitFloe(pids[p]), kExitOk)
        << testing::ReadText(work / "out.txt") << testing::ReadText(work / "err.txt");
  }

  constexpr int kRows = kProcesses * kJobs * kRowsPerJob;
  auto counted = floe::testing::RunPeer(
      "ch",
      {testing::ClickHouseIdCountQuery("icebergLocal('" + (lake / "db" / "t").string() + "')")});
  ASSERT_TRUE(counted.has_value()) << counted.error().ToString();
  EXPECT_EQ(testing::IdCounts(*counted), testing::EveryIdOnce(kRows)) << *counted;

  // The commits really raced: the server refused some with 409 and their retries landed.
  EXPECT_EQ(server.Stop(), 0);
  EXPECT_NE(server.err().find("/v1/namespaces/db/tables/t 409"), std::string::npos);
}

TEST(ServeCommandTest, BadOptionsAreClearErrors) {
  floe::testing::TempDir dir;
  CommandRun run =
      testing::Floe("serve --credential nocolon --warehouse " + Quote((dir.path() / "w").string()));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("client_id:client_secret"), std::string::npos) << run.err;
  CommandRun bad = testing::Floe("serve --catalog catalog-type=nosuch");
  EXPECT_EQ(bad.exit_code, kExitBadInput);
  EXPECT_NE(bad.err.find("unknown catalog-type"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace floe::cli
