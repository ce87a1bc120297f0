// Kafka into Iceberg exactly once, end to end with the real binary: a JSON topic of kRows records
// (ids 0..kRows-1, produced by kcat, spread over the cluster's 4 partitions) is copied by a
// `floe run` script's streaming INSERT (checkpoints every 100 ms, two source subtasks) into a
// table of a hadoop catalog, and of a Glue catalog (moto's Glue, the table in moto's S3). The job's
// process is killed with SIGKILL at random moments and started again: from its checkpoints, and
// once with its checkpoint folder deleted, so that the source resumes from the offsets the table's
// commits carry. Then floe and ClickHouse (icebergLocal or icebergS3, an independent reader) each
// count exactly kRows rows and kRows distinct ids.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "floe/catalog/glue/glue_test_support.h"
#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/kafka_cluster.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using floe::testing::KafkaCluster;
using testing::Quote;

constexpr int kRows = 100'000;
constexpr int kKills = 4;

// {"n": rows, "ids": distinct ids, "lo": min id, "hi": max id} of the one JSON line among the
// output's lines (the client also prints messages).
std::map<std::string, int64_t> Counts(std::string_view out) {
  std::map<std::string, int64_t> counts;
  std::string jsonl;
  for (size_t start = 0; start < out.size();) {
    size_t end = std::min(out.find('\n', start), out.size());
    std::string_view line = out.substr(start, end - start);
    if (line.starts_with('{')) jsonl += std::string(line) + "\n";
    start = end + 1;
  }
  auto rows = floe::testing::ParseJsonLines(jsonl);
  EXPECT_TRUE(rows.has_value() && rows->size() == 1) << jsonl;
  if (!rows || rows->size() != 1) return counts;
  for (const auto& [key, value] : rows->front().as_object()) {
    counts[key] = value.is_string() ? std::stoll(value.as_string()) : value.as_int();
  }
  return counts;
}

// The catalog the job commits through.
enum class Lake { kHadoop, kGlue };

class KafkaExactlyOnceTest : public ::testing::TestWithParam<Lake> {};

TEST_P(KafkaExactlyOnceTest, KilledAndRestartedJobWritesEveryRecordOnce) {
  FLOE_REQUIRE_KAFKA();
  if (GetParam() == Lake::kGlue) FLOE_REQUIRE_S3_SERVER();
  const KafkaCluster& kafka = KafkaCluster::Get();
  const std::string topic = KafkaCluster::NewTopic("exactly-once");
  for (int p = 0; p < KafkaCluster::kPartitions; ++p) {
    std::vector<std::string> records;
    for (int id = p; id < kRows; id += KafkaCluster::kPartitions) {
      records.push_back(fmt::format(R"({{"id": {}, "data": "d{}"}})", id, id % 97));
    }
    FLOE_ASSERT_OK(kafka.Produce(topic, p, records));
  }

  floe::testing::TempDir dir;
  std::string catalog;
  // Where ClickHouse reads the table.
  std::string clickhouse_table;
  if (GetParam() == Lake::kHadoop) {
    catalog = fmt::format(
        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='{}');\n",
        (dir.path() / "lake").string());
    clickhouse_table =
        fmt::format("icebergLocal('{}')", (dir.path() / "lake" / "db" / "events").string());
  } else {
    io::S3Client s3(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(s3, "kafka"));
    const std::string& moto = floe::testing::S3Server::Get().endpoint();
    std::string with;
    for (const auto& [key, value] : catalog::gluetest::MotoProperties(moto, bucket)) {
      with += fmt::format(", '{}'='{}'", key, value);
    }
    catalog = fmt::format("CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='glue'{});\n",
                          with);
    clickhouse_table =
        fmt::format("icebergS3('{}/{}/wh/db.db/events/', 'test-key', 'test-secret')", moto, bucket);
  }
  const std::string script = (dir.path() / "pipeline.sql").string();
  std::ofstream(script) << catalog
                        << "CREATE DATABASE IF NOT EXISTS lake.db;\n"
                           "CREATE TABLE IF NOT EXISTS lake.db.events (id BIGINT, data STRING);\n"
                        << fmt::format(
                               "CREATE TABLE default_catalog.default_database.k (id BIGINT, data "
                               "STRING) WITH ('connector'='kafka', 'topic'='{}', "
                               "'properties.bootstrap.servers'='{}', "
                               "'properties.group.id'='exactly-once', "
                               "'scan.startup.mode'='earliest-offset', "
                               "'scan.bounded.mode'='latest-offset', 'format'='json', "
                               "'batch-size'='500');\n",
                               topic, kafka.bootstrap())
                        << "SET 'execution.checkpointing.interval' = '100ms';\n"
                           "SET 'parallelism.default' = '2';\n"
                           "INSERT INTO lake.db.events SELECT * FROM "
                           "default_catalog.default_database.k;\n";
  auto start = [&] {
    return testing::StartFloe(dir.path(),
                              "run " + Quote(script) + " --warehouse wh --checkpoint-dir cp");
  };

  const unsigned seed = std::random_device()();
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> wait_ms(100, 900);
  int kills = 0;
  for (int attempt = 0; attempt < kKills; ++attempt) {
    pid_t pid = start();
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms(random)));
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) break;  // done before the kill
    kill(pid, SIGKILL);
    testing::WaitFloe(pid);
    ++kills;
    // Once, the checkpoints are lost too: the source resumes from the table's offsets.
    if (attempt == 1) std::filesystem::remove_all(dir.path() / "cp");
  }
  EXPECT_GT(kills, 0) << "the job ended before any kill (seed " << seed << ")";

  pid_t pid = start();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(testing::WaitFloe(pid), kExitOk) << testing::ReadText(dir.path() / "err.txt");
  EXPECT_NE(testing::ReadText(dir.path() / "out.txt").find("FINISHED"), std::string::npos)
      << testing::ReadText(dir.path() / "out.txt");

  const std::string count =
      "SELECT count(*) AS n, count(DISTINCT id) AS ids, min(id) AS lo, max(id) AS hi FROM ";
  floe::testing::CommandRun floe_count =
      testing::Floe("sql --warehouse " + Quote((dir.path() / "wh").string()) + " -e " +
                    Quote(catalog +
                          "SET 'execution.runtime-mode' = 'batch'; "
                          "SET 'sql-client.execution.result-mode' = 'jsonl'; " +
                          count + "lake.db.events;") +
                    " </dev/null");
  ASSERT_EQ(floe_count.exit_code, 0) << floe_count.err;
  std::map<std::string, int64_t> expected = {
      {"n", kRows}, {"ids", kRows}, {"lo", 0}, {"hi", kRows - 1}};
  EXPECT_EQ(Counts(floe_count.out), expected) << "floe; seed " << seed << ", " << kills << " kills";

  if (!floe::testing::PeerInstalled("chdb")) {
    GTEST_SKIP() << "ClickHouse (chdb) not installed: counted by floe only";
  }
  auto counted = floe::testing::RunPeer(
      "ch", {"SELECT count() AS n, uniqExact(id) AS ids, min(id) AS lo, max(id) AS hi FROM " +
             clickhouse_table + " FORMAT JSONEachRow"});
  ASSERT_TRUE(counted.has_value()) << counted.error().ToString();
  EXPECT_EQ(Counts(*counted), expected) << "ClickHouse; seed " << seed << ", " << kills << " kills";
}

INSTANTIATE_TEST_SUITE_P(Catalogs, KafkaExactlyOnceTest,
                         ::testing::Values(Lake::kHadoop, Lake::kGlue),
                         [](const ::testing::TestParamInfo<Lake>& info) {
                           return info.param == Lake::kHadoop ? "Hadoop" : "Glue";
                         });

}  // namespace
}  // namespace floe::cli
