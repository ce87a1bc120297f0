#include "floe/format/parquet/reader/batch_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/batch/value.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

fs::path DataFile(const std::string& name) {
  return testing::TestDataDir() / "parquet-testing" / "data" / name;
}

Result<std::vector<RecordBatch>> ReadFile(const fs::path& path, ReadOptions options = {}) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ParquetBatchReader::OpenPath(path.string(), options));
  return reader->ReadAll();
}

// alltypes_plain.parquet as parquet-testing documents it (and DuckDB reads it): ids in this order.
TEST(ParquetBatchReader, ReadsInBatchesOfTheConfiguredSize) {
  ReadOptions options;
  options.batch_rows = 3;
  FLOE_ASSERT_OK_AND_ASSIGN(auto batches, ReadFile(DataFile("alltypes_plain.parquet"), options));
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0].num_rows(), 3);
  EXPECT_EQ(batches[2].num_rows(), 2);
  std::vector<int64_t> ids;
  for (const RecordBatch& batch : batches) {
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      ids.push_back(RowView(batch, row).Get("id").get<int64_t>());
    }
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{4, 5, 6, 7, 2, 3, 0, 1}));
  EXPECT_EQ(batches[0].schema()->ToString(),
            "id: int32, bool_col: bool, tinyint_col: int32, smallint_col: int32, int_col: int32, "
            "bigint_col: int64, float_col: float, double_col: double, date_string_col: binary, "
            "string_col: binary, timestamp_col: timestamp[us]");
}

TEST(ParquetBatchReader, ProjectsByNameAndFillsMissingColumnsWithNulls) {
  ReadOptions options;
  options.select = {Field{"string_col", nullptr, true, std::nullopt},
                    Field{"no_such_column", DataType::Int32(), true, std::nullopt}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto batches, ReadFile(DataFile("alltypes_plain.parquet"), options));
  ASSERT_EQ(batches.size(), 1u);
  const RecordBatch& batch = batches[0];
  ASSERT_EQ(batch.num_columns(), 2);
  EXPECT_EQ(RowView(batch, 1).ToJson(), R"({"string_col":"31","no_such_column":null})");
  EXPECT_EQ(batch.column(1).null_count(), 8);
  EXPECT_EQ(batch.field(1).type->kind(), TypeKind::kInt32);
}

// int32_with_null_pages.parquet has one row group with min -2136906554 and max 2145722375.
TEST(ParquetBatchReader, SkipsRowGroupsByStatistics) {
  ReadOptions options;
  options.predicates = {
      ColumnPredicate{"int32_field", std::nullopt, ColumnPredicate::Op::kGt, int64_t{2145722375}}};
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto reader,
      ParquetBatchReader::OpenPath(DataFile("int32_with_null_pages.parquet").string(), options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto batch, reader->Next());
  EXPECT_FALSE(batch.has_value());
  EXPECT_EQ(reader->row_groups_skipped(), 1);

  // The row group may hold the maximum: it is read, but of its 1000 rows only the pages whose
  // column index allows the maximum.
  options.predicates[0].op = ColumnPredicate::Op::kGe;
  auto matching = [](const std::vector<RecordBatch>& batches) {
    int64_t rows = 0, matches = 0;
    for (const RecordBatch& b : batches) {
      rows += b.num_rows();
      for (int64_t row = 0; row < b.num_rows(); ++row) {
        Value v = RowView(b, row).Get("int32_field");
        matches += !v.is_null() && v.get<int64_t>() >= 2145722375;
      }
    }
    return std::pair(rows, matches);
  };
  FLOE_ASSERT_OK_AND_ASSIGN(auto all, ReadFile(DataFile("int32_with_null_pages.parquet")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto batches,
                            ReadFile(DataFile("int32_with_null_pages.parquet"), options));
  EXPECT_EQ(matching(all).first, 1000);
  EXPECT_EQ(matching(all).second, 1);
  EXPECT_EQ(matching(batches).second, 1);
  EXPECT_LT(matching(batches).first, 1000);
}

TEST(ParquetBatchReader, ReadsThroughInputFile) {
  io::LocalFileIO file_io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto input,
                            file_io.NewInputFile(DataFile("nested_lists.snappy.parquet").string()));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto reader, ParquetBatchReader::Open(std::shared_ptr<io::InputFile>(std::move(input))));
  FLOE_ASSERT_OK_AND_ASSIGN(auto batches, reader->ReadAll());
  ASSERT_FALSE(batches.empty());
  // The first row as DuckDB prints it.
  EXPECT_EQ(RowView(batches[0], 0).ToJson(), R"({"a":[[["a","b"],["c"]],[null,["d"]]],"b":1})");
}

TEST(ParquetBatchReader, EncryptedFilesFailClearly) {
  auto result = ReadFile(DataFile("uniform_encryption.parquet.encrypted"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(result.error().message().find("encrypted"), std::string::npos);
}

}  // namespace
}  // namespace floe::parquet
