// Data files in Avro (write.format.default = avro) through the partitioned writer, decoded by
// avsc, an independent Avro reader.

#include <gtest/gtest.h>

#include <sstream>

#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/write_test_support.h"

namespace floe::table {
namespace {

using test::EventsTable;

TEST(AvroAppender, PartitionedAvroFilesDecodeWithAvsc) {
  EventsTable table;
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
  WriterContext context = table.Context(
      spec, {{"write.format.default", "avro"}, {"write.avro.compression-codec", "uncompressed"}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(context));
  FLOE_ASSERT_OK(writer->Write(table.Batch({{1, 1'000'000, "a", 1.5},
                                            {2, std::nullopt, "b", std::nullopt},
                                            {3, -5, "a", -0.25},
                                            {4, 7, std::nullopt, 2.0}})));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_EQ(result.data_files.size(), 3U);

  std::map<std::string, int64_t> rows_by_category;
  for (const manifest::DataFile& file : result.data_files) {
    SCOPED_TRACE(file.file_path);
    EXPECT_EQ(file.file_format, "avro");
    EXPECT_TRUE(file.file_path.ends_with(".avro"));
    EXPECT_EQ(file.file_size_in_bytes,
              static_cast<int64_t>(std::filesystem::file_size(file.file_path)));
    EXPECT_TRUE(file.lower_bounds.empty());
    EXPECT_EQ(*manifest::Find(file.value_counts, 1), file.record_count);
    auto out = floe::testing::RunPeer("avro-cat", {file.file_path});
    if (!out) GTEST_SKIP() << "peers not installed: " << out.error().ToString();
    std::istringstream lines(*out);
    std::string line;
    int64_t decoded = 0;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      FLOE_ASSERT_OK_AND_ASSIGN(Json row, Json::Parse(line));
      ++decoded;
      const Json* category = row.Find("category");
      ASSERT_NE(category, nullptr);
      std::string key = category->is_null() ? "null" : category->Dump();
      ++rows_by_category[key];
      // The partition value of the file is the category of each of its rows.
      if (file.partition[0].is_null()) {
        EXPECT_EQ(key, "null");
      } else {
        EXPECT_NE(key.find(file.partition[0].bytes_value()), std::string::npos) << key;
      }
    }
    EXPECT_EQ(decoded, file.record_count);
  }
  EXPECT_EQ(rows_by_category.size(), 3U);
}

}  // namespace
}  // namespace floe::table
