// ARRAY[...] and MAP[...] written into an Iceberg table by INSERT, read back by DuckDB from the
// table's Parquet data files: the values floe's constructors build are what another engine sees.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "floe/sql/session.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

TEST(ConstructorTest, ArrayAndMapColumnsReadBackByDuckDb) {
  testing::TempDir tmp;
  Session session;  // not opened: no embedded catalog in the working folder
  const std::string warehouse = (tmp.path() / "wh").string();
  for (const std::string& sql : {
           fmt::format("CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', "
                       "'warehouse'='{}')",
                       warehouse),
           std::string("CREATE DATABASE lake.db"),
           std::string("CREATE TABLE lake.db.t (id BIGINT, tags ARRAY<STRING>, "
                       "scores MAP<STRING, INT>, nums ARRAY<DECIMAL(11, 1)>)"),
           std::string("SET 'execution.runtime-mode' = 'batch'"),
           std::string("INSERT INTO lake.db.t VALUES (1, ARRAY['x', NULL], MAP['a', 1, 'b', 2], "
                       "ARRAY[1, 2.5]), (2, ARRAY['z'], MAP['c', 3], ARRAY[-4.5])"),
       }) {
    auto result = session.ExecuteSql(sql);
    ASSERT_TRUE(result.has_value()) << sql << ": " << result.error().ToString();
  }
  if (!testing::PeerInstalled("@duckdb/node-api")) GTEST_SKIP() << "DuckDB peer not installed";
  auto out = testing::RunPeer(
      "duck", {fmt::format("SELECT id, to_json(tags) AS tags, to_json(map_entries(scores)) AS "
                           "scores, to_json(nums) AS nums FROM read_parquet('{}/db/t/data/**/"
                           "*.parquet') ORDER BY id",
                           warehouse)});
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  std::vector<std::string> rows;
  std::istringstream lines(*out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 2u) << *out;
  FLOE_ASSERT_OK_AND_ASSIGN(Json first, Json::Parse(rows[0]));
  FLOE_ASSERT_OK_AND_ASSIGN(Json second, Json::Parse(rows[1]));
  auto text = [](const Json& row, const char* key) {
    const Json* value = row.Find(key);
    return value == nullptr ? std::string("<missing>")
                            : (value->is_string() ? value->as_string() : value->Dump());
  };
  EXPECT_EQ(text(first, "id"), "1");
  EXPECT_EQ(text(first, "tags"), R"(["x",null])");
  EXPECT_EQ(text(first, "scores"), R"([{"key":"a","value":1},{"key":"b","value":2}])");
  EXPECT_EQ(text(first, "nums"), "[1.0,2.5]");
  EXPECT_EQ(text(second, "id"), "2");
  EXPECT_EQ(text(second, "tags"), R"(["z"])");
  EXPECT_EQ(text(second, "scores"), R"([{"key":"c","value":3}])");
  EXPECT_EQ(text(second, "nums"), "[-4.5]");
}

}  // namespace
}  // namespace floe::sql
