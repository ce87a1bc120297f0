// `floe append` end to end: the real binary writes a partitioned table in the hadoop layout from a
// Parquet file, and other engines read the table back.

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using testing::CommandRun;
using testing::Floe;
using testing::Quote;

// A Parquet file of n rows written by DuckDB, or "" when the peer is missing.
std::string DuckParquet(const std::filesystem::path& dir, const std::string& name, int n,
                        int offset) {
  const std::string path = (dir / name).string();
  auto out = floe::testing::RunPeer(
      "duck", {"COPY (SELECT (range + " + std::to_string(offset) +
               ")::BIGINT AS id, TIMESTAMP '2026-01-01' + to_hours(range % 50) AS ts, "
               "CASE WHEN range % 7 = 0 THEN NULL ELSE 'c' || (range % 3)::VARCHAR END AS "
               "category, range * 0.5 AS amount FROM range(" +
               std::to_string(n) + ")) TO '" + path + "' (FORMAT parquet)"});
  return out ? path : "";
}

// A member as text: engines print 64-bit integers and decimals as strings or numbers.
std::string Text(const Json& row, std::string_view key) {
  const Json* v = row.Find(key);
  if (v == nullptr) return "missing";
  return v->is_string() ? v->as_string() : v->Dump();
}

TEST(AppendCommandTest, PartitionedTableReadByClickHouseAndScannedBack) {
  floe::testing::TempDir dir;
  const std::string first = DuckParquet(dir.path(), "a.parquet", 1000, 0);
  const std::string second = DuckParquet(dir.path(), "b.parquet", 500, 1000);
  if (first.empty() || second.empty()) GTEST_SKIP() << "DuckDB peer not installed";
  const std::string table = (dir.path() / "warehouse" / "db" / "events").string();

  CommandRun run = Floe("append " + Quote(table) + " " + Quote(first) +
                        " --partition-by 'days(ts), bucket(4, id)' --property format-version=2");
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_NE(run.out.find("appended 1000 rows"), std::string::npos) << run.out;
  run = Floe("append " + Quote(table) + " " + Quote(second));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_TRUE(
      std::filesystem::exists(dir.path() / "warehouse/db/events/metadata/v3.metadata.json"));

  // DuckDB's own aggregate of the inputs against ClickHouse's of the table.
  auto expected = floe::testing::RunPeer(
      "duck", {"SELECT count(*) AS n, sum(id) AS ids, count(category) AS cats, sum(amount) AS "
               "amount FROM read_parquet(['" +
               first + "','" + second + "'])"});
  ASSERT_TRUE(expected.has_value()) << expected.error().ToString();
  FLOE_ASSERT_OK_AND_ASSIGN(Json want, Json::Parse(*expected));
  auto got = floe::testing::RunPeer(
      "ch", {"SELECT count() AS n, sum(id) AS ids, count(category) AS cats, sum(amount) AS amount "
             "FROM icebergLocal('" +
             table + "') FORMAT JSONEachRow"});
  if (got) {
    FLOE_ASSERT_OK_AND_ASSIGN(Json have, Json::Parse(*got));
    EXPECT_EQ(Text(have, "n"), "1500");
    EXPECT_EQ(std::stoll(Text(have, "ids")), std::stoll(Text(want, "ids")));
    EXPECT_EQ(std::stod(Text(have, "amount")), std::stod(Text(want, "amount")));
    EXPECT_EQ(std::stoll(Text(have, "cats")), std::stoll(Text(want, "cats")));
  } else {
    ADD_FAILURE() << "ClickHouse did not read the table: " << got.error().ToString();
  }

  // floe reads its own table, with partition pruning on the filter.
  run = Floe("scan " + Quote(table) + " --filter \"id >= 1490\" --columns id");
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 10) << run.out;
}

TEST(AppendCommandTest, ThroughTheSqlCatalogOnSqlite) {
  floe::testing::TempDir dir;
  const std::string input = DuckParquet(dir.path(), "a.parquet", 300, 0);
  if (input.empty()) GTEST_SKIP() << "DuckDB peer not installed";
  const std::string catalog = " --catalog catalog-type=sql --catalog uri=jdbc:sqlite:" +
                              Quote((dir.path() / "catalog.db").string()) +
                              " --catalog warehouse=" + Quote((dir.path() / "wh").string());
  CommandRun run = Floe("append lake.db.events " + Quote(input) + catalog);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  run = Floe("append lake.db.events " + Quote(input) + catalog);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  run = Floe("scan lake.db.events --columns id --filter \"id < 10\"" + catalog);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 20) << run.out;
  // The catalog row is in Iceberg's JDBC schema, read with the sqlite3 client.
  CommandRun rows = floe::testing::RunCommand(
      "sqlite3 " + Quote((dir.path() / "catalog.db").string()) +
      " \"SELECT table_namespace || '.' || table_name FROM iceberg_tables\"");
  EXPECT_EQ(rows.out, "db.events\n") << rows.err;
}

TEST(AppendCommandTest, BadInputIsOneLineAndExitTwo) {
  floe::testing::TempDir dir;
  const std::string table = (dir.path() / "warehouse" / "db" / "t").string();
  CommandRun run =
      Floe("append " + Quote(table) + " " + Quote((dir.path() / "missing.parquet").string()));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  run = Floe("append " + Quote(table) + " x.parquet --no-create");
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("does not exist"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(table));
}

}  // namespace
}  // namespace floe::cli
