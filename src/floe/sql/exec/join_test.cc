#include <gtest/gtest.h>

#include <set>
#include <string>

#include "floe/batch/builder.h"
#include "floe/batch/filter.h"
#include "floe/sql/exec/exec_testing.h"
#include "floe/sql/exec/relational.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

constexpr int kWidth = 9;  // columns of RandomTable

// l.v_int < r.v_int over joined rows (null when either is null).
Result<Array> LeftIntBelowRight(const RecordBatch& joined) {
  const Array& l = joined.column(2);
  const Array& r = joined.column(kWidth + 2);
  BooleanBuilder out;
  for (int64_t i = 0; i < joined.num_rows(); ++i) {
    if (l.IsNull(i) || r.IsNull(i)) {
      out.AppendNull();
    } else {
      out.Append(l.Value<int32_t>(i) < r.Value<int32_t>(i));
    }
  }
  return out.Finish();
}

class JoinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
    left_ = testing::RandomTable(31, 3, 200);
    right_ = testing::RandomTable(32, 4, 100);
    left_path_ = dir_.path() / "l.parquet";
    right_path_ = dir_.path() / "r.parquet";
    FLOE_ASSERT_OK(testing::WriteParquet(left_path_, left_));
    FLOE_ASSERT_OK(testing::WriteParquet(right_path_, right_));
  }

  Result<std::vector<std::string>> Floe(const std::vector<RecordBatch>& left,
                                        const std::vector<RecordBatch>& right, JoinKind kind,
                                        std::vector<int> left_keys, std::vector<int> right_keys,
                                        JoinCondition condition = {}) {
    stream::StreamEnvironment env({.mode = stream::RuntimeMode::kBatch, .parallelism = 3});
    auto l = env.FromSource(std::make_shared<stream::CollectionSource>(left[0].schema(), left),
                            "left", 2);
    auto r = env.FromSource(std::make_shared<stream::CollectionSource>(right[0].schema(), right),
                            "right", 1);
    FLOE_ASSIGN_OR_RETURN(auto joined, Join(l, r, kind, left_keys, right_keys, condition));
    auto collected = env.Collect(joined, "collect");
    FLOE_RETURN_IF_ERROR(env.Execute("join"));
    return testing::SortedRows(collected->batches());
  }

  Result<std::vector<std::string>> Duck(const std::string& join, const std::string& on = "") {
    std::string columns;
    const char* names[] = {"k_int", "k_str",  "v_int", "v_big", "v_dbl",
                           "v_dec", "v_date", "v_ts",  "v_bool"};
    for (int side = 0; side < 2; ++side) {
      for (int c = 0; c < kWidth; ++c) {
        columns += fmt::format("{}{}.{} AS c{}", columns.empty() ? "" : ", ", side ? "r" : "l",
                               names[c], side * kWidth + c);
      }
    }
    std::string sql = fmt::format("SELECT {} FROM t AS l {} read_parquet('{}') AS r {}", columns,
                                  join, right_path_.string(), on);
    return testing::DuckRows(left_path_, sql, std::string(testing::kAllKinds) + testing::kAllKinds);
  }

  floe::testing::TempDir dir_;
  std::vector<RecordBatch> left_;
  std::vector<RecordBatch> right_;
  std::filesystem::path left_path_;
  std::filesystem::path right_path_;
};

TEST_F(JoinTest, EquiJoinsOfEveryKindMatchDuckDb) {
  struct Case {
    JoinKind kind;
    const char* sql;
  };
  for (Case c : {Case{JoinKind::kInner, "INNER JOIN"}, Case{JoinKind::kLeft, "LEFT JOIN"},
                 Case{JoinKind::kRight, "RIGHT JOIN"}, Case{JoinKind::kFull, "FULL JOIN"}}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto rows, Floe(left_, right_, c.kind, {0, 1}, {0, 1}));
    FLOE_ASSERT_OK_AND_ASSIGN(auto expected,
                              Duck(c.sql, "ON l.k_int = r.k_int AND l.k_str = r.k_str"));
    EXPECT_GT(expected.size(), 500u);
    EXPECT_EQ(rows, expected) << c.sql;

    FLOE_ASSERT_OK_AND_ASSIGN(rows, Floe(left_, right_, c.kind, {0, 1}, {0, 1}, LeftIntBelowRight));
    FLOE_ASSERT_OK_AND_ASSIGN(
        expected, Duck(c.sql, "ON l.k_int = r.k_int AND l.k_str = r.k_str AND l.v_int < r.v_int"));
    EXPECT_EQ(rows, expected) << c.sql << " with a condition";
  }
}

TEST_F(JoinTest, CrossAndConditionOnlyJoinsMatchDuckDb) {
  std::vector<RecordBatch> small_left = {left_[0].Slice(0, 40)};
  std::vector<RecordBatch> small_right = {right_[0].Slice(0, 30), right_[1].Slice(0, 20)};
  FLOE_ASSERT_OK(testing::WriteParquet(left_path_, small_left));
  FLOE_ASSERT_OK(testing::WriteParquet(right_path_, small_right));
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows, Floe(small_left, small_right, JoinKind::kCross, {}, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, Duck("CROSS JOIN"));
  ASSERT_EQ(expected.size(), 2000u);
  EXPECT_EQ(rows, expected);
  FLOE_ASSERT_OK_AND_ASSIGN(
      rows, Floe(small_left, small_right, JoinKind::kLeft, {}, {}, LeftIntBelowRight));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, Duck("LEFT JOIN", "ON l.v_int < r.v_int"));
  EXPECT_EQ(rows, expected);
}

// The first row of each k_int value (null included) of `batches`.
std::vector<RecordBatch> FirstRowPerKey(const std::vector<RecordBatch>& batches) {
  std::vector<RecordBatch> out;
  std::set<std::string> seen;
  for (const RecordBatch& batch : batches) {
    std::vector<uint8_t> keep(static_cast<size_t>(batch.num_rows()), 0);
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      keep[row] = seen.insert(testing::CellText(batch.column(0), row)).second;
    }
    out.push_back(*FilterBatch(batch, keep));
  }
  return out;
}

TEST_F(JoinTest, SingleRowLeftJoinMatchesDuckDbOrFailsAtASecondMatch) {
  std::vector<RecordBatch> unique = FirstRowPerKey(right_);
  FLOE_ASSERT_OK(testing::WriteParquet(right_path_, unique));
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows, Floe(left_, unique, JoinKind::kLeftSingle, {0}, {0}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, Duck("LEFT JOIN", "ON l.k_int = r.k_int"));
  ASSERT_EQ(expected.size(), 600u);
  EXPECT_EQ(rows, expected);
  auto repeated = Floe(left_, right_, JoinKind::kLeftSingle, {0}, {0});
  ASSERT_FALSE(repeated);
  EXPECT_NE(repeated.error().message().find("more than one row for one outer row"),
            std::string::npos)
      << repeated.error().message();
}

// Without keys the right side is broadcast, so the left keeps its subtasks; RIGHT and FULL joins
// need every pair in one subtask.
TEST(JoinParallelismTest, KeylessJoinsKeepTheLeftParallelism) {
  auto input = testing::RandomTable(1, 1, 3);
  auto source = std::make_shared<stream::CollectionSource>(input[0].schema(), input);
  stream::StreamEnvironment env({.mode = stream::RuntimeMode::kBatch, .parallelism = 3});
  auto l = env.FromSource(source, "l", 2);
  auto r = env.FromSource(source, "r", 1);
  for (JoinKind kind : {JoinKind::kCross, JoinKind::kLeft, JoinKind::kLeftSemi}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto joined, Join(l, r, kind, {}, {}));
    EXPECT_EQ(joined.parallelism(), 2);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto anti, Join(l, r, JoinKind::kNullAwareAnti, {0}, {0}));
  EXPECT_EQ(anti.parallelism(), 2);
  FLOE_ASSERT_OK_AND_ASSIGN(auto full, Join(l, r, JoinKind::kFull, {}, {}));
  EXPECT_EQ(full.parallelism(), 1);
}

TEST(JoinErrorsTest, BadPlansAreRefused) {
  auto input = testing::RandomTable(1, 1, 3);
  stream::StreamEnvironment batch({.mode = stream::RuntimeMode::kBatch});
  auto source = std::make_shared<stream::CollectionSource>(input[0].schema(), input);
  auto l = batch.FromSource(source, "l");
  auto r = batch.FromSource(source, "r");
  EXPECT_EQ(Join(l, r, JoinKind::kInner, {0}, {}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(Join(l, r, JoinKind::kInner, {0}, {1}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(Join(l, r, JoinKind::kInner, {0}, {12}).error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(Join(l, r, JoinKind::kCross, {0}, {0}).error().kind(), ErrorKind::kInvalidArgument);
  stream::StreamEnvironment streaming;
  auto sl = streaming.FromSource(source, "l");
  auto sr = streaming.FromSource(source, "r");
  auto result = Join(sl, sr, JoinKind::kInner, {0}, {0});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::kUnsupported);
}

}  // namespace
}  // namespace floe::sql::exec
