#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

Outcome Inspect(const std::string& path) {
  CLI::App app{"floe", "floe"};
  int exit_code = kExitOk;
  AddCommands(app, exit_code);
  std::vector<std::string> args = {path, "orc", "inspect"};  // CLI11 takes them reversed
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  app.parse(args);
  Outcome run;
  run.out = ::testing::internal::GetCapturedStdout();
  run.err = ::testing::internal::GetCapturedStderr();
  run.exit_code = exit_code;
  return run;
}

// Impala's ORC file of a table with position deletes: its types carry the Iceberg field ids, its
// strings are dictionary-encoded, and ClickHouse reads ids 3..18 and one user "Alan" from it (the
// statistics' bounds).
TEST(InspectOrcTest, PrintsTypesEncodingsStatisticsAndStreams) {
  Outcome run =
      Inspect((testing::TestDataDir() /
               "impala/testdata/data/iceberg_test/hadoop_catalog/ice/"
               "iceberg_v2_partitioned_position_deletes_orc/data/action=click/"
               "00000-0-data-boroknagyz_20220830173852_560d6f0e-8508-42d6-95a7-67bfa860a28c-job_"
               "16618645111571_0006-00001.orc")
                  .string());
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_NE(run.out.find("compression: ZLIB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("rows: 6  stripes: 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 id: int iceberg.id=1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("4 event_time: timestamp iceberg.id=4"), std::string::npos);
  EXPECT_NE(run.out.find("column 1: values=6 has_null=false min=3 max=18"), std::string::npos);
  EXPECT_NE(run.out.find("min=\"Alan\" max=\"Alan\""), std::string::npos);
  EXPECT_NE(run.out.find("column 2: DICTIONARY_V2 dictionary_size=1"), std::string::npos);
  EXPECT_NE(run.out.find("writer timezone: UTC"), std::string::npos);
  EXPECT_NE(run.out.find("stream SECONDARY column 4"), std::string::npos);
}

TEST(InspectOrcTest, BadInputNamesTheFile) {
  testing::TempDir dir;
  const std::string path = (dir.path() / "empty.orc").string();
  std::fclose(std::fopen(path.c_str(), "w"));
  Outcome run = Inspect(path);
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("floe inspect orc: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
}

}  // namespace
}  // namespace floe::cli
