// The page index (ColumnIndex, OffsetIndex) and bloom filter headers of real files decode and are
// consistent with the pages they describe.

#include <gtest/gtest.h>

#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/schema.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

std::filesystem::path Data(const std::string& name) {
  return testing::TestDataDir() / "parquet-testing/data" / name;
}

TEST(PageIndexTest, OffsetIndexPointsAtEveryDataPage) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, OpenLocalFile(Data("alltypes_tiny_pages.parquet")));
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
  int pages = 0, column_indexes = 0;
  for (const ColumnChunk& chunk : m.row_groups.at(0).columns) {
    ASSERT_TRUE(chunk.offset_index_offset && chunk.offset_index_length);
    FLOE_ASSERT_OK_AND_ASSIGN(auto offset_bytes,
                              source->Read(*chunk.offset_index_offset, *chunk.offset_index_length));
    FLOE_ASSERT_OK_AND_ASSIGN(OffsetIndex offsets, DecodeOffsetIndex(offset_bytes));
    ASSERT_FALSE(offsets.page_locations.empty());
    // parquet-mr writes no column index for columns without an order (INT96).
    if (chunk.column_index_offset && chunk.column_index_length) {
      FLOE_ASSERT_OK_AND_ASSIGN(
          auto column_bytes, source->Read(*chunk.column_index_offset, *chunk.column_index_length));
      FLOE_ASSERT_OK_AND_ASSIGN(ColumnIndex index, DecodeColumnIndex(column_bytes));
      EXPECT_EQ(index.null_pages.size(), offsets.page_locations.size());
      EXPECT_EQ(index.min_values.size(), offsets.page_locations.size());
      ++column_indexes;
    }
    EXPECT_EQ(offsets.page_locations[0].first_row_index, 0);
    int64_t previous_row = -1;
    for (const PageLocation& location : offsets.page_locations) {
      EXPECT_GT(location.first_row_index, previous_row);
      previous_row = location.first_row_index;
      EXPECT_LT(location.first_row_index, m.row_groups[0].num_rows);
      // Each location is a data page header whose size plus body is the recorded page size.
      FLOE_ASSERT_OK_AND_ASSIGN(auto page_bytes,
                                source->Read(location.offset, location.compressed_page_size));
      FLOE_ASSERT_OK_AND_ASSIGN(DecodedPageHeader header, DecodePageHeader(page_bytes));
      EXPECT_EQ(header.header.type, PageType::kDataPage);
      EXPECT_EQ(header.size + static_cast<size_t>(header.header.compressed_page_size),
                static_cast<size_t>(location.compressed_page_size));
      ++pages;
    }
    // Re-encoding gives back the same bytes.
    EXPECT_EQ(EncodeOffsetIndex(offsets), offset_bytes);
  }
  EXPECT_GT(pages, 100);
  EXPECT_GE(column_indexes, 10);
}

TEST(PageIndexTest, BloomFilterHeaderMatchesItsLength) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto source,
                            OpenLocalFile(Data("data_index_bloom_encoding_with_length.parquet")));
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
  const ColumnMetaData& column = *m.row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(column.bloom_filter_offset && column.bloom_filter_length);
  FLOE_ASSERT_OK_AND_ASSIGN(auto bytes,
                            source->Read(*column.bloom_filter_offset, *column.bloom_filter_length));
  FLOE_ASSERT_OK_AND_ASSIGN(DecodedBloomFilterHeader header, DecodeBloomFilterHeader(bytes));
  EXPECT_EQ(header.size + static_cast<size_t>(header.header.num_bytes), bytes.size());
  EXPECT_EQ(header.header.algorithm, 1);  // split block
  EXPECT_EQ(header.header.hash, 1);       // xxHash
  // The column index of "Hello".."today", one page.
  ColumnChunk chunk = m.row_groups[0].columns[0];
  FLOE_ASSERT_OK_AND_ASSIGN(auto index_bytes,
                            source->Read(*chunk.column_index_offset, *chunk.column_index_length));
  FLOE_ASSERT_OK_AND_ASSIGN(ColumnIndex index, DecodeColumnIndex(index_bytes));
  ASSERT_EQ(index.min_values.size(), 1u);
  EXPECT_EQ(index.min_values[0], "Hello");
  EXPECT_EQ(index.max_values[0], "today");
  EXPECT_EQ(index.null_pages, std::vector<bool>{false});
}

}  // namespace
}  // namespace floe::parquet
