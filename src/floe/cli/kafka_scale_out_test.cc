// Scale-out, end to end with the real binary (docs/scale-out.md): `floe run` processes of one
// script share a Kafka topic's partitions through one consumer group
// ('scan.partition-assignment' = 'consumer-group') and commit into one table of a PostgreSQL SQL
// catalog (a real server, scripts/pg-test-server). Three workers start on a topic that keeps
// growing (ids 0..rows-1 in JSON over 8 partitions, produced by kcat and kafkajs); one is
// SIGKILLed mid-stream and a fourth started, so partitions move while checkpoints (every 200 ms)
// are under way. Once the table holds every id, floe and ClickHouse (icebergLocal, an independent
// reader) count exactly `rows` rows and `rows` distinct ids: nothing lost, nothing twice.
//
// FLOE_KAFKA_SCALE_OUT_ROWS sets the size (default 40000).

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "floe/catalog/sql/sql_test_util.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/kafka_cluster.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using floe::testing::KafkaCluster;
using testing::Quote;

int RowsToWrite() {
  const char* env = std::getenv("FLOE_KAFKA_SCALE_OUT_ROWS");
  return env != nullptr && *env != '\0' ? std::atoi(env) : 40'000;
}

TEST(KafkaScaleOutTest, WorkersKilledAndAddedShareTheTopicExactlyOnce) {
  FLOE_REQUIRE_KAFKA();
  catalog::sqltest::PostgresServer& postgres = catalog::sqltest::TestPostgres();
  if (!postgres.error.empty()) GTEST_SKIP() << "no PostgreSQL server: " << postgres.error;
  const KafkaCluster& kafka = KafkaCluster::Get();
  const int rows = RowsToWrite();
  const std::string topic = KafkaCluster::NewTopic("scale-out");
  // Ids [from, to) in JSON, each partition its share.
  auto produce = [&](int from, int to) {
    for (int p = 0; p < KafkaCluster::kPartitions; ++p) {
      std::vector<std::string> records;
      for (int id = from + p; id < to; id += KafkaCluster::kPartitions) {
        records.push_back(fmt::format(R"({{"id": {}, "data": "d{}"}})", id, id % 97));
      }
      FLOE_ASSERT_OK(kafka.Produce(topic, p, records, KafkaCluster::EitherClient(p)));
    }
  };

  floe::testing::TempDir dir;
  const std::filesystem::path table = dir.path() / "lake" / "db" / "events";
  // A catalog name of its own: the PostgreSQL database may be shared ($FLOE_PG_URI).
  const std::string lake = fmt::format("lake_{}_{}", ::getpid(),
                                       std::chrono::steady_clock::now().time_since_epoch().count());
  const std::string catalog = fmt::format(
      "CREATE CATALOG {} WITH ('type'='iceberg', 'catalog-type'='sql', 'uri'='{}', "
      "'warehouse'='{}');\n",
      lake, postgres.uri, (dir.path() / "lake").string());
  auto sql = [&](const std::string& statements) {
    return testing::Floe("sql --warehouse " + Quote((dir.path() / "wh").string()) + " -e " +
                         Quote(catalog + statements) + " </dev/null");
  };
  floe::testing::CommandRun created = sql(fmt::format(
      "CREATE DATABASE {0}.db; CREATE TABLE {0}.db.events (id BIGINT, data STRING);", lake));
  ASSERT_EQ(created.exit_code, 0) << created.err;

  const std::string script = (dir.path() / "worker.sql").string();
  std::ofstream(script) << catalog
                        << fmt::format(
                               "CREATE TABLE default_catalog.default_database.k (id BIGINT, data "
                               "STRING) WITH ('connector'='kafka', 'topic'='{}', "
                               "'properties.bootstrap.servers'='{}', "
                               "'properties.group.id'='scale-out-{}', "
                               "'properties.session.timeout.ms'='6000', "
                               "'properties.heartbeat.interval.ms'='500', "
                               "'scan.partition-assignment'='consumer-group', "
                               "'scan.startup.mode'='earliest-offset', 'format'='json', "
                               "'batch-size'='500');\n",
                               topic, kafka.bootstrap(), topic)
                        << "SET 'execution.checkpointing.interval' = '200ms';\n"
                           "SET 'restart-strategy.fixed-delay.attempts' = '1000';\n"
                           "SET 'restart-strategy.fixed-delay.delay' = '200ms';\n"
                        << "INSERT INTO " << lake
                        << ".db.events SELECT * FROM default_catalog.default_database.k;\n";
  std::vector<pid_t> workers;
  std::vector<std::filesystem::path> folders;
  auto start = [&] {
    std::filesystem::path folder = dir.path() / ("worker" + std::to_string(workers.size()));
    std::filesystem::create_directories(folder);
    pid_t pid =
        testing::StartFloe(folder, "run " + Quote(script) + " --warehouse wh --checkpoint-dir cp");
    ASSERT_GT(pid, 0);
    workers.push_back(pid);
    folders.push_back(folder);
  };
  auto stop_all = [&] {
    for (pid_t& pid : workers) {
      if (pid <= 0) continue;
      kill(pid, SIGKILL);
      testing::WaitFloe(pid);
      pid = -1;
    }
  };
  const std::string count =
      "SET 'execution.runtime-mode' = 'batch'; SET 'sql-client.execution.result-mode' = 'jsonl'; "
      "SELECT count(*) AS n, count(DISTINCT id) AS ids, min(id) AS lo, max(id) AS hi FROM " +
      lake + ".db.events;";

  produce(0, rows / 4);
  for (int i = 0; i < 3; ++i) start();
  produce(rows / 4, rows / 2);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  // One worker dies mid-stream: the group gives its partitions to the others once its session
  // times out, from the offsets the table committed for them.
  kill(workers[1], SIGKILL);
  testing::WaitFloe(workers[1]);
  workers[1] = -1;
  produce(rows / 2, 3 * rows / 4);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  // A fourth joins: the group moves partitions to it while checkpoints run.
  start();
  produce(3 * rows / 4, rows);

  std::map<std::string, int64_t> counts;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (std::chrono::steady_clock::now() < deadline) {
    floe::testing::CommandRun counted = sql(count);
    if (counted.exit_code == 0) counts = testing::IdCounts(counted.out);
    if (counts["ids"] >= rows) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  // A few more checkpoints: a duplicate committed late would show.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  stop_all();
  std::string errors;
  for (const auto& folder : folders) errors += testing::ReadText(folder / "err.txt");

  const std::map<std::string, int64_t> expected = testing::EveryIdOnce(rows);
  floe::testing::CommandRun counted = sql(count);
  ASSERT_EQ(counted.exit_code, 0) << counted.err;
  EXPECT_EQ(testing::IdCounts(counted.out), expected) << "floe; workers' errors:\n" << errors;

  if (!floe::testing::PeerInstalled("chdb")) {
    GTEST_SKIP() << "ClickHouse (chdb) not installed: counted by floe only";
  }
  auto clickhouse = floe::testing::RunPeer(
      "ch", {testing::ClickHouseIdCountQuery("icebergLocal('" + table.string() + "')")});
  ASSERT_TRUE(clickhouse.has_value()) << clickhouse.error().ToString();
  EXPECT_EQ(testing::IdCounts(*clickhouse), expected) << "ClickHouse";
}

}  // namespace
}  // namespace floe::cli
