// Runs every DataStream example on temp tables and checks what it printed or wrote: the rows given
// to the writing examples are the expectation, written out here; tables are read back through the
// table layer's scan, and datagen_to_iceberg's rows are recomputed with
// DatagenSource::GenerateRows.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "example_test_support.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::examples::test {
namespace {

int64_t CurrentSnapshot(const std::string& folder) {
  auto table = stream::TableLoader::FromFolder(folder).Load();
  EXPECT_TRUE(table.has_value());
  return table ? (*table)->metadata()->current_snapshot_id().value_or(-1) : -1;
}

// Lines of a file, once it has at least `count` (a running example's output).
std::vector<std::string> WaitForLines(const std::string& path, size_t count) {
  while (true) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    if (lines.size() >= count) return lines;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST(ExamplesTest, ReadAndWriteExamplesOfTheDocumentation) {
  floe::testing::TempDir dir;
  std::string scratch = dir.path().string();
  std::string table = scratch + "/warehouse/db/t";

  Ran append = RunExample("append", {table, "1:a", "2:b"}, scratch);
  ASSERT_EQ(append.exit_code, 0);
  EXPECT_EQ(TableRows(table), (std::vector<std::string>{"1|a", "2|b"}));
  int64_t first = CurrentSnapshot(table);

  for (const char* reader : {"batch_read", "flip27_batch_read"}) {
    Ran printed = RunExample(reader, {table}, scratch);
    EXPECT_EQ(printed.exit_code, 0) << reader;
    EXPECT_EQ(Sorted(printed.lines), (std::vector<std::string>{"+I[1, a]", "+I[2, b]"})) << reader;
  }

  ASSERT_EQ(RunExample("append", {table, "3:c", "4:d"}, scratch).exit_code, 0);
  int64_t second = CurrentSnapshot(table);
  ASSERT_NE(first, second);
  EXPECT_EQ(TableRows(table), (std::vector<std::string>{"1|a", "2|b", "3|c", "4|d"}));

  // From a snapshot id, inclusive: the rows that snapshot and its successors appended.
  Ran from_second = RunExample("streaming_read", {table, std::to_string(second), "2"}, scratch);
  EXPECT_EQ(from_second.exit_code, 0);
  EXPECT_EQ(Sorted(from_second.lines), (std::vector<std::string>{"+I[3, c]", "+I[4, d]"}));
  Ran from_first = RunExample("streaming_read", {table, std::to_string(first), "4"}, scratch);
  EXPECT_EQ(Sorted(from_first.lines),
            (std::vector<std::string>{"+I[1, a]", "+I[2, b]", "+I[3, c]", "+I[4, d]"}));

  // From the latest snapshot (inclusive), then a snapshot appended while the job monitors.
  std::string out = scratch + "/flip27_streaming_read.out";
  pid_t streaming = Spawn("flip27_streaming_read", {table, "50", "3"}, out);
  ASSERT_GT(streaming, 0);
  EXPECT_EQ(Sorted(WaitForLines(out, 2)), (std::vector<std::string>{"+I[3, c]", "+I[4, d]"}));
  ASSERT_EQ(RunExample("append", {table, "5:e"}, scratch).exit_code, 0);
  EXPECT_EQ(Wait(streaming), 0);
  EXPECT_EQ(WaitForLines(out, 3).back(), "+I[5, e]");

  Ran overwrite = RunExample("overwrite", {table, "9:z", "10:y"}, scratch);
  ASSERT_EQ(overwrite.exit_code, 0);
  EXPECT_EQ(TableRows(table), (std::vector<std::string>{"10|y", "9|z"}));

  Ran upsert = RunExample("upsert", {table, "9:x", "11:w", "9:v"}, scratch);
  ASSERT_EQ(upsert.exit_code, 0);
  EXPECT_EQ(TableRows(table), (std::vector<std::string>{"10|y", "11|w", "9|v"}));
  Ran printed = RunExample("batch_read", {table}, scratch);
  EXPECT_EQ(Sorted(printed.lines),
            (std::vector<std::string>{"+I[10, y]", "+I[11, w]", "+I[9, v]"}));

  // Bad arguments are reported, not crashed on.
  EXPECT_EQ(RunExample("append", {table, "x"}, scratch).exit_code, 1);
  EXPECT_EQ(RunExample("batch_read", {scratch + "/warehouse/db/missing"}, scratch).exit_code, 1);
}

// The rows datagen_to_iceberg writes for `rows` rows and `keys` keys with seed 0, recomputed from
// the datagen's pure function: "id|seq|data", the last row of each id.
std::vector<std::string> ExpectedDatagenRows(int64_t rows, int64_t keys) {
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"seq", DataType::Int64(), false}, {"data", DataType::String(), true}});
  auto source = stream::DatagenSource::Make(schema, {}).value();
  std::vector<int64_t> indices;
  for (int64_t i = std::max<int64_t>(0, rows - keys); i < rows; ++i) indices.push_back(i);
  RecordBatch batch = source->GenerateRows(indices).value();
  std::vector<std::string> expected;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    int64_t i = indices[r];
    expected.push_back(std::to_string(i % keys) + "|" + std::to_string(i) + "|" +
                       RowView(batch, r).Get(1).get<std::string>());
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

TEST(ExamplesTest, DatagenToIcebergWritesEveryRowOnceAndARerunAddsNothing) {
  floe::testing::TempDir dir;
  std::string scratch = dir.path().string();
  std::string table = scratch + "/warehouse/db/events";
  std::vector<std::string> args{"--table",
                                table,
                                "--rows",
                                "3000",
                                "--rate",
                                "0",
                                "--parallelism",
                                "2",
                                "--checkpoint-interval",
                                "30"};
  for (int run = 0; run < 2; ++run) {
    Ran done = RunExample("datagen_to_iceberg", args, scratch);
    ASSERT_EQ(done.exit_code, 0) << run;
    EXPECT_EQ(TableRows(table), ExpectedDatagenRows(3000, 3000)) << run;
  }
  std::string upserts = scratch + "/warehouse/db/upserts";
  Ran upsert = RunExample("datagen_to_iceberg",
                          {"--table", upserts, "--rows", "3000", "--rate", "0", "--parallelism",
                           "2", "--checkpoint-interval", "30", "--upsert", "--keys", "40"},
                          scratch);
  ASSERT_EQ(upsert.exit_code, 0);
  EXPECT_EQ(TableRows(upserts), ExpectedDatagenRows(3000, 40));
  // Keys that one reader cannot own are refused.
  EXPECT_EQ(RunExample("datagen_to_iceberg",
                       {"--table", upserts, "--rows", "10", "--checkpoint-interval", "30",
                        "--parallelism", "3", "--upsert", "--keys", "40"},
                       scratch)
                .exit_code,
            1);
}

// write_rows, bounded: 3000 generated events into the tables of their (region, kind); ClickHouse
// counts every row once over the twelve tables, and the example printed one line per snapshot.
TEST(ExamplesTest, WriteRowsFansOutToTables) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  floe::testing::TempDir dir;
  const std::string warehouse = dir.path().string() + "/wh";
  Ran run = RunExample("write_rows", {warehouse, "3000", dir.path().string() + "/checkpoints"},
                       dir.path().string());
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_FALSE(run.lines.empty());
  std::string sql = "SELECT count(), uniqExact(id) FROM (";
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
  EXPECT_EQ(*out, "3000\t3000\n");
}

}  // namespace
}  // namespace floe::examples::test
