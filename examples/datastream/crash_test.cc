// The crash test of issue 6, bounded form (scripts/crash-test runs the long one):
// datagen_to_iceberg is killed with SIGKILL at random moments and restarted with the same arguments
// until it completes; the table must then hold exactly the generated rows (append: every row once;
// upsert: the latest row of each key), recomputed from the datagen's pure function and read back
// through the table scan, and for upsert also through ClickHouse when it is installed.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <thread>

#include "example_test_support.h"
#include "floe/catalog/glue/glue_test_support.h"
#include "floe/catalog/rest/server/rest_test_support.h"
#include "floe/io/s3/s3_client.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::examples::test {
namespace {

// The bounded form's sizes, which scripts/crash-test raises through the environment.
int64_t Setting(const char* name, int64_t bounded) {
  const char* value = std::getenv(name);
  return value ? std::stoll(value) : bounded;
}
int64_t Kills() { return Setting("FLOE_CRASH_KILLS", 8); }
int64_t Rows() { return Setting("FLOE_CRASH_ROWS", 20000); }
std::string Rate() { return std::to_string(Setting("FLOE_CRASH_RATE", 8000)); }
std::string Interval() { return std::to_string(Setting("FLOE_CRASH_INTERVAL_MS", 100)); }
// Kills land between 50 ms and this long after a start.
int64_t MaxDelayMs() { return Setting("FLOE_CRASH_MAX_DELAY_MS", 600); }

void Report(const char* form, int64_t rows, int64_t keys, int landed, size_t table_rows) {
  std::cout << form << ": " << rows << " rows, " << keys << " keys, " << landed
            << " SIGKILLs landed before completion, table holds " << table_rows << " rows\n";
}

// "id|seq|data" of the last row of each key among rows [0, rows), from GenerateRows.
std::vector<std::string> Expected(int64_t rows, int64_t keys, int64_t seed) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"seq", DataType::Int64(), false}, {"data", DataType::String(), true}});
  auto source = stream::DatagenSource::Make(schema, {{"seed", std::to_string(seed)}}).value();
  std::vector<int64_t> indices;
  for (int64_t i = std::max<int64_t>(0, rows - keys); i < rows; ++i) indices.push_back(i);
  RecordBatch batch = source->GenerateRows(indices).value();
  std::vector<std::string> expected;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    expected.push_back(std::to_string(indices[r] % keys) + "|" + std::to_string(indices[r]) + "|" +
                       RowView(batch, r).Get(1).get<std::string>());
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

// Kills the job up to `kills` times at random moments, restarting it each time; then lets it
// complete. Returns how many kills landed (the job had not completed by itself yet).
int KillAndRestartUntilDone(const std::vector<std::string>& args, int kills, uint32_t seed,
                            const std::string& example = "datagen_to_iceberg") {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int64_t> delay_ms(50, std::max<int64_t>(50, MaxDelayMs()));
  int landed = 0;
  for (int attempt = 0;; ++attempt) {
    pid_t pid = Spawn(example, args);
    if (pid <= 0) return landed;
    if (attempt < kills) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(random)));
      if (kill(pid, SIGKILL) == 0) {
        int code = Wait(pid);
        if (code == -SIGKILL) {
          ++landed;
          continue;
        }
        EXPECT_EQ(code, 0);
        return landed;
      }
    }
    EXPECT_EQ(Wait(pid), 0);
    return landed;
  }
}

TEST(CrashTest, AppendSurvivesKillsWithEveryRowOnce) {
  floe::testing::TempDir dir;
  std::string table = dir.path().string() + "/warehouse/db/append";
  const int64_t rows = Rows();
  int landed = KillAndRestartUntilDone(
      {"--table", table, "--rows", std::to_string(rows), "--rate", Rate(), "--parallelism", "2",
       "--checkpoint-interval", Interval(), "--seed", "7"},
      Kills(), 1);
  EXPECT_GT(landed, 0);
  std::vector<std::string> read = TableRows(table);
  EXPECT_EQ(read, Expected(rows, rows, 7));
  Report("append", rows, rows, landed, read.size());
}

TEST(CrashTest, UpsertSurvivesKillsWithTheLatestRowPerKey) {
  floe::testing::TempDir dir;
  std::string table = dir.path().string() + "/warehouse/db/upsert";
  const int64_t rows = Rows();
  const int64_t keys = 120;  // every key updated rows / 120 times
  int landed =
      KillAndRestartUntilDone({"--table", table, "--rows", std::to_string(rows), "--rate", Rate(),
                               "--parallelism", "3", "--checkpoint-interval", Interval(),
                               "--upsert", "--keys", std::to_string(keys), "--seed", "11"},
                              Kills(), 2);
  EXPECT_GT(landed, 0);
  std::vector<std::string> expected = Expected(rows, keys, 11);
  std::vector<std::string> read = TableRows(table);
  EXPECT_EQ(read, expected);
  Report("upsert", rows, keys, landed, read.size());

  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) is not installed";
  auto printed = floe::testing::RunPeer(
      "ch", {fmt::format("SELECT concat(toString(id), '|', toString(seq), '|', data) FROM "
                         "icebergLocal('{}') ORDER BY 1",
                         table),
             "TSV"});
  ASSERT_TRUE(printed.has_value()) << printed.error().ToString();
  std::vector<std::string> lines;
  std::string text = *printed;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  EXPECT_EQ(Sorted(lines), expected);
}

// floe's REST server, in this process, over a SQLite catalog whose warehouse is folder/wh.
Result<std::unique_ptr<catalog::rest::RestServer>> ServeSqlCatalog(const std::string& folder) {
  return catalog::rest::testing::ServeCatalog({{"catalog-type", "sql"},
                                               {"uri", "jdbc:sqlite:" + folder + "/cat.db"},
                                               {"warehouse", folder + "/wh"}});
}

// The append job on a catalog service: a REST catalog (floe's server over SQLite), and AWS Glue
// (moto's, the table in moto's S3). Each restart finds the table, and the offsets of its
// checkpoints, through the service.
class CatalogServiceCrashTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CatalogServiceCrashTest, AppendSurvivesKillsWithEveryRowOnce) {
  floe::testing::TempDir dir;
  std::unique_ptr<catalog::rest::RestServer> server;
  StringMap properties;
  std::string db = "db";
  if (GetParam() == "Rest") {
    FLOE_ASSERT_OK_AND_ASSIGN(server, ServeSqlCatalog(dir.path().string()));
    properties = {{"catalog-type", "rest"}, {"uri", server->uri()}};
  } else {
    FLOE_REQUIRE_S3_SERVER();
    io::S3Client s3(io::TestS3Options());
    FLOE_ASSERT_OK_AND_ASSIGN(std::string bucket, io::NewTestBucket(s3, "crash"));
    const std::string& moto = floe::testing::S3Server::Get().endpoint();
    properties = catalog::gluetest::MotoProperties(moto, bucket);
    properties["catalog-type"] = "glue";
    db = catalog::gluetest::UniqueDatabase("crash");
  }
  std::vector<std::string> args = {"--table",
                                   db + ".append",
                                   "--checkpoint-dir",
                                   dir.path().string() + "/checkpoints",
                                   "--rows",
                                   std::to_string(Rows()),
                                   "--rate",
                                   Rate(),
                                   "--parallelism",
                                   "2",
                                   "--checkpoint-interval",
                                   Interval(),
                                   "--seed",
                                   "5"};
  for (const auto& [key, value] : properties) {
    args.push_back("--catalog");
    args.push_back(key + "=" + value);
  }
  const int landed = KillAndRestartUntilDone(args, Kills(), 4);
  EXPECT_GT(landed, 0);
  std::vector<std::string> read = TableRows(stream::TableLoader::FromCatalog(
      "lake", properties, catalog::TableIdentifier{catalog::Namespace{{db}}, "append"}));
  EXPECT_EQ(read, Expected(Rows(), Rows(), 5));
  Report(GetParam() == "Rest" ? "append on REST" : "append on Glue", Rows(), Rows(), landed,
         read.size());
}

INSTANTIATE_TEST_SUITE_P(Services, CatalogServiceCrashTest, ::testing::Values("Rest", "Glue"),
                         [](const auto& info) { return info.param; });

// write_rows (WriteRows into twelve tables by region and kind) killed and restarted until done:
// ClickHouse finds every generated id exactly once over all the tables.
// On a hadoop catalog, and on a REST catalog (whose SQLite catalog places the tables as the
// hadoop one does).
class WriteRowsCrashTest : public ::testing::TestWithParam<bool> {};

TEST_P(WriteRowsCrashTest, SurvivesKillsWithEveryRowOnceAcrossTables) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  floe::testing::TempDir dir;
  const std::string warehouse = dir.path().string() + "/wh";
  std::unique_ptr<catalog::rest::RestServer> server;
  if (GetParam()) {
    FLOE_ASSERT_OK_AND_ASSIGN(server, ServeSqlCatalog(dir.path().string()));
  }
  const int64_t rows = Rows();
  int landed = KillAndRestartUntilDone({server ? server->uri() : warehouse, std::to_string(rows),
                                        dir.path().string() + "/checkpoints", Rate(), Interval()},
                                       Kills(), 3, "write_rows");
  EXPECT_GT(landed, 0);
  std::string sql = "SELECT count(), uniqExact(id), min(id), max(id) FROM (";
  for (int region = 0; region < 4; ++region) {
    for (int kind = 0; kind < 3; ++kind) {
      if (region + kind > 0) sql += " UNION ALL ";
      sql += "SELECT id FROM icebergLocal('" + warehouse + "/db/events_" + std::to_string(region) +
             "_" + std::to_string(kind) + "')";
    }
  }
  sql += ")";
  auto out = floe::testing::RunPeer("ch", {sql, "TSV"});
  ASSERT_TRUE(out.has_value()) << out.error().message();
  EXPECT_EQ(*out, std::to_string(rows) + "\t" + std::to_string(rows) + "\t0\t" +
                      std::to_string(rows - 1) + "\n");
  std::cout << "write_rows" << (server ? " on REST" : "") << ": " << rows
            << " rows over 12 tables, " << landed << " SIGKILLs landed before completion\n";
}

INSTANTIATE_TEST_SUITE_P(Catalogs, WriteRowsCrashTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Rest" : "Hadoop"; });

}  // namespace
}  // namespace floe::examples::test
