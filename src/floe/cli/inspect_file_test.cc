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

// `floe inspect FORMAT PATH`.
Outcome Inspect(const std::string& path, const std::string& format = "parquet") {
  CLI::App app{"floe", "floe"};
  int exit_code = kExitOk;
  AddCommands(app, exit_code);
  std::vector<std::string> args = {path, format, "inspect"};  // CLI11 takes them reversed
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  app.parse(args);
  Outcome run;
  run.out = ::testing::internal::GetCapturedStdout();
  run.err = ::testing::internal::GetCapturedStderr();
  run.exit_code = exit_code;
  return run;
}

std::string Data(const std::string& name) {
  return (testing::TestDataDir() / "parquet-testing/data" / name).string();
}

// The statistics that parquet-cli printed for these files (int32_with_null_pages.md,
// fixed_length_byte_array.md): nulls 275, min/max "-2136906554" / "2145722375", and
// nulls 105, "0x00000001" / "0x000003E8".
TEST(InspectParquetTest, PrintsStatisticsAsParquetCliDoes) {
  Outcome ints = Inspect(Data("int32_with_null_pages.parquet"));
  EXPECT_EQ(ints.exit_code, kExitOk) << ints.err;
  EXPECT_NE(ints.out.find("int32_field: OPTIONAL INT32 R:0 D:1"), std::string::npos) << ints.out;
  EXPECT_NE(ints.out.find("min=-2136906554 max=2145722375 null_count=275"), std::string::npos)
      << ints.out;
  Outcome fixed = Inspect(Data("fixed_length_byte_array.parquet"));
  EXPECT_EQ(fixed.exit_code, kExitOk);
  EXPECT_NE(fixed.out.find("min=0x00000001 max=0x000003e8 null_count=105"), std::string::npos)
      << fixed.out;
  EXPECT_NE(fixed.out.find("FIXED_LEN_BYTE_ARRAY(4)"), std::string::npos);
}

TEST(InspectParquetTest, PrintsLogicalTypesFieldIdsAndLevels) {
  Outcome run = Inspect(Data("byte_stream_split_extended.gzip.parquet"));
  EXPECT_EQ(run.exit_code, kExitOk);
  EXPECT_NE(run.out.find("logical=DECIMAL(7,3)"), std::string::npos);
  EXPECT_NE(run.out.find("logical=FLOAT16"), std::string::npos);
  EXPECT_NE(run.out.find("encodings=RLE,BYTE_STREAM_SPLIT"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("codec=GZIP"), std::string::npos);

  Outcome nested = Inspect(Data("nested_lists.snappy.parquet"));
  EXPECT_EQ(nested.exit_code, kExitOk);
  EXPECT_NE(nested.out.find("R:3 D:7"), std::string::npos) << nested.out;

  auto iceberg =
      testing::TestDataDir() / "impala/testdata/data/iceberg_test/iceberg_non_partitioned/data";
  for (const auto& entry : std::filesystem::directory_iterator(iceberg)) {
    if (entry.path().extension() != ".parquet") continue;
    Outcome ice = Inspect(entry.path().string());
    EXPECT_EQ(ice.exit_code, kExitOk);
    EXPECT_NE(ice.out.find("field_id=1"), std::string::npos) << ice.out;
    break;
  }
}

TEST(InspectParquetTest, BadInputIsOneLineAndExitCodeTwo) {
  for (const std::string& path :
       {Data("encrypt_columns_and_footer.parquet.encrypted"),
        (testing::TestDataDir() / "impala/testdata/data/bad_magic_number.parquet").string(),
        (testing::TestDataDir() / "parquet-testing/bad_data/PARQUET-1481.parquet").string(),
        std::string("/nonexistent/file.parquet")}) {
    SCOPED_TRACE(path);
    Outcome run = Inspect(path);
    EXPECT_EQ(run.exit_code, kExitBadInput);
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    std::string file = std::filesystem::path(path).filename().string();
    EXPECT_NE(run.err.find(file), std::string::npos) << run.err;
  }
  Outcome encrypted = Inspect(Data("encrypt_columns_and_footer.parquet.encrypted"));
  EXPECT_NE(encrypted.err.find("encrypted, unsupported"), std::string::npos);
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
                  .string(),
              "orc");
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
  Outcome run = Inspect(path, "orc");
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_NE(run.err.find("floe inspect orc: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(path), std::string::npos) << run.err;
}

}  // namespace
}  // namespace floe::cli
