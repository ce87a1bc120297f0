// Mark joins against DuckDB: the same IN / EXISTS predicates over the same
// random rows (nulls in every column) written to Parquet.

#include <gtest/gtest.h>

#include "floe/sql/exec/exec_testing.h"
#include "floe/sql/exec/relational.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

class MarkJoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
    left_ = testing::RandomTable(41, 3, 200);
    left_path_ = dir_.path() / "l.parquet";
    FLOE_ASSERT_OK(testing::WriteParquet(left_path_, left_));
  }

  void UseRight(std::vector<RecordBatch> right) {
    right_ = std::move(right);
    right_path_ = dir_.path() / fmt::format("r{}.parquet", ++files_);
    FLOE_ASSERT_OK(testing::WriteParquet(right_path_, right_));
  }

  Result<std::vector<std::string>> Floe(std::vector<int> left_keys, std::vector<int> right_keys,
                                        std::optional<std::pair<int, int>> in) {
    stream::StreamEnvironment env({.mode = stream::RuntimeMode::kBatch, .parallelism = 3});
    auto l = env.FromSource(std::make_shared<stream::CollectionSource>(left_[0].schema(), left_),
                            "left", 2);
    auto r = env.FromSource(std::make_shared<stream::CollectionSource>(left_[0].schema(), right_),
                            "right", 2);
    FLOE_ASSIGN_OR_RETURN(auto marked, MarkJoin(l, r, left_keys, right_keys, in, "mark"));
    auto collected = env.Collect(marked, "collect");
    FLOE_RETURN_IF_ERROR(env.Execute("mark"));
    return testing::SortedRows(collected->batches());
  }

  // The left rows with `predicate` (over l and read_parquet r) as a last column, in DuckDB.
  Result<std::vector<std::string>> Duck(const std::string& predicate) {
    const char* names[] = {"k_int", "k_str",  "v_int", "v_big", "v_dbl",
                           "v_dec", "v_date", "v_ts",  "v_bool"};
    std::string columns;
    for (int c = 0; c < 9; ++c) columns += fmt::format("l.{} AS c{}, ", names[c], c);
    std::string sql = fmt::format("SELECT {}({}) AS c9 FROM t AS l", columns, predicate);
    size_t at = 0;
    while ((at = sql.find("$r", at)) != std::string::npos) {
      sql.replace(at, 2, fmt::format("read_parquet('{}')", right_path_.string()));
    }
    return testing::DuckRows(left_path_, sql, std::string(testing::kAllKinds) + "v");
  }

  floe::testing::TempDir dir_;
  std::vector<RecordBatch> left_;
  std::vector<RecordBatch> right_;
  std::filesystem::path left_path_;
  std::filesystem::path right_path_;
  int files_ = 0;
};

TEST_F(MarkJoinTest, InAndExistsMatchDuckDb) {
  UseRight(testing::RandomTable(42, 4, 100));
  // k_int has nulls on both sides: IN gives TRUE and NULL.
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows, Floe({}, {}, std::make_pair(0, 0)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, Duck("l.k_int IN (SELECT k_int FROM $r)"));
  ASSERT_EQ(expected.size(), 600u);
  EXPECT_EQ(rows, expected);
  // Correlated by k_str: each group has its own nulls, or none.
  FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe({1}, {1}, std::make_pair(0, 0)));
  FLOE_ASSERT_OK_AND_ASSIGN(expected,
                            Duck("l.k_int IN (SELECT k_int FROM $r r WHERE r.k_str = l.k_str)"));
  EXPECT_EQ(rows, expected);
  FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe({0, 1}, {0, 1}, std::nullopt));
  FLOE_ASSERT_OK_AND_ASSIGN(
      expected, Duck("EXISTS (SELECT 1 FROM $r r WHERE r.k_int = l.k_int AND r.k_str = l.k_str)"));
  EXPECT_EQ(rows, expected);
}

TEST_F(MarkJoinTest, SmallAndEmptySubqueriesMatchDuckDb) {
  // A few values without nulls: IN gives FALSE where nothing equals (NULL for a null operand).
  UseRight({testing::RandomTable(43, 1, 40)[0].Slice(0, 3)});
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows, Floe({}, {}, std::make_pair(2, 2)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, Duck("l.v_int IN (SELECT v_int FROM $r)"));
  EXPECT_EQ(rows, expected);
  FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe({}, {}, std::make_pair(0, 0)));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, Duck("l.k_int IN (SELECT k_int FROM $r)"));
  EXPECT_EQ(rows, expected);
  // No rows: FALSE for every row, null operands included.
  UseRight({testing::RandomTable(43, 1, 40)[0].Slice(0, 0)});
  FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe({}, {}, std::make_pair(0, 0)));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, Duck("l.k_int IN (SELECT k_int FROM $r)"));
  ASSERT_EQ(expected.size(), 600u);
  EXPECT_EQ(rows, expected);
  FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe({}, {}, std::nullopt));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, Duck("EXISTS (SELECT 1 FROM $r)"));
  EXPECT_EQ(rows, expected);
}

TEST(MarkJoinErrorsTest, BadPlansAreRefused) {
  auto input = testing::RandomTable(1, 1, 3);
  auto source = std::make_shared<stream::CollectionSource>(input[0].schema(), input);
  stream::StreamEnvironment batch({.mode = stream::RuntimeMode::kBatch});
  auto l = batch.FromSource(source, "l");
  auto r = batch.FromSource(source, "r");
  EXPECT_EQ(MarkJoin(l, r, {0}, {}, std::nullopt, "m").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(MarkJoin(l, r, {0}, {1}, std::nullopt, "m").error().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(MarkJoin(l, r, {}, {}, std::make_pair(0, 12), "m").error().kind(),
            ErrorKind::kInvalidArgument);
  stream::StreamEnvironment streaming;
  auto sl = streaming.FromSource(source, "l");
  auto sr = streaming.FromSource(source, "r");
  EXPECT_EQ(MarkJoin(sl, sr, {0}, {0}, std::nullopt, "m").error().kind(), ErrorKind::kUnsupported);
}

}  // namespace
}  // namespace floe::sql::exec
