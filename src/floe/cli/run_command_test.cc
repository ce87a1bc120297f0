// `floe run` end to end with the real binary: a script's streaming INSERT from a bounded datagen
// table into an Iceberg table is stopped with SIGTERM, run again and killed with SIGKILL, then run
// to its end; ClickHouse then counts every generated id exactly once (the rows are ids 0..N-1 by
// construction, so the expected figures are plain arithmetic). It runs on three lakes: a hadoop
// catalog on the local disk; a SQL catalog whose warehouse is an S3 bucket (moto on loopback),
// where the checkpoint stays local and ClickHouse reads the table straight from the bucket; and
// the same SQL catalog served over the REST protocol by `floe serve`, which the job reaches only
// through REST (the S3 settings come from the server's table config). DuckDB
// has no Iceberg reader here, so ClickHouse is the independent reader.

#include "floe/cli/run_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/io/local_file_io.h"
#include "floe/io/s3/s3_file_io.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using testing::CommandRun;
using testing::Floe;
using testing::Quote;

constexpr int kRows = 6000;

// Where the streaming test's table lives: the catalog statement, the table's folder, a FileIO
// that reaches it, and how ClickHouse reads it.
struct Lake {
  std::string catalog;
  std::string table;
  std::shared_ptr<io::FileIO> io;
  std::string clickhouse_source;
};

// The number of metadata files of a table: one per commit, whatever the catalog names them.
int MetadataVersions(const Lake& lake) {
  auto entries = lake.io->List(lake.table + "/metadata");
  if (!entries) return 0;
  int count = 0;
  for (const io::FileEntry& entry : *entries) count += entry.name.ends_with(".metadata.json");
  return count;
}

// Starts `floe run` in the background; its output goes to files in dir.
pid_t StartRun(const std::filesystem::path& dir, const std::string& script) {
  return testing::StartFloe(dir, "run " + Quote(script) + " --warehouse wh --checkpoint-dir cp");
}

// Waits until the table has at least `versions` metadata versions or the process has ended;
// false when it ended first.
bool WaitForCommits(pid_t pid, const Lake& lake, int versions) {
  for (int i = 0; i < 3000; ++i) {
    if (MetadataVersions(lake) >= versions) return true;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

enum class LakeKind { kLocalHadoop, kS3Sql, kS3Rest };

class StreamingRestartTest : public ::testing::TestWithParam<LakeKind> {
 protected:
  void SetUp() override {
    if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
    if (GetParam() == LakeKind::kLocalHadoop) {
      const std::string warehouse = (dir_.path() / "lake").string();
      lake_.catalog =
          "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', "
          "'warehouse'='" +
          warehouse + "');\n";
      lake_.table = warehouse + "/db/events";
      lake_.io = std::make_shared<io::LocalFileIO>();
      lake_.clickhouse_source = "icebergLocal('" + lake_.table + "')";
      return;
    }
    FLOE_REQUIRE_S3_SERVER();
    io::S3Client client(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(client, "stream"));
    const std::string endpoint = floe::testing::S3Server::Get().endpoint();
    const std::string catalog_db = (dir_.path() / "catalog.db").string();
    if (GetParam() == LakeKind::kS3Sql) {
      lake_.catalog = fmt::format(
          "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='sql', "
          "'uri'='jdbc:sqlite:{}', 'warehouse'='s3://{}/wh', 's3.endpoint'='{}', "
          "'s3.access-key-id'='test-key', 's3.secret-access-key'='test-secret');\n",
          catalog_db, bucket, endpoint);
    } else {
      std::filesystem::create_directories(dir_.path() / "server");
      server_ = std::make_unique<testing::Served>(
          dir_.path() / "server",
          fmt::format("--catalog catalog-type=sql --catalog uri=jdbc:sqlite:{} --catalog "
                      "warehouse=s3://{}/wh --catalog s3.endpoint={} --catalog "
                      "s3.access-key-id=test-key --catalog s3.secret-access-key=test-secret",
                      Quote(catalog_db), bucket, Quote(endpoint)));
      ASSERT_FALSE(server_->uri().empty()) << server_->err();
      lake_.catalog = "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" +
                      server_->uri() + "');\n";
    }
    lake_.table = fmt::format("s3://{}/wh/db/events", bucket);
    lake_.io = std::make_shared<io::S3FileIO>(io::TestS3Options());
    lake_.clickhouse_source = fmt::format(
        "icebergS3('{}/{}/wh/db/events/', 'test-key', 'test-secret')", endpoint, bucket);
  }

  floe::testing::TempDir dir_;
  Lake lake_;
  std::unique_ptr<testing::Served> server_;  // the REST catalog of kS3Rest
};

TEST_P(StreamingRestartTest, StreamingInsertResumesAfterStopAndKillWithoutLossOrDuplicates) {
  const std::string script = (dir_.path() / "pipeline.sql").string();
  std::ofstream(script)
      << lake_.catalog
      << "CREATE DATABASE IF NOT EXISTS lake.db;\n"
         "CREATE TABLE IF NOT EXISTS lake.db.events (id BIGINT, data STRING);\n"
         "CREATE TABLE default_catalog.default_database.gen (id BIGINT, data STRING) WITH "
         "('connector'='datagen', "
         "'number-of-rows'='"
      << kRows
      << "', 'rows-per-second'='1500', 'fields.id.kind'='sequence', "
         "'fields.id.start'='0', 'fields.id.end'='"
      << kRows - 1
      << "', 'fields.data.length'='4');\n"
         "SET 'execution.checkpointing.interval' = '100ms';\n"
         "INSERT INTO lake.db.events SELECT * FROM default_catalog.default_database.gen;\n";

  // First run: stopped by SIGTERM after its first commit; it stops its job and exits cleanly.
  pid_t pid = StartRun(dir_.path(), script);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(WaitForCommits(pid, lake_, 2)) << testing::ReadText(dir_.path() / "err.txt");
  kill(pid, SIGTERM);
  EXPECT_EQ(testing::WaitFloe(pid), kExitOk) << testing::ReadText(dir_.path() / "err.txt");
  EXPECT_NE(
      testing::ReadText(dir_.path() / "out.txt").find("(insert-into_lake.db.events): CANCELED"),
      std::string::npos)
      << testing::ReadText(dir_.path() / "out.txt");
  const int after_first = MetadataVersions(lake_);

  // Second run: resumes, commits at least once more, and is killed outright.
  pid = StartRun(dir_.path(), script);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(WaitForCommits(pid, lake_, after_first + 1))
      << testing::ReadText(dir_.path() / "err.txt");
  kill(pid, SIGKILL);
  testing::WaitFloe(pid);

  // Third run: to the end of the bounded source.
  pid = StartRun(dir_.path(), script);
  ASSERT_GT(pid, 0);
  EXPECT_EQ(testing::WaitFloe(pid), kExitOk) << testing::ReadText(dir_.path() / "err.txt");
  EXPECT_NE(
      testing::ReadText(dir_.path() / "out.txt").find("(insert-into_lake.db.events): FINISHED"),
      std::string::npos)
      << testing::ReadText(dir_.path() / "out.txt");

  auto counted =
      floe::testing::RunPeer("ch", {testing::ClickHouseIdCountQuery(lake_.clickhouse_source)});
  ASSERT_TRUE(counted.has_value()) << counted.error().ToString();
  EXPECT_EQ(testing::IdCounts(*counted), testing::EveryIdOnce(kRows)) << *counted;
}

INSTANTIATE_TEST_SUITE_P(Lakes, StreamingRestartTest,
                         ::testing::Values(LakeKind::kLocalHadoop, LakeKind::kS3Sql,
                                           LakeKind::kS3Rest),
                         [](const auto& info) -> std::string {
                           switch (info.param) {
                             case LakeKind::kLocalHadoop:
                               return "LocalHadoop";
                             case LakeKind::kS3Sql:
                               return "S3Sql";
                             case LakeKind::kS3Rest:
                               return "S3Rest";
                           }
                           return "";
                         });

TEST(RunCommandTest, StopsAtTheFirstFailingStatementWithItsPosition) {
  floe::testing::TempDir dir;
  const std::string script = (dir.path() / "bad.sql").string();
  std::ofstream(script) << "SET 'execution.runtime-mode' = 'batch';\n"
                           "CREATE TABLE t (id BIGINT);\n"
                           "INSERT INTO t VALUES (1);\n"
                           "\n"
                           "  INSERT INTO nope VALUES (1);\n"
                           "INSERT INTO t VALUES (2);\n";
  CommandRun run =
      Floe("run " + Quote(script) + " --warehouse " + Quote((dir.path() / "wh").string()) +
           " --checkpoint-dir " + Quote((dir.path() / "cp").string()));
  EXPECT_EQ(run.exit_code, kExitFailure);
  EXPECT_NE(run.err.find("bad.sql:5:3: table 'floe.default.nope' does not exist"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("Inserted 1 row into floe.default.t"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Inserted 1 row into floe.default.t", run.out.find("Inserted") + 1),
            std::string::npos)
      << run.out;
}

// Query rows come as `floe sql` shows them: Flink's tableau (PrintUtils' documented form: a
// bordered header, right-aligned cells, NULL as <NULL>, "N rows in set").
TEST(RunCommandTest, PrintsQueryRowsAsATableau) {
  floe::testing::TempDir dir;
  const std::string script = (dir.path() / "query.sql").string();
  std::ofstream(script) << "SET 'execution.runtime-mode' = 'batch';\n"
                           "CREATE TABLE t (id BIGINT, data STRING);\n"
                           "INSERT INTO t VALUES (1, 'a'), (2, NULL);\n"
                           "SELECT * FROM t ORDER BY id;\n";
  CommandRun run =
      Floe("run " + Quote(script) + " --warehouse " + Quote((dir.path() / "wh").string()) +
           " --checkpoint-dir " + Quote((dir.path() / "cp").string()));
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_NE(run.out.find("+----+--------+\n"
                         "| id |   data |\n"
                         "+----+--------+\n"
                         "|  1 |      a |\n"
                         "|  2 | <NULL> |\n"
                         "+----+--------+\n"
                         "2 rows in set\n"),
            std::string::npos)
      << run.out;
}

TEST(RunCommandTest, SyntaxErrorsStopTheScriptBeforeAnythingRuns) {
  floe::testing::TempDir dir;
  const std::string script = (dir.path() / "syntax.sql").string();
  std::ofstream(script) << "CREATE TABLE t (id BIGINT);\nINSERT INTO t VALUES (1;\n";
  CommandRun run =
      Floe("run " + Quote(script) + " --warehouse " + Quote((dir.path() / "wh").string()));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("line 2"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "wh" / "default" / "t"));
}

}  // namespace
}  // namespace floe::cli
