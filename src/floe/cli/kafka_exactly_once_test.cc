// Kafka into Iceberg exactly once, end to end with the real binary: a JSON topic of Rows() records
// (ids 0..Rows()-1, spread over 8 partitions, produced by kcat and kafkajs) is copied by a
// `floe run` script's streaming INSERT (checkpoints every 100 ms, two source subtasks) into a
// table of a hadoop catalog, and of a Glue catalog (moto's Glue, the table in moto's S3). The job's
// process is killed with SIGKILL at random moments of its progress and started again: from its
// checkpoints, and once with its checkpoint folder deleted, so that the source resumes from the
// offsets the table's commits carry. Then floe and ClickHouse (icebergLocal or icebergS3, an
// independent reader) each count exactly Rows() rows and Rows() distinct ids.
//
// `make test` runs 100k records and 4 kills (a minute); the issue's full run, 1M records and 20
// kills, is FLOE_KAFKA_EXACTLY_ONCE_ROWS=1000000 FLOE_KAFKA_EXACTLY_ONCE_KILLS=20.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
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

int FromEnv(const char* name, int fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  const int parsed = std::atoi(value);
  return parsed > 0 ? parsed : fallback;
}

int Rows() { return FromEnv("FLOE_KAFKA_EXACTLY_ONCE_ROWS", 100'000); }
int Kills() { return FromEnv("FLOE_KAFKA_EXACTLY_ONCE_KILLS", 4); }

// The id -> data rows among the output's JSON lines (ids as numbers or, from ClickHouse, strings).
std::map<int64_t, std::string> IdData(std::string_view out) {
  std::map<int64_t, std::string> rows;
  for (size_t start = 0; start < out.size();) {
    size_t end = std::min(out.find('\n', start), out.size());
    std::string_view line = out.substr(start, end - start);
    start = end + 1;
    if (!line.starts_with('{')) continue;
    auto json = Json::Parse(line);
    EXPECT_TRUE(json.has_value()) << line;
    if (!json) continue;
    const Json* id = json->Find("id");
    const Json* data = json->Find("data");
    if (id == nullptr || data == nullptr || !data->is_string()) {
      ADD_FAILURE() << "not an id:data row: " << line;
      continue;
    }
    rows[id->is_string() ? std::stoll(id->as_string()) : id->as_int()] = data->as_string();
  }
  return rows;
}

// The highest id among the complete checkpoints under cp (docs/formats/checkpoint.md: a checkpoint
// exists when its chk-<id> folder holds _checkpoint), 0 when there is none.
int64_t NewestCheckpoint(const std::filesystem::path& cp) {
  int64_t newest = 0;
  std::error_code error;
  for (auto job = std::filesystem::directory_iterator(cp, error);
       !error && job != std::filesystem::directory_iterator(); job.increment(error)) {
    std::error_code inner;
    for (auto chk = std::filesystem::directory_iterator(job->path(), inner);
         !inner && chk != std::filesystem::directory_iterator(); chk.increment(inner)) {
      const std::string name = chk->path().filename().string();
      if (!name.starts_with("chk-") || !std::filesystem::exists(chk->path() / "_checkpoint")) {
        continue;
      }
      newest = std::max<int64_t>(newest, std::atoll(name.c_str() + 4));
    }
  }
  return newest;
}

// Starts `floe run script` in dir and SIGKILLs it, Kills() times (the second time deleting its
// checkpoints too), then runs it to its end: the kills that happened (fewer when the job ended
// first). Each kill comes at a random moment of the job's progress rather than of the clock, so
// that a fast machine cannot finish the job first: after 1 to 3 more checkpoints than the attempt
// started from, and then a random 0..jitter_ms more (between a checkpoint and its commit, or in
// the middle of the next one).
int KillAndFinish(const std::filesystem::path& dir, const std::string& script, unsigned seed,
                  int jitter_ms = 100) {
  auto start = [&] {
    return testing::StartFloe(dir, "run " + Quote(script) + " --warehouse wh --checkpoint-dir cp");
  };
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> checkpoints(1, 3);
  std::uniform_int_distribution<int> jitter(0, jitter_ms);
  int kills = 0;
  for (int attempt = 0; attempt < Kills(); ++attempt) {
    const int64_t target = NewestCheckpoint(dir / "cp") + checkpoints(random);
    pid_t pid = start();
    EXPECT_GT(pid, 0);
    if (pid <= 0) return kills;
    int status = 0;
    bool ended = false;
    // A job that stops checkpointing is killed after a minute all the same.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (!(ended = waitpid(pid, &status, WNOHANG) == pid) &&
           NewestCheckpoint(dir / "cp") < target && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (!ended) {
      std::this_thread::sleep_for(std::chrono::milliseconds(jitter(random)));
      ended = waitpid(pid, &status, WNOHANG) == pid;
    }
    if (ended) break;  // done before the kill
    kill(pid, SIGKILL);
    testing::WaitFloe(pid);
    ++kills;
    // Once, the checkpoints are lost too: the source resumes from the table's offsets.
    if (attempt == 1) std::filesystem::remove_all(dir / "cp");
  }
  pid_t pid = start();
  EXPECT_GT(pid, 0);
  if (pid <= 0) return kills;
  EXPECT_EQ(testing::WaitFloe(pid), kExitOk) << testing::ReadText(dir / "err.txt");
  EXPECT_NE(testing::ReadText(dir / "out.txt").find("FINISHED"), std::string::npos)
      << testing::ReadText(dir / "out.txt");
  return kills;
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
    for (int id = p; id < Rows(); id += KafkaCluster::kPartitions) {
      records.push_back(fmt::format(R"({{"id": {}, "data": "d{}"}})", id, id % 97));
    }
    FLOE_ASSERT_OK(kafka.Produce(topic, p, records, KafkaCluster::EitherClient(p)));
  }

  floe::testing::TempDir dir;
  std::string catalog;
  // Where ClickHouse reads the table.
  std::string clickhouse_table;
  // The table's database: one of its own in moto's Glue, which outlives the test.
  std::string db = "db";
  if (GetParam() == Lake::kHadoop) {
    catalog = fmt::format(
        "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='{}');\n",
        (dir.path() / "lake").string());
    clickhouse_table =
        fmt::format("icebergLocal('{}')", (dir.path() / "lake" / "db" / "events").string());
  } else {
    io::S3Client s3(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(s3, "kafka"));
    db = catalog::gluetest::UniqueDatabase("kafka");
    const std::string& moto = floe::testing::S3Server::Get().endpoint();
    std::string with;
    for (const auto& [key, value] : catalog::gluetest::MotoProperties(moto, bucket)) {
      with += fmt::format(", '{}'='{}'", key, value);
    }
    catalog = fmt::format("CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='glue'{});\n",
                          with);
    clickhouse_table = fmt::format("icebergS3('{}/{}/wh/{}.db/events/', 'test-key', 'test-secret')",
                                   moto, bucket, db);
  }
  const std::string script = (dir.path() / "pipeline.sql").string();
  std::ofstream(script) << catalog
                        << fmt::format(
                               "CREATE DATABASE IF NOT EXISTS lake.{0};\n"
                               "CREATE TABLE IF NOT EXISTS lake.{0}.events (id BIGINT, data "
                               "STRING);\n",
                               db)
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
                        << "INSERT INTO lake." << db
                        << ".events SELECT * FROM default_catalog.default_database.k;\n";
  const unsigned seed = std::random_device()();
  const int kills = KillAndFinish(dir.path(), script, seed);
  EXPECT_GT(kills, 0) << "the job ended before any kill (seed " << seed << ")";

  const std::string count =
      "SELECT count(*) AS n, count(DISTINCT id) AS ids, min(id) AS lo, max(id) AS hi FROM ";
  floe::testing::CommandRun floe_count =
      testing::Floe("sql --warehouse " + Quote((dir.path() / "wh").string()) + " -e " +
                    Quote(catalog +
                          "SET 'execution.runtime-mode' = 'batch'; "
                          "SET 'sql-client.execution.result-mode' = 'jsonl'; " +
                          count + "lake." + db + ".events;") +
                    " </dev/null");
  ASSERT_EQ(floe_count.exit_code, 0) << floe_count.err;
  const std::map<std::string, int64_t> expected = testing::EveryIdOnce(Rows());
  EXPECT_EQ(testing::IdCounts(floe_count.out), expected)
      << "floe; seed " << seed << ", " << kills << " kills";

  if (!floe::testing::PeerInstalled("chdb")) {
    GTEST_SKIP() << "ClickHouse (chdb) not installed: counted by floe only";
  }
  auto counted = floe::testing::RunPeer("ch", {testing::ClickHouseIdCountQuery(clickhouse_table)});
  ASSERT_TRUE(counted.has_value()) << counted.error().ToString();
  EXPECT_EQ(testing::IdCounts(*counted), expected)
      << "ClickHouse; seed " << seed << ", " << kills << " kills";
}

// A Debezium change stream of a producer's model (inserts, updates and deletes of random keys,
// each key in one partition so that its changes stay in order) into an upsert table, the job
// killed and restarted as above: floe and ClickHouse then read exactly the model's final rows.
TEST(KafkaExactlyOnceCdcTest, KilledAndRestartedUpsertJobEndsInTheProducersState) {
  FLOE_REQUIRE_KAFKA();
  const KafkaCluster& kafka = KafkaCluster::Get();
  const std::string topic = KafkaCluster::NewTopic("exactly-once-cdc");
  const unsigned seed = std::random_device()();
  std::mt19937 random(seed);
  const int events = 2 * Rows();
  const int keys = std::max(1, events / 10);
  std::uniform_int_distribution<int> key_of(0, keys - 1);
  std::uniform_int_distribution<int> roll(0, 9);
  std::map<int64_t, std::string> model;
  std::vector<std::vector<std::string>> partitions(KafkaCluster::kPartitions);
  for (int e = 0; e < events; ++e) {
    const int id = key_of(random);
    const std::string data = fmt::format("v{}", e);
    auto at = model.find(id);
    std::string record;
    if (at == model.end()) {
      record = fmt::format(R"({{"before": null, "after": {{"id": {}, "data": "{}"}}, "op": "c"}})",
                           id, data);
      model[id] = data;
    } else if (roll(random) < 2) {
      record = fmt::format(R"({{"before": {{"id": {}, "data": "{}"}}, "after": null, "op": "d"}})",
                           id, at->second);
      model.erase(at);
    } else {
      record = fmt::format(
          R"({{"before": {{"id": {0}, "data": "{1}"}}, "after": {{"id": {0}, "data": "{2}"}}, )"
          R"("op": "u"}})",
          id, at->second, data);
      at->second = data;
    }
    partitions[static_cast<size_t>(id % KafkaCluster::kPartitions)].push_back(std::move(record));
  }
  for (int p = 0; p < KafkaCluster::kPartitions; ++p) {
    FLOE_ASSERT_OK(
        kafka.Produce(topic, p, partitions[static_cast<size_t>(p)], KafkaCluster::EitherClient(p)));
  }

  floe::testing::TempDir dir;
  const std::string catalog = fmt::format(
      "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='{}');\n",
      (dir.path() / "lake").string());
  const std::string script = (dir.path() / "pipeline.sql").string();
  std::ofstream(script) << catalog
                        << "CREATE DATABASE IF NOT EXISTS lake.db;\n"
                           "CREATE TABLE IF NOT EXISTS lake.db.users (id BIGINT, data STRING, "
                           "PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version'='2', "
                           "'write.upsert.enabled'='true');\n"
                        << fmt::format(
                               "CREATE TABLE default_catalog.default_database.cdc (id BIGINT, "
                               "data STRING, PRIMARY KEY (id) NOT ENFORCED) WITH "
                               "('connector'='kafka', 'topic'='{}', "
                               "'properties.bootstrap.servers'='{}', "
                               "'scan.startup.mode'='earliest-offset', "
                               "'scan.bounded.mode'='latest-offset', 'format'='debezium-json', "
                               "'batch-size'='500');\n",
                               topic, kafka.bootstrap())
                        << "SET 'execution.checkpointing.interval' = '100ms';\n"
                           "SET 'parallelism.default' = '2';\n"
                           "INSERT INTO lake.db.users SELECT * FROM "
                           "default_catalog.default_database.cdc;\n";
  // An upsert job of these events ends sooner than the append job: killed sooner.
  const int kills = KillAndFinish(dir.path(), script, seed, 30);
  EXPECT_GT(kills, 0) << "the job ended before any kill (seed " << seed << ")";

  floe::testing::CommandRun floe_rows =
      testing::Floe("sql --warehouse " + Quote((dir.path() / "wh").string()) + " -e " +
                    Quote(catalog + "SET 'execution.runtime-mode' = 'batch'; "
                                    "SET 'sql-client.execution.result-mode' = 'jsonl'; "
                                    "SELECT id, data FROM lake.db.users;") +
                    " </dev/null");
  ASSERT_EQ(floe_rows.exit_code, 0) << floe_rows.err;
  EXPECT_EQ(IdData(floe_rows.out), model) << "floe; seed " << seed << ", " << kills << " kills";

  if (!floe::testing::PeerInstalled("chdb")) {
    GTEST_SKIP() << "ClickHouse (chdb) not installed: read by floe only";
  }
  auto read = floe::testing::RunPeer(
      "ch", {fmt::format("SELECT id, data FROM icebergLocal('{}') FORMAT JSONEachRow",
                         (dir.path() / "lake" / "db" / "users").string())});
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_EQ(IdData(*read), model) << "ClickHouse; seed " << seed << ", " << kills << " kills";
}

INSTANTIATE_TEST_SUITE_P(Catalogs, KafkaExactlyOnceTest,
                         ::testing::Values(Lake::kHadoop, Lake::kGlue),
                         [](const ::testing::TestParamInfo<Lake>& info) {
                           return info.param == Lake::kHadoop ? "Hadoop" : "Glue";
                         });

}  // namespace
}  // namespace floe::cli
