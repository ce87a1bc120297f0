#include <gtest/gtest.h>

#include "floe/sql/exec/exec_testing.h"
#include "floe/sql/exec/relational.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

using testing::RunCollect;

// DuckDB reads a Parquet file in order (insertion order is preserved), as one floe source subtask
// reads its batches: both must keep the same rows.
TEST(LimitTest, KeepsTheRowsDuckDbKeeps) {
  if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
  floe::testing::TempDir dir;
  auto input = testing::RandomTable(3, 4, 500);
  auto parquet = dir.path() / "t.parquet";
  FLOE_ASSERT_OK(testing::WriteParquet(parquet, input));
  struct Case {
    std::optional<int64_t> limit;
    int64_t offset;
  };
  for (Case c :
       {Case{7, 0}, Case{600, 480}, Case{std::nullopt, 1990}, Case{0, 3}, Case{10, 5000}}) {
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto output,
        RunCollect(input, {.mode = stream::RuntimeMode::kBatch, .parallelism = 2},
                   [&](const stream::DataStream& s) { return Limit(s, c.limit, c.offset); }));
    std::string sql = "SELECT k_int AS c0, k_str AS c1, v_big AS c2, v_dbl AS c3 FROM t";
    if (c.limit) sql += fmt::format(" LIMIT {}", *c.limit);
    sql += fmt::format(" OFFSET {}", c.offset);
    FLOE_ASSERT_OK_AND_ASSIGN(auto expected, testing::DuckRows(parquet, sql, "vvvd"));
    std::vector<RecordBatch> projected;
    for (const RecordBatch& batch : output) {
      std::vector<int> columns = {0, 1, 3, 4};
      projected.push_back(*batch.SelectColumns(columns));
    }
    EXPECT_EQ(testing::SortedRows(projected), expected) << c.offset;
  }
}

TEST(LimitTest, RejectsNegativeValues) {
  stream::StreamEnvironment env;
  auto input = testing::RandomTable(3, 1, 5);
  auto source =
      env.FromSource(std::make_shared<stream::CollectionSource>(input[0].schema(), input), "s");
  EXPECT_EQ(Limit(source, -1, 0).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(Limit(source, 1, -2).error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::sql::exec
