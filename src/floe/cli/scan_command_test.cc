// `floe scan` and `floe inspect table` on a test table: options narrow the full scan consistently
// (the full scan's rows are checked against ClickHouse in table/scan/peer_scan_test.cc), and bad
// input exits with 2 and one line.

#include "floe/cli/scan_command.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/testing/testing.h"

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
  ASSERT_EQ(RunInspectTable(table, std::nullopt, out, err), kExitOk);
  std::string text;
  for (const auto& l : Lines(out)) text += l + "\n";
  std::fclose(out);
  std::fclose(err);
  // The current snapshot's summary says total-data-files=1 and total-delete-files=1.
  EXPECT_NE(text.find("data               1 files"), std::string::npos) << text;
  EXPECT_NE(text.find("position_deletes   1 files"), std::string::npos) << text;
  EXPECT_NE(text.find("total-delete-files=1"), std::string::npos) << text;
}

}  // namespace
}  // namespace floe::cli
