// Runs the real `floe` binary on test data: exit codes, output, and one-line errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_json.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using floe::testing::ReadFileOrDie;
using floe::testing::TempDir;
using floe::testing::TestDataDir;

using testing::CommandRun;
using testing::Floe;
using testing::Quote;

std::string Data(const std::string& relative) { return Quote((TestDataDir() / relative).string()); }

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(InspectMetadataTest, SummaryOfAFile) {
  CommandRun run =
      Floe("inspect metadata " +
           Data("iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2.json"));
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(run.err, "");
  for (const char* expected : {
           "format version        2\n",
           "table uuid            9c12d441-03fe-4693-9a96-a0705ddf69c1\n",
           "last updated          2020-10-14T01:22:53.590Z (1602638573590)\n",
           "current schema (id 1 of 2):\n  1: x: required long\n",
           "1000: x: identity(1)",
           "bucket[4](3) desc nulls-last",
           "3055729675574597004 * 2019-04-12T20:29:15.770Z seq 1 append parent "
           "3051729675574597004",
           "  test tag -> 3051729675574597004 max-ref-age-ms 10000000\n",
           "  read.split.target.size = 134217728\n",
       }) {
    EXPECT_NE(run.out.find(expected), std::string::npos) << expected << "\nin:\n" << run.out;
  }
}

TEST(InspectMetadataTest, TableFolderAndJson) {
  const std::string table = Data("duckdb-iceberg/data/persistent/iceberg/lineitem_iceberg_gz");
  CommandRun summary = Floe("inspect metadata " + table);
  EXPECT_EQ(summary.exit_code, kExitOk) << summary.err;
  EXPECT_NE(summary.out.find("lineitem_iceberg_gz/metadata/v2.gz.metadata.json\n"),
            std::string::npos)
      << summary.out;
  EXPECT_NE(summary.out.find("format version        1\n"), std::string::npos);

  CommandRun json = Floe("inspect metadata --json " + table);
  EXPECT_EQ(json.exit_code, kExitOk) << json.err;
  auto printed = Json::Parse(json.out);
  ASSERT_TRUE(printed.has_value()) << printed.error().ToString();
  // What --json prints reads back as the same table.
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr m, TableMetadataFromJson(*printed));
  EXPECT_EQ(m->table_uuid(), "cadbf370-2450-4103-a393-668c16aed805");
  EXPECT_EQ(TableMetadataToJson(*m), *printed);
}

TEST(InspectMetadataTest, BadInputIsOneLineAndExitCode2) {
  struct Case {
    std::string path;
    std::string message;
  };
  const Case cases[] = {
      {"iceberg-java/core/src/test/resources/TableMetadataUnsupportedVersion.json",
       "format-version 42 is not supported"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2MissingSchemas.json",
       "missing required field 'schemas'"},
      {"duckdb-iceberg/data/persistent/bad_data/bad_iceberg_metadata.json", "invalid JSON"},
      {"avro/share/test/data/weather.avro", "invalid JSON"},
      {"duckdb-iceberg/data/persistent/bad_data", "No such file or directory"},
      {"no/such/file.metadata.json", "No such file or directory"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    CommandRun run = Floe("inspect metadata " + Data(c.path));
    EXPECT_EQ(run.exit_code, kExitBadInput);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(Lines(run.err), 1) << run.err;
    EXPECT_TRUE(run.err.starts_with("floe: " + (TestDataDir() / c.path).string())) << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
  }
  // A missing argument is a usage error, also exit code 2.
  EXPECT_EQ(Floe("inspect metadata").exit_code, kExitBadInput);
}

}  // namespace
}  // namespace floe::cli
