// A catalog plugin from SQL, end to end with the real binary: the example plugin
// (examples/catalog_plugin) keeps its tables in the memory of the catalog instance the session
// made, so CREATE, INSERT (batch and streaming), SELECT, CALL and DROP in one `floe sql` script
// work only when every job and action goes through that instance; a second instance made from
// the same properties would not know the table ("table ... not found").

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "floe/cli/commands.h"
#include "floe/cli/run_floe_testing.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

using testing::CommandRun;
using testing::Quote;

// Built beside the binary by src/floe/catalog/CMakeLists.txt.
std::string ExamplePlugin() {
  return (std::filesystem::path(FLOE_BINARY).parent_path() / "src" / "floe" / "catalog" /
          "libfloe_example_catalog_plugin.so")
      .string();
}

TEST(PluginCatalogSqlTest, AnInMemoryPluginServesEveryStatement) {
  floe::testing::TempDir dir;
  const std::string script =
      "CREATE CATALOG p WITH ('type'='iceberg', 'catalog-impl'='" + ExamplePlugin() +
      "', 'warehouse'='" + (dir.path() / "lake").string() +
      "', 'example.namespaces'='db');\n"
      "USE CATALOG p;\n"
      "USE db;\n"
      "CREATE TABLE t (id BIGINT, data STRING);\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "INSERT INTO t VALUES (1, 'a'), (2, 'b');\n"
      "SET 'execution.runtime-mode' = 'streaming';\n"
      "INSERT INTO t VALUES (3, 'c');\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "SET 'sql-client.execution.result-mode' = 'changelog';\n"
      "SELECT id, data FROM t ORDER BY id;\n"
      "CALL p.system.rewrite_data_files('db.t', options => map('min-input-files', '2'));\n"
      "SELECT COUNT(*) AS files FROM t$files;\n"
      "DROP TABLE t;\n"
      "SHOW TABLES;\n";
  CommandRun run = testing::Floe("sql --warehouse " + Quote((dir.path() / "wh").string()) + " -e " +
                                 Quote(script) + " </dev/null");
  ASSERT_EQ(run.exit_code, kExitOk) << run.out << run.err;
  // The rows of both INSERTs, the streaming one waited for by the SELECT after it.
  EXPECT_NE(run.out.find("+I[1, a]\n+I[2, b]\n+I[3, c]\n"), std::string::npos) << run.out;
  // Two data files (one per INSERT) rewritten into one.
  EXPECT_NE(run.out.find("+I[2, 1, "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("+I[1]\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("+I[t]"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace floe::cli
