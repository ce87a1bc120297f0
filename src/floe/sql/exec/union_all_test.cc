#include <gtest/gtest.h>

#include "floe/sql/exec/exec_testing.h"
#include "floe/sql/exec/relational.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

TEST(UnionAllTest, KeepsEveryRowOfEveryInputAsDuckDbDoes) {
  if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
  floe::testing::TempDir dir;
  auto a = testing::RandomTable(41, 2, 100);
  auto b = testing::RandomTable(42, 3, 50);
  auto a_path = dir.path() / "a.parquet";
  auto b_path = dir.path() / "b.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(a_path, a));
  FLOE_ASSERT_OK(testing::WriteParquet(b_path, b));

  stream::StreamEnvironment env({.mode = stream::RuntimeMode::kBatch, .parallelism = 2});
  auto first = env.FromSource(std::make_shared<stream::CollectionSource>(a[0].schema(), a), "a");
  auto second = env.FromSource(std::make_shared<stream::CollectionSource>(b[0].schema(), b), "b");
  auto third = env.FromSource(std::make_shared<stream::CollectionSource>(a[0].schema(), a), "c", 3);
  FLOE_ASSERT_OK_AND_ASSIGN(auto all, UnionAll({first, second, third}));
  auto collected = env.Collect(all, "collect");
  FLOE_ASSERT_OK(env.Execute("union"));

  std::string columns = testing::kAllColumns;
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto expected,
      testing::DuckRows(
          a_path,
          fmt::format("SELECT {0} FROM t UNION ALL SELECT {0} FROM read_parquet('{1}') "
                      "UNION ALL SELECT {0} FROM t",
                      columns, b_path.string()),
          testing::kAllKinds));
  ASSERT_EQ(expected.size(), 550u);
  EXPECT_EQ(testing::SortedRows(collected->batches()), expected);
}

TEST(UnionAllTest, RefusesInputsOfOtherTypes) {
  auto a = testing::RandomTable(41, 1, 3);
  auto narrow = std::make_shared<const BatchSchema>(std::vector<Field>{{"x", DataType::Int32()}});
  stream::StreamEnvironment env;
  auto first = env.FromSource(std::make_shared<stream::CollectionSource>(a[0].schema(), a), "a");
  auto second = env.FromSource(
      std::make_shared<stream::CollectionSource>(narrow, std::vector<RecordBatch>{}), "b");
  auto result = UnionAll({first, second});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message().find("columns"), std::string::npos);
  EXPECT_FALSE(UnionAll({}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto alone, UnionAll({first}));
  EXPECT_EQ(alone.node_id(), first.node_id());
}

}  // namespace
}  // namespace floe::sql::exec
