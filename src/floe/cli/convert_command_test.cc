#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/testing/testing.h"

namespace floe::cli {
namespace {

int RunConvert(std::vector<std::string> args) {
  CLI::App app{"floe", "floe"};
  int exit_code = kExitOk;
  AddCommands(app, exit_code);
  std::ranges::reverse(args);  // CLI11 takes them reversed
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  app.parse(args);
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  return exit_code;
}

TEST(ConvertCommand, CsvBecomesTypedParquet) {
  testing::TempDir dir;
  auto csv = dir.path() / "in.csv";
  std::ofstream(csv) << "id,name,score\n1,\"a,b\",1.5\n2,,2\n";
  auto out = dir.path() / "out.parquet";
  ASSERT_EQ(RunConvert({"convert", csv.string(), out.string(), "--codec", "gzip"}), kExitOk);
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, parquet::FileReader::OpenPath(out));
  const auto& meta = reader->metadata();
  EXPECT_EQ(meta.num_rows, 2);
  ASSERT_EQ(meta.schema.size(), 4u);
  EXPECT_EQ(meta.schema[1].type, parquet::PhysicalType::kInt64);
  EXPECT_EQ(meta.schema[2].type, parquet::PhysicalType::kByteArray);
  EXPECT_EQ(meta.schema[3].type, parquet::PhysicalType::kDouble);
  EXPECT_EQ(meta.row_groups[0].columns[0].meta_data->codec, parquet::Codec::kGzip);
  FLOE_ASSERT_OK_AND_ASSIGN(auto names, reader->ReadColumn<parquet::ByteArray>(0, 1));
  int16_t defs[4];
  parquet::ByteArray values[4];
  FLOE_ASSERT_OK_AND_ASSIGN(auto counts, names->ReadBatch(4, defs, nullptr, values));
  ASSERT_EQ(counts.levels, 2u);
  ASSERT_EQ(counts.values, 1u);
  EXPECT_EQ(values[0], "a,b");
  EXPECT_EQ(defs[1], 0);
}

TEST(ConvertCommand, RejectsBadCodecAndBadRows) {
  testing::TempDir dir;
  auto csv = dir.path() / "in.csv";
  std::ofstream(csv) << "a,b\n1,2\n3\n";
  auto out = dir.path() / "out.parquet";
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--codec", "lzo"}), kExitBadInput);
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string()}), kExitBadInput);
}

// --row-group-size bounds the compressed bytes a row group buffers; the default keeps this
// small file in one row group.
TEST(ConvertCommand, RowGroupSizeCutsRowGroups) {
  testing::TempDir dir;
  auto csv = dir.path() / "in.csv";
  {
    std::ofstream text(csv);
    text << "i,h\n";
    for (uint32_t i = 0; i < 200000; ++i)
      text << i << ',' << std::hex << i * 2654435761u << std::dec << '\n';
  }
  auto out = dir.path() / "out.parquet";
  ASSERT_EQ(RunConvert({"convert", csv.string(), out.string(), "--row-group-size", "100000"}),
            kExitOk);
  FLOE_ASSERT_OK_AND_ASSIGN(auto small, parquet::FileReader::OpenPath(out));
  EXPECT_EQ(small->metadata().num_rows, 200000);
  EXPECT_GT(small->metadata().row_groups.size(), 2u);
  ASSERT_EQ(RunConvert({"convert", csv.string(), out.string()}), kExitOk);
  FLOE_ASSERT_OK_AND_ASSIGN(auto one, parquet::FileReader::OpenPath(out));
  EXPECT_EQ(one->metadata().num_rows, 200000);
  EXPECT_EQ(one->metadata().row_groups.size(), 1u);
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--row-group-size", "0"}),
            kExitBadInput);
}

// Dates, timestamps (as SQL engines write them: a space, an optional fraction, a +HH zone) and
// decimals given by --schema, then the file converted again from Parquet.
TEST(ConvertCommand, TypedTextAndParquetInput) {
  testing::TempDir dir;
  auto csv = dir.path() / "in.csv";
  std::ofstream(csv) << "d,ts,tz,price,flag\n"
                        "2026-01-31,2026-01-01 00:00:00.001,2026-01-01 10:00:00+02,12.5,true\n"
                        "1969-12-31,2026-01-01T00:00:01,2026-01-01 00:00:00Z,-0.01,\n";
  auto out = dir.path() / "out.parquet";
  ASSERT_EQ(RunConvert({"convert", csv.string(), out.string(), "--schema", "price:decimal(9,2)"}),
            kExitOk);
  auto again = dir.path() / "again.parquet";
  ASSERT_EQ(RunConvert({"convert", out.string(), again.string(), "--codec", "snappy"}), kExitOk);
  for (const auto& path : {out, again}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, parquet::ParquetBatchReader::OpenPath(path.string()));
    const BatchSchema& schema = *reader->schema();
    EXPECT_EQ(schema.field(0).type->kind(), TypeKind::kDate32);
    EXPECT_EQ(schema.field(1).type->ToString(),
              DataType::Timestamp(TimeUnit::kMicro, false)->ToString());
    EXPECT_EQ(schema.field(2).type->ToString(),
              DataType::Timestamp(TimeUnit::kMicro, true)->ToString());
    EXPECT_EQ(schema.field(3).type->ToString(), DataType::Decimal128(9, 2)->ToString());
    EXPECT_EQ(schema.field(4).type->kind(), TypeKind::kBool);
    FLOE_ASSERT_OK_AND_ASSIGN(auto batches, reader->ReadAll());
    ASSERT_EQ(batches.size(), 1u);
    const RecordBatch& b = batches[0];
    // 2026-01-31 is day 20484 since 1970-01-01; 2026-01-01 is 1767225600 s after the epoch.
    EXPECT_EQ(b.column(0).Value<int32_t>(0), 20484);
    EXPECT_EQ(b.column(0).Value<int32_t>(1), -1);
    EXPECT_EQ(b.column(1).Value<int64_t>(0), 1767225600001000);
    EXPECT_EQ(b.column(1).Value<int64_t>(1), 1767225601000000);
    EXPECT_EQ(b.column(2).Value<int64_t>(0), 1767225600000000 + 8 * 3600 * 1000000LL);
    EXPECT_EQ(b.column(2).Value<int64_t>(1), 1767225600000000);
    EXPECT_EQ(b.column(3).GetDecimal(0), 1250);
    EXPECT_EQ(b.column(3).GetDecimal(1), -1);
    EXPECT_TRUE(b.column(4).IsNull(1));
  }
}

TEST(ConvertCommand, RejectsBadSchemaAndCells) {
  testing::TempDir dir;
  auto csv = dir.path() / "in.csv";
  std::ofstream(csv) << "a,b\n1,2026-01-01\n2,2026-02-30\n";
  auto out = dir.path() / "out.parquet";
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--schema", "b:date"}),
            kExitBadInput);
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--schema", "c:long"}),
            kExitBadInput);
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--schema", "a:decimal(1,0)x"}),
            kExitBadInput);
  EXPECT_EQ(RunConvert({"convert", csv.string(), out.string(), "--schema", "a:decimal(2,1)"}),
            kExitOk);
}

}  // namespace
}  // namespace floe::cli
