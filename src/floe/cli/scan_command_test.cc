// `floe scan` and `floe inspect table` on a test table: options narrow the full scan consistently
// (the full scan's rows are checked against ClickHouse in table/scan/peer_scan_test.cc), and bad
// input exits with 2 and one line.

#include "floe/cli/scan_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using floe::testing::TestDataDir;

struct Output {
  int code;
  std::vector<std::string> lines;
  std::string err;
};

std::vector<std::string> Lines(std::FILE* f) {
  std::rewind(f);
  std::vector<std::string> lines;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, f)) {
    std::string line(buffer);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

Output Scan(ScanArgs args) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  Output o{RunScan(args, out, err), Lines(out), ""};
  for (const auto& l : Lines(err)) o.err += l;
  std::fclose(out);
  std::fclose(err);
  return o;
}

std::string Table() {
  return (TestDataDir() / "impala/testdata/data/iceberg_test/iceberg_partitioned").string();
}

TEST(ScanCommand, OptionsNarrowTheFullScan) {
  Output all = Scan({.table = Table()});
  ASSERT_EQ(all.code, kExitOk) << all.err;
  ASSERT_EQ(all.lines.size(), 20u);

  Output limited = Scan({.table = Table(), .limit = 3});
  ASSERT_EQ(limited.code, kExitOk);
  EXPECT_EQ(limited.lines.size(), 3u);

  Output filtered = Scan({.table = Table(), .filter = "action = 'click'"});
  ASSERT_EQ(filtered.code, kExitOk) << filtered.err;
  size_t clicks = 0;
  for (const auto& line : all.lines)
    clicks += line.find(R"("action":"click")") != std::string::npos;
  EXPECT_EQ(filtered.lines.size(), clicks);
  EXPECT_GT(clicks, 0u);

  Output ids = Scan({.table = Table(), .columns = {"id"}});
  ASSERT_EQ(ids.code, kExitOk) << ids.err;
  ASSERT_EQ(ids.lines.size(), all.lines.size());
  for (const auto& line : ids.lines) EXPECT_TRUE(line.starts_with(R"({"id":)")) << line;
}

// Impala wrote most of its ORC test tables twice, once as Parquet: the same rows, position deletes
// applied, whichever format the data and delete files have (files with Iceberg field ids, and
// migrated Hive files read through the name mapping). The ORC files themselves read as ClickHouse
// reads them (format/orc/peer_test.cc).
TEST(ScanCommand, ImpalaOrcTablesScanAsTheirParquetTwins) {
  const std::string base = (TestDataDir() / "impala/testdata/data/iceberg_test").string();
  const std::vector<std::pair<std::string, std::string>> twins = {
      {"hadoop_catalog/ice/airports_orc", "hadoop_catalog/ice/airports_parquet"},
      {"hadoop_catalog/ice/iceberg_alltypes_part_orc", "hadoop_catalog/ice/iceberg_alltypes_part"},
      {"hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution_orc",
       "hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution"},
      {"hadoop_catalog/ice/iceberg_v2_no_deletes_orc", "hadoop_catalog/ice/iceberg_v2_no_deletes"},
      {"hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc",
       "hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes"},
      {"hadoop_catalog/ice/iceberg_v2_positional_delete_all_rows_orc",
       "hadoop_catalog/ice/iceberg_v2_positional_delete_all_rows"},
      {"hadoop_catalog/ice/iceberg_v2_positional_not_all_data_files_have_delete_files_orc",
       "hadoop_catalog/ice/iceberg_v2_positional_not_all_data_files_have_delete_files"},
      {"iceberg_migrated_alter_test_orc", "iceberg_migrated_alter_test"},
      {"iceberg_migrated_complex_test_orc", "iceberg_migrated_complex_test"},
      {"iceberg_v3/iceberg_v3_row_lineage_orc", "iceberg_v3/iceberg_v3_row_lineage"},
  };
  for (const auto& [orc, parquet] : twins) {
    SCOPED_TRACE(orc);
    Output from_orc = Scan({.table = base + "/" + orc});
    ASSERT_EQ(from_orc.code, kExitOk) << from_orc.err;
    Output from_parquet = Scan({.table = base + "/" + parquet});
    ASSERT_EQ(from_parquet.code, kExitOk) << from_parquet.err;
    std::sort(from_orc.lines.begin(), from_orc.lines.end());
    std::sort(from_parquet.lines.begin(), from_parquet.lines.end());
    EXPECT_EQ(from_orc.lines, from_parquet.lines);
  }
}

// --filter is SQL: backtick names, IN, IS [NOT] NULL, IS [NOT] NAN... It keeps the rows the
// condition holds for, counted here on the full scan's rows; a condition with a part Iceberg cannot
// filter by is refused, naming that part.
TEST(ScanCommand, FilterIsASqlCondition) {
  Output all = Scan({.table = Table()});
  ASSERT_EQ(all.code, kExitOk) << all.err;
  ASSERT_FALSE(all.lines.empty());
  const std::string user = Json::Parse(all.lines[0])->Find("user")->as_string();
  size_t expected = 0;
  for (const auto& line : all.lines) {
    const Json row = *Json::Parse(line);
    const Json* id = row.Find("id");
    const bool id_ok = id && !id->is_null() && id->as_int() > 2;
    const std::string& action = row.Find("action")->as_string();
    expected +=
        row.Find("user")->as_string() == user && id_ok && (action == "click" || action == "view");
  }
  Output filtered = Scan({.table = Table(),
                          .filter = "`user` = '" + user +
                                    "' AND id > 2 AND action IN ('click', 'view') AND "
                                    "NOT (`id` IS NULL)"});
  ASSERT_EQ(filtered.code, kExitOk) << filtered.err;
  EXPECT_EQ(filtered.lines.size(), expected);
  EXPECT_GT(expected, 0u);

  Output unmapped = Scan({.table = Table(), .filter = "id > 2 AND upper(action) = 'CLICK'"});
  EXPECT_EQ(unmapped.code, kExitBadInput);
  EXPECT_TRUE(unmapped.lines.empty());
  EXPECT_NE(unmapped.err.find("'upper(`action`) = 'CLICK'' has no Iceberg filter form"),
            std::string::npos)
      << unmapped.err;
  Output not_boolean = Scan({.table = Table(), .filter = "id + 1"});
  EXPECT_EQ(not_boolean.code, kExitBadInput);
  EXPECT_NE(not_boolean.err.find("a filter must be BOOLEAN, not INT"), std::string::npos)
      << not_boolean.err;
  Output not_floating = Scan({.table = Table(), .filter = "id IS NAN"});
  EXPECT_EQ(not_floating.code, kExitBadInput);
  EXPECT_NE(not_floating.err.find("IS NAN needs a FLOAT or DOUBLE operand"), std::string::npos)
      << not_floating.err;
}

TEST(ScanCommand, BadInputExitsWithTwoAndOneLine) {
  for (ScanArgs args :
       {ScanArgs{.table = "/no/such/table"}, ScanArgs{.table = Table(), .filter = "id >"},
        ScanArgs{.table = Table(), .columns = {"no_such_column"}},
        ScanArgs{.table = Table(), .snapshot_id = 1}}) {
    Output o = Scan(args);
    EXPECT_EQ(o.code, kExitBadInput);
    EXPECT_TRUE(o.lines.empty());
    EXPECT_TRUE(o.err.starts_with("floe scan: ")) << o.err;
  }
}

TEST(InspectTable, CountsFilesByContent) {
  const std::string table =
      (TestDataDir() /
       "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_delete_positional")
          .string();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  ASSERT_EQ(RunInspectTable(table, std::nullopt, {}, out, err), kExitOk);
  std::string text;
  for (const auto& l : Lines(out)) text += l + "\n";
  std::fclose(out);
  std::fclose(err);
  // The current snapshot's summary says total-data-files=1 and total-delete-files=1.
  EXPECT_NE(text.find("data               1 files"), std::string::npos) << text;
  EXPECT_NE(text.find("position_deletes   1 files"), std::string::npos) << text;
  EXPECT_NE(text.find("total-delete-files=1"), std::string::npos) << text;
}

TEST(InspectTable, ThroughACatalog) {
  using testing::Quote;
  floe::testing::TempDir dir;
  const std::string input =
      (TestDataDir() / "parquet-testing/data/alltypes_plain.parquet").string();
  const std::string db = (dir.path() / "catalog.db").string();
  const std::string catalog = " --catalog catalog-type=sql --catalog uri=jdbc:sqlite:" + Quote(db) +
                              " --catalog warehouse=" + Quote((dir.path() / "wh").string());
  floe::testing::CommandRun run = testing::Floe("append lake.db.events " + Quote(input) + catalog);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;

  run = testing::Floe("inspect table lake.db.events" + catalog);
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  // The metadata file the catalog row points at, read with the sqlite3 client.
  floe::testing::CommandRun pointer = floe::testing::RunCommand(
      "sqlite3 " + Quote(db) + " \"SELECT metadata_location FROM iceberg_tables\"");
  ASSERT_EQ(pointer.exit_code, 0) << pointer.err;
  std::string metadata_location = pointer.out.substr(0, pointer.out.find('\n'));
  ASSERT_FALSE(metadata_location.empty());
  EXPECT_NE(run.out.find("table            lake.db.events\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("metadata file    " + metadata_location + "\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("data               1 files"), std::string::npos) << run.out;
  if (auto counted = floe::testing::RunPeer(
          "duck", {"SELECT count(*) AS n FROM read_parquet('" + input + "')"})) {
    FLOE_ASSERT_OK_AND_ASSIGN(Json row, Json::Parse(*counted));
    const Json* n = row.Find("n");
    ASSERT_NE(n, nullptr);
    const std::string records = n->is_string() ? n->as_string() : n->Dump();
    EXPECT_NE(run.out.find("total-records=" + records), std::string::npos) << run.out;
  }

  // A table the catalog does not hold, and a location map (which only table folders take).
  run = testing::Floe("inspect table lake.db.missing" + catalog);
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("missing"), std::string::npos) << run.err;
  run = testing::Floe("inspect table lake.db.events --location-map /a=/b" + catalog);
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("--location-map"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace floe::cli
