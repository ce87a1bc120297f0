#include "floe/format/text/csv_reader.h"

#include <gtest/gtest.h>

#include <fstream>

#include "floe/testing/testing.h"

namespace floe::text {
namespace {

std::vector<std::string> Fields(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

TEST(CsvReaderTest, ReadsQuotedFieldsLineEndsAndLongRecords) {
  testing::TempDir temp;
  std::string path = (temp.path() / "in.csv").string();
  std::string long_field(3 << 20, 'x');  // longer than one read block
  std::ofstream(path, std::ios::binary) << "a,b,c\r\n\n\"x,y\",\"say \"\"hi\"\"\",\n"
                                        << long_field << ",2\n"
                                        << "last";
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, CsvReader::OpenPath(path));
  std::vector<std::string_view> fields;
  using Row = std::vector<std::string>;
  FLOE_ASSERT_OK_AND_ASSIGN(bool any, reader->Next(fields));
  ASSERT_TRUE(any);
  EXPECT_EQ(Fields(fields), (Row{"a", "b", "c"}));
  FLOE_ASSERT_OK_AND_ASSIGN(any, reader->Next(fields));
  ASSERT_TRUE(any);
  EXPECT_EQ(Fields(fields), (Row{"x,y", "say \"hi\"", ""}));
  EXPECT_EQ(reader->line_number(), 3);
  FLOE_ASSERT_OK_AND_ASSIGN(any, reader->Next(fields));
  ASSERT_TRUE(any);
  EXPECT_EQ(Fields(fields), (Row{long_field, "2"}));
  FLOE_ASSERT_OK_AND_ASSIGN(any, reader->Next(fields));
  ASSERT_TRUE(any);
  EXPECT_EQ(Fields(fields), (Row{"last"}));
  FLOE_ASSERT_OK_AND_ASSIGN(any, reader->Next(fields));
  EXPECT_FALSE(any);
}

TEST(CsvReaderTest, AnUnterminatedQuoteNamesTheFileAndLine) {
  testing::TempDir temp;
  std::string path = (temp.path() / "bad.csv").string();
  std::ofstream(path) << "a,b\n\"open,b\n";
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, CsvReader::OpenPath(path));
  std::vector<std::string_view> fields;
  ASSERT_TRUE(reader->Next(fields).has_value());
  auto bad = reader->Next(fields);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message(), path + ": line 2: unterminated quote");

  auto missing = CsvReader::OpenPath((temp.path() / "none.csv").string());
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe::text
