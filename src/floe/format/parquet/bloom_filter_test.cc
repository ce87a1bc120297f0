#include "floe/format/parquet/bloom_filter.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

std::filesystem::path Data(const std::string& name) {
  return testing::TestDataDir() / "parquet-testing/data" / name;
}

// parquet-testing's filter written by parquet-mr over "hello", "parquet", "bloom", "filter".
TEST(SplitBlockBloomFilterTest, ReadsParquetMrFilter) {
  std::ifstream in(Data("bloom_filter.xxhash.bin"), std::ios::binary);
  ASSERT_TRUE(in) << "testdata missing";
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bytes = std::as_bytes(std::span(raw.data(), raw.size()));
  FLOE_ASSERT_OK_AND_ASSIGN(DecodedBloomFilterHeader header, DecodeBloomFilterHeader(bytes));
  ASSERT_EQ(header.size + static_cast<size_t>(header.header.num_bytes), raw.size());
  FLOE_ASSERT_OK_AND_ASSIGN(auto filter,
                            SplitBlockBloomFilter::FromBytes(bytes.subspan(header.size)));
  for (const char* word : {"hello", "parquet", "bloom", "filter"}) {
    EXPECT_TRUE(filter.MightContain(BloomHashBytes(word))) << word;
  }
  int absent_hits = 0;
  for (int i = 0; i < 1000; ++i)
    absent_hits += filter.MightContain(BloomHashBytes(std::to_string(i)));
  EXPECT_LT(absent_hits, 10);
}

TEST(SplitBlockBloomFilterTest, SizesAndRejectsBadBitsets) {
  EXPECT_EQ(SplitBlockBloomFilter::OptimalBytes(0, 0.01, 1 << 20), 32u);
  // About 9.6 bits a value at 1%: 1M values need 2 MiB, capped at the maximum.
  EXPECT_EQ(SplitBlockBloomFilter::OptimalBytes(1000000, 0.01, 1 << 20), size_t{1} << 20);
  EXPECT_EQ(SplitBlockBloomFilter::OptimalBytes(1000, 0.01, 1 << 20), 2048u);
  std::vector<std::byte> odd(48);
  EXPECT_FALSE(SplitBlockBloomFilter::FromBytes(odd).has_value());
  SplitBlockBloomFilter filter(1024);
  for (uint64_t i = 0; i < 100; ++i) filter.Insert(BloomHashInt64(static_cast<int64_t>(i)));
  for (uint64_t i = 0; i < 100; ++i)
    EXPECT_TRUE(filter.MightContain(BloomHashInt64(static_cast<int64_t>(i))));
}

// DuckDB's parquet_bloom_probe excludes "not there" and keeps "test" for this parquet-mr file
// (checked with the peer); the reader's row group decisions follow the same filter.
TEST(SplitBlockBloomFilterTest, ReaderSkipsRowGroupsOfParquetMrFiles) {
  for (const char* name : {"data_index_bloom_encoding_stats.parquet",
                           "data_index_bloom_encoding_with_length.parquet"}) {
    for (auto [value, skipped] : {std::pair<const char*, int64_t>{"not there", 1}, {"test", 0}}) {
      ReadOptions options;
      options.predicates = {
          ColumnPredicate{"String", std::nullopt, ColumnPredicate::Op::kEq, std::string(value)}};
      FLOE_ASSERT_OK_AND_ASSIGN(auto reader,
                                ParquetBatchReader::OpenPath(Data(name).string(), options));
      FLOE_ASSERT_OK_AND_ASSIGN(auto batches, reader->ReadAll());
      EXPECT_EQ(reader->row_groups_skipped(), skipped) << name << " " << value;
    }
  }
}

}  // namespace
}  // namespace floe::parquet
