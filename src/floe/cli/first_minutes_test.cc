// The first things a new user types, with the real binary and the embedded default catalog in the
// default (streaming) runtime mode: rows an INSERT was told to write are committed before the
// client exits, whether the script ends, QUIT comes, or SIGTERM stops an endless job; a failed
// job makes the exit code non-zero; and a table made with a relative --warehouse reads the same
// from any other folder, by floe and by ClickHouse (icebergLocal) and icebird. Expected counts
// are the rows the statements name; the peers are the independent readers.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

namespace fs = std::filesystem;
using testing::CommandRun;
using testing::Quote;

// `floe sql ARGS` run from folder `cwd`.
CommandRun SqlIn(const fs::path& cwd, const std::string& args, const std::string& stdin_file = "") {
  return floe::testing::RunCommand("cd " + Quote(cwd.string()) + " && " + Quote(FLOE_BINARY) +
                                   " sql " + args + " <" +
                                   Quote(stdin_file.empty() ? "/dev/null" : stdin_file));
}

// The rows of `query` as floe reads them in a new process from `cwd`, one JSON line each.
std::vector<Json> FloeRows(const fs::path& cwd, const std::string& warehouse,
                           const std::string& query) {
  CommandRun run = SqlIn(cwd, "--warehouse " + Quote(warehouse) + " -e " +
                                  Quote("SET 'execution.runtime-mode' = 'batch'; "
                                        "SET 'sql-client.execution.result-mode' = 'jsonl'; " +
                                        query));
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<Json> rows;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("{")) continue;
    auto row = Json::Parse(line);
    EXPECT_TRUE(row.has_value()) << line;
    if (row) rows.push_back(*row);
  }
  return rows;
}

int64_t FloeCount(const fs::path& cwd, const std::string& warehouse, const std::string& table) {
  std::vector<Json> rows = FloeRows(cwd, warehouse, "SELECT COUNT(*) AS n FROM " + table + ";");
  if (rows.size() != 1 || rows[0].Find("n") == nullptr) return -1;
  return rows[0].Find("n")->as_int();
}

// ClickHouse's count of the table folder's rows; nullopt (with a note) when it is not installed.
std::optional<int64_t> ClickHouseCount(const fs::path& table) {
  if (!floe::testing::PeerInstalled("chdb")) {
    std::cerr << "ClickHouse (chdb) not installed: its cross-check is skipped\n";
    return std::nullopt;
  }
  auto out = floe::testing::RunPeer(
      "ch", {"SELECT count() AS n FROM icebergLocal('" + table.string() + "') FORMAT JSONEachRow"});
  EXPECT_TRUE(out.has_value()) << out.error().ToString();
  if (!out) return -1;
  auto row = Json::Parse(*out);
  if (!row || row->Find("n") == nullptr) return -1;
  const Json& n = *row->Find("n");
  return n.is_string() ? std::stoll(n.as_string()) : n.as_int();
}

class FirstMinutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(work_);
    fs::create_directories(elsewhere_);
  }
  std::string Warehouse() const { return (work_ / "warehouse").string(); }
  fs::path Table(const std::string& name) const { return work_ / "warehouse" / "default" / name; }

  floe::testing::TempDir dir_;
  const fs::path work_ = dir_.path() / "here";
  const fs::path elsewhere_ = dir_.path() / "elsewhere";
};

TEST_F(FirstMinutesTest, AnInsertInTheDefaultModeIsCommittedWhenTheScriptEnds) {
  CommandRun run = SqlIn(work_, "-e " + Quote("CREATE TABLE t (id BIGINT, data STRING); "
                                              "INSERT INTO t VALUES (1, 'a'), (2, 'b'); "
                                              "SET 'sql-client.execution.result-mode' = 'jsonl'; "
                                              "SELECT operation FROM t$snapshots;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  // The metadata table, read after the INSERT in the same session, has its snapshot.
  EXPECT_NE(run.out.find(R"("operation":"append")"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("FINISHED. Inserted 2 rows into floe.default.t (snapshot "),
            std::string::npos)
      << run.out;
  EXPECT_EQ(FloeCount(elsewhere_, Warehouse(), "t"), 2);
  if (auto n = ClickHouseCount(Table("t"))) {
    EXPECT_EQ(*n, 2);
  }
}

TEST_F(FirstMinutesTest, QuitWaitsForTheSessionsInserts) {
  const std::string input = (dir_.path() / "stdin.sql").string();
  std::ofstream(input) << "CREATE TABLE t (id BIGINT, data STRING);\n"
                          "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');\n"
                          "INSERT INTO t VALUES (4, 'd');\n"
                          "QUIT;\n";
  CommandRun run = SqlIn(work_, "", input);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  // One line per job, each naming the snapshot that job committed.
  auto snapshot_after = [&](std::string_view text) {
    const size_t at = run.out.find(text);
    if (at == std::string::npos) return std::string();
    const size_t begin = run.out.find("(snapshot ", at);
    return run.out.substr(begin, run.out.find(')', begin) - begin);
  };
  const std::string first = snapshot_after("Inserted 3 rows into floe.default.t");
  const std::string second = snapshot_after("Inserted 1 row into floe.default.t");
  EXPECT_FALSE(first.empty()) << run.out;
  EXPECT_FALSE(second.empty()) << run.out;
  EXPECT_NE(first, second) << run.out;
  EXPECT_EQ(FloeCount(elsewhere_, Warehouse(), "t"), 4);
  if (auto n = ClickHouseCount(Table("t"))) {
    EXPECT_EQ(*n, 4);
  }
}

// Statements of one session take effect in order: the OVERWRITE after a streaming INSERT waits
// for it, so it replaces those rows rather than racing them.
TEST_F(FirstMinutesTest, StatementsAfterAStreamingInsertSeeItsRows) {
  CommandRun run =
      SqlIn(work_, "-e " + Quote("CREATE TABLE t (id BIGINT, data STRING); "
                                 "INSERT INTO t VALUES (1, 'a'), (2, 'b'); "
                                 "SET 'execution.runtime-mode' = 'batch'; "
                                 "INSERT INTO t SELECT id + 10, data FROM t; "
                                 "INSERT OVERWRITE t SELECT id, data FROM t WHERE id > 10;"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<Json> rows = FloeRows(elsewhere_, Warehouse(), "SELECT id FROM t ORDER BY id;");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].Find("id")->as_int(), 11);
  EXPECT_EQ(rows[1].Find("id")->as_int(), 12);
}

// An endless streaming INSERT keeps the client alive; SIGTERM stops it with a final commit of
// every row it read, which the summary line counts.
TEST_F(FirstMinutesTest, SigtermStopsAnEndlessInsertWithAFinalCommit) {
  const std::string script =
      "CREATE TABLE t (id BIGINT, data STRING);\n"
      "CREATE TABLE default_catalog.default_database.gen (id BIGINT, data STRING) WITH "
      "('connector'='datagen', 'rows-per-second'='500', 'fields.data.length'='4');\n"
      "INSERT INTO t SELECT * FROM default_catalog.default_database.gen;\n";
  std::ofstream(work_ / "endless.sql") << script;
  pid_t pid = testing::StartFloe(work_, "sql -f endless.sql");
  ASSERT_GT(pid, 0);
  bool running = false;
  for (int i = 0; i < 600 && !running; ++i) {
    running = testing::ReadText(work_ / "out.txt").find("still running") != std::string::npos;
    if (!running) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(running) << testing::ReadText(work_ / "out.txt")
                       << testing::ReadText(work_ / "err.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGTERM);
  EXPECT_EQ(testing::WaitFloe(pid), kExitOk) << testing::ReadText(work_ / "err.txt");
  const std::string out = testing::ReadText(work_ / "out.txt");
  const size_t at = out.find("FINISHED. Inserted ");
  ASSERT_NE(at, std::string::npos) << out;
  const int64_t inserted =
      std::stoll(out.substr(at + std::string_view("FINISHED. Inserted ").size()));
  EXPECT_GT(inserted, 0);
  EXPECT_EQ(FloeCount(elsewhere_, Warehouse(), "t"), inserted);
  if (auto n = ClickHouseCount(Table("t"))) {
    EXPECT_EQ(*n, inserted);
  }
}

TEST_F(FirstMinutesTest, AFailedJobMakesTheExitCodeNonZero) {
  CommandRun run = SqlIn(work_, "-e " + Quote("CREATE TABLE t (id BIGINT); "
                                              "INSERT INTO t SELECT 10 / (id - 1) FROM "
                                              "(VALUES (CAST(1 AS BIGINT))) AS v(id);"));
  EXPECT_EQ(run.exit_code, kExitFailure) << run.out;
  EXPECT_NE(run.err.find("[ERROR] Job "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("(insert-into_floe.default.t) failed"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("division by zero"), std::string::npos) << run.err;
}

// A relative --warehouse is resolved once: the metadata names absolute locations, so floe from
// another folder (through another relative path), ClickHouse and icebird all read the rows.
TEST_F(FirstMinutesTest, ARelativeWarehouseGivesATableReadableFromAnywhere) {
  CommandRun run =
      SqlIn(work_, "--warehouse wh -e " +
                       Quote("SET 'execution.runtime-mode' = 'batch'; "
                             "CREATE TABLE t (id BIGINT, data STRING) PARTITIONED BY (data); "
                             "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'a');"));
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  const fs::path table = work_ / "wh" / "default" / "t";
  for (const auto& entry : fs::directory_iterator(table / "metadata")) {
    if (!entry.path().string().ends_with(".metadata.json")) continue;
    auto metadata = Json::Parse(testing::ReadText(entry.path()));
    ASSERT_TRUE(metadata.has_value()) << entry.path();
    EXPECT_EQ(metadata->GetString("location").value_or(""), table.string()) << entry.path();
  }
  std::vector<Json> rows =
      FloeRows(elsewhere_, "../here/wh", "SELECT id, data FROM t ORDER BY id;");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].GetString("data").value_or(""), "a");
  if (auto n = ClickHouseCount(table)) {
    EXPECT_EQ(*n, 3);
  }
  if (!floe::testing::PeerInstalled("icebird")) {
    std::cerr << "icebird not installed: its cross-check is skipped\n";
    return;
  }
  auto read = floe::testing::RunPeer("icebird-read", {table.string()});
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> icebird, floe::testing::ParseJsonLines(*read));
  EXPECT_EQ(icebird.size(), 3u) << *read;
}

// The embedded catalog lives inside its warehouse: deleting the folder deletes the catalog.
TEST_F(FirstMinutesTest, DeletingTheWarehouseLeavesNoCatalogBehind) {
  ASSERT_EQ(SqlIn(work_, "-e " + Quote("CREATE TABLE t (id BIGINT);")).exit_code, kExitOk);
  EXPECT_TRUE(fs::exists(work_ / "warehouse" / "catalog.db"));
  EXPECT_FALSE(fs::exists(work_ / "warehouse.catalog.db"));
  fs::remove_all(work_ / "warehouse");
  CommandRun run = SqlIn(work_, "-e " + Quote("CREATE TABLE t (id BIGINT); SHOW TABLES;"));
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
}

}  // namespace
}  // namespace floe::cli
