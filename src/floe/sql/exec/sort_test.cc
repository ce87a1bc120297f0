#include <gtest/gtest.h>

#include "floe/sql/exec/exec_testing.h"
#include "floe/sql/exec/relational.h"
#include "floe/testing/testing.h"

namespace floe::sql::exec {
namespace {

using testing::kAllColumns;
using testing::kAllKinds;

class SortTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::DuckAvailable()) GTEST_SKIP() << "DuckDB peer not installed";
    input_ = testing::RandomTable(21, 4, 3000);
    parquet_ = dir_.path() / "t.parquet";
    FLOE_ASSERT_OK(testing::WriteParquet(parquet_, input_));
  }

  Result<std::vector<std::string>> Floe(std::vector<SortKey> keys, std::optional<int64_t> limit,
                                        int64_t offset) {
    FLOE_ASSIGN_OR_RETURN(
        auto output,
        testing::RunCollect(
            input_, {.mode = stream::RuntimeMode::kBatch, .parallelism = 2},
            [&](const stream::DataStream& s) { return Sort(s, keys, limit, offset); }));
    return testing::Rows(output);
  }

  // DuckDB's order with the file position as the last key: the order a stable sort gives.
  Result<std::vector<std::string>> Duck(const std::string& order_by, const std::string& tail) {
    return testing::DuckRows(parquet_,
                             fmt::format("SELECT {} FROM t ORDER BY {}, file_row_number {}",
                                         kAllColumns, order_by, tail),
                             kAllKinds, true);
  }

  floe::testing::TempDir dir_;
  std::vector<RecordBatch> input_;
  std::filesystem::path parquet_;
};

TEST_F(SortTest, MultiKeyStableSortMatchesDuckDb) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows,
                            Floe({{.column = 1, .descending = false, .nulls_first = true},
                                  {.column = 4, .descending = true, .nulls_first = false},
                                  {.column = 8, .descending = true, .nulls_first = true}},
                                 std::nullopt, 0));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto expected,
      Duck("k_str ASC NULLS FIRST, v_dbl DESC NULLS LAST, v_bool DESC NULLS FIRST", ""));
  ASSERT_EQ(rows.size(), 12000u);
  EXPECT_EQ(rows, expected);
}

TEST_F(SortTest, EqualKeysKeepArrivalOrder) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows,
                            Floe({{.column = 0, .nulls_first = false}}, std::nullopt, 0));
  FLOE_ASSERT_OK_AND_ASSIGN(auto expected, Duck("k_int ASC NULLS LAST", ""));
  EXPECT_EQ(rows, expected);
}

TEST_F(SortTest, TopNMatchesDuckDb) {
  // Dates and decimals as keys; 12000 rows make the operator drop rows beyond limit + offset
  // several times on the way.
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows,
                            Floe({{.column = 6, .descending = true, .nulls_first = false},
                                  {.column = 5, .descending = false, .nulls_first = true}},
                                 25, 10));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto expected, Duck("v_date DESC NULLS LAST, v_dec ASC NULLS FIRST", "LIMIT 25 OFFSET 10"));
  ASSERT_EQ(expected.size(), 25u);
  EXPECT_EQ(rows, expected);
  FLOE_ASSERT_OK_AND_ASSIGN(rows,
                            Floe({{.column = 7, .descending = false, .nulls_first = true}}, 3, 0));
  FLOE_ASSERT_OK_AND_ASSIGN(expected, Duck("v_ts ASC NULLS FIRST", "LIMIT 3"));
  EXPECT_EQ(rows, expected);
}

TEST(SortErrorsTest, StreamingAndBadKeysAreRefused) {
  auto input = testing::RandomTable(1, 1, 3);
  stream::StreamEnvironment streaming;
  auto source = streaming.FromSource(
      std::make_shared<stream::CollectionSource>(input[0].schema(), input), "s");
  auto result = Sort(source, {{.column = 0}}, std::nullopt, 0);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(result.error().message().find("batch mode"), std::string::npos);
  stream::StreamEnvironment batch({.mode = stream::RuntimeMode::kBatch});
  source =
      batch.FromSource(std::make_shared<stream::CollectionSource>(input[0].schema(), input), "s");
  EXPECT_EQ(Sort(source, {{.column = 9}}, std::nullopt, 0).error().kind(),
            ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe::sql::exec
