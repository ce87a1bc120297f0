#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "floe/cli/commands.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/file_reader.h"
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

}  // namespace
}  // namespace floe::cli
