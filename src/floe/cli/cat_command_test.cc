#include "floe/cli/cat_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "floe/cli/commands.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

struct Output {
  int code;
  std::string out;
  std::string err;
};

Output RunCapture(const std::string& path, bool schema_only) {
  char* out_buf = nullptr;
  size_t out_size = 0;
  char* err_buf = nullptr;
  size_t err_size = 0;
  std::FILE* out = open_memstream(&out_buf, &out_size);
  std::FILE* err = open_memstream(&err_buf, &err_size);
  int code = RunCat(path, schema_only, out, err);
  std::fclose(out);
  std::fclose(err);
  Output result{code, std::string(out_buf, out_size), std::string(err_buf, err_size)};
  std::free(out_buf);
  std::free(err_buf);
  return result;
}

std::string AvroData() { return (floe::testing::TestDataDir() / "avro/share/test/data").string(); }

TEST(CatCommandTest, PrintsRecordsAsJsonLines) {
  Output o = RunCapture(AvroData() + "/weather-deflate.avro", false);
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_EQ(o.err, "");
  // Exactly the lines of the weather.json that accompanies the file.
  EXPECT_EQ(o.out, floe::testing::ReadFileOrDie(AvroData() + "/weather.json"));
}

TEST(CatCommandTest, LongsStayExactAndBytesAreHex) {
  Output o = RunCapture(
      (floe::testing::TestDataDir() / "avro/lang/c/tests/avro-1279-codec.avro").string(), false);
  EXPECT_EQ(o.code, kExitOk);
  EXPECT_NE(o.out.find(R"("longField":-9223372036854775808)"), std::string::npos);
  EXPECT_NE(o.out.find(R"("bytesField":"4d494e2056414c554553")"), std::string::npos);
}

TEST(CatCommandTest, SchemaKeepsIcebergAttributes) {
  std::string manifest;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           floe::testing::TestDataDir() / "duckdb-iceberg")) {
    if (entry.path().extension() == ".avro" &&
        entry.path().filename().string().find("-m0") != std::string::npos) {
      manifest = entry.path().string();
      break;
    }
  }
  ASSERT_FALSE(manifest.empty());
  Output o = RunCapture(manifest, true);
  EXPECT_EQ(o.code, kExitOk);
  auto schema = Json::Parse(o.out);
  ASSERT_TRUE(schema.has_value()) << o.out;
  EXPECT_NE(o.out.find("\"field-id\""), std::string::npos);
}

TEST(CatCommandTest, BadInputIsOneLineAndExitCodeTwo) {
  floe::testing::TempDir dir;
  std::string truncated = (dir.path() / "cut.avro").string();
  std::string whole = floe::testing::ReadFileOrDie(AvroData() + "/weather.avro");
  std::ofstream(truncated, std::ios::binary) << whole.substr(0, whole.size() - 20);
  for (const std::string& path :
       {truncated, (dir.path() / "missing.avro").string(), AvroData() + "/weather.json"}) {
    Output o = RunCapture(path, false);
    EXPECT_EQ(o.code, kExitBadInput) << path;
    EXPECT_EQ(o.err.rfind("floe cat: " + path + ": ", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

std::string ImpalaOrcFile(const std::string& relative) {
  return (floe::testing::TestDataDir() / "impala/testdata/data/iceberg_test" / relative).string();
}

// The rows ClickHouse reads from this file (`SELECT * FROM file(..., 'ORC')`), its UTC zone
// suffix dropped: the column is an ORC timestamp, a local date-time.
TEST(CatCommandTest, OrcFilesPrintTheRowsClickHouseReads) {
  Output o = RunCapture(
      ImpalaOrcFile("hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/data/"
                    "action=click/00000-0-data-boroknagyz_20220830173852_560d6f0e-8508-42d6-95a7-"
                    "67bfa860a28c-job_16618645111571_0006-00001.orc"),
      false);
  EXPECT_EQ(o.code, kExitOk) << o.err;
  std::string expected;
  for (int id : {3, 12, 9, 18, 13, 10}) {
    expected += "{\"id\":" + std::to_string(id) +
                ",\"user\":\"Alan\",\"action\":\"click\",\"event_time\":\"2020-01-01T10:00:00."
                "000000000\"}\n";
  }
  EXPECT_EQ(o.out, expected);
}

// Hive's and Impala's data files have no extension: the magic tells them.
TEST(CatCommandTest, OrcFilesWithoutAnExtensionAreKnownByTheirMagic) {
  Output o = RunCapture(ImpalaOrcFile("iceberg_migrated_alter_test_orc/000000_0"), false);
  EXPECT_EQ(o.code, kExitOk) << o.err;
  EXPECT_NE(o.out.find("\"int_col\""), std::string::npos) << o.out;
  Output schema = RunCapture(ImpalaOrcFile("iceberg_migrated_alter_test_orc/000000_0"), true);
  EXPECT_EQ(schema.code, kExitBadInput);
  EXPECT_NE(schema.err.find("try floe inspect orc"), std::string::npos) << schema.err;
}

}  // namespace
}  // namespace floe::cli
