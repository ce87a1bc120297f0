#include "floe/batch/hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

RecordBatch MakeBatch(std::vector<Field> fields, std::vector<std::vector<Value>> columns) {
  auto schema = std::make_shared<BatchSchema>(fields);
  std::vector<Array> arrays;
  for (size_t i = 0; i < columns.size(); ++i) {
    arrays.push_back(MakeArray(fields[i].type, columns[i]).value());
  }
  return RecordBatch::Make(schema, arrays).value();
}

TEST(HashRowsTest, EqualKeysHashAlikeAcrossWidthsAndBatches) {
  RecordBatch a = MakeBatch({{"k", DataType::Int32()}, {"s", DataType::String()}},
                            {{1, 2, 1, Value()}, {"x", "y", "x", Value()}});
  RecordBatch b = MakeBatch({{"k", DataType::Int64()}, {"s", DataType::String()}},
                            {{int64_t{1}, Value()}, {"x", Value()}});
  std::vector<int> keys = {0, 1};
  std::vector<uint64_t> ha, hb;
  FLOE_ASSERT_OK(HashRows(a, keys, ha));
  FLOE_ASSERT_OK(HashRows(b, keys, hb));
  ASSERT_EQ(ha.size(), 4u);
  EXPECT_EQ(ha[0], ha[2]);
  EXPECT_NE(ha[0], ha[1]);
  EXPECT_EQ(ha[0], hb[0]);
  EXPECT_EQ(ha[3], hb[1]);
  EXPECT_NE(ha[3], ha[0]);
}

TEST(HashRowsTest, ZerosAndNaNsHashAlike) {
  RecordBatch a =
      MakeBatch({{"d", DataType::Float64()}}, {{0.0, -0.0, std::nan("1"), -std::nan("2"), 1.5}});
  std::vector<int> keys = {0};
  std::vector<uint64_t> h;
  FLOE_ASSERT_OK(HashRows(a, keys, h));
  EXPECT_EQ(h[0], h[1]);
  EXPECT_EQ(h[2], h[3]);
  EXPECT_NE(h[0], h[4]);
}

TEST(HashRowsTest, RejectsUnknownColumn) {
  RecordBatch a = MakeBatch({{"k", DataType::Int32()}}, {{1}});
  std::vector<int> keys = {3};
  std::vector<uint64_t> h;
  auto status = HashRows(a, keys, h);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace floe
