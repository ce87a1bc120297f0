// Column metrics of written files under each metrics mode, checked against DuckDB's reading of the
// same files (truncated bounds recomputed with DuckDB's code-point string functions).

#include <gtest/gtest.h>

#include <cmath>

#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/write_test_support.h"

namespace floe::table {
namespace {

using test::Duck;
using test::EventsTable;
using test::Int;
using test::Text;

Result<manifest::DataFile> WriteOne(EventsTable& table, std::map<std::string, std::string> props,
                                    const std::vector<EventsTable::Row>& rows) {
  WriterContext context = table.Context(nullptr, std::move(props));
  DataFileWriter writer(context.DataOptions({}), std::nullopt);
  FLOE_RETURN_IF_ERROR(writer.Write(table.Batch(rows)));
  FLOE_ASSIGN_OR_RETURN(auto files, writer.Close());
  if (files.size() != 1) return InternalError("{} files", files.size());
  return files[0];
}

std::string Bound(const manifest::BoundMap& map, int32_t id) {
  const std::string* v = manifest::Find(map, id);
  return v == nullptr ? "<none>" : *v;
}

TEST(Metrics, LongStringsTruncateAtCodePointsWithUpperBoundIncremented) {
  EventsTable table;
  const std::string huge(100000, 'z');
  std::string umlauts;
  for (int i = 0; i < 20; ++i) umlauts += "ä";
  for (const auto& [low, high] :
       {std::pair<std::string, std::string>{"abc", huge}, {umlauts.substr(0, 38) + "b", umlauts}}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto file,
                              WriteOne(table, {}, {{1, 0, low, 1.0}, {2, 0, high, 2.0}}));
    auto duck = Duck(
        "SELECT left(min(category), 16) AS lower, left(max(category), 15) || "
        "chr(unicode(substr(max(category), 16, 1)) + 1) AS upper FROM read_parquet('" +
        file.file_path + "')");
    if (!duck) GTEST_SKIP() << "peers not installed: " << duck.error().ToString();
    EXPECT_EQ(Bound(file.lower_bounds, 3), Text((*duck)[0], "lower"));
    EXPECT_EQ(Bound(file.upper_bounds, 3), Text((*duck)[0], "upper"));
    EXPECT_EQ(*manifest::Find(file.value_counts, 3), 2);
  }
}

TEST(Metrics, ModesPerColumnAndFullStrings) {
  EventsTable table;
  const std::string long_value(40, 'q');
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto file, WriteOne(table,
                          {{"write.metadata.metrics.column.ts", "none"},
                           {"write.metadata.metrics.column.amount", "counts"},
                           {"write.metadata.metrics.column.category", "full"}},
                          {{1, 5, long_value, 1.5}, {2, 6, std::nullopt, std::nullopt}}));
  auto duck = Duck("SELECT max(category) AS c FROM read_parquet('" + file.file_path + "')");
  if (!duck) GTEST_SKIP() << "peers not installed: " << duck.error().ToString();
  EXPECT_EQ(Bound(file.upper_bounds, 3), Text((*duck)[0], "c"));
  EXPECT_EQ(Bound(file.lower_bounds, 3), Text((*duck)[0], "c"));
  EXPECT_EQ(manifest::Find(file.value_counts, 2), nullptr);
  EXPECT_EQ(manifest::Find(file.column_sizes, 2), nullptr);
  EXPECT_EQ(manifest::Find(file.lower_bounds, 2), nullptr);
  EXPECT_EQ(*manifest::Find(file.value_counts, 4), 2);
  EXPECT_EQ(*manifest::Find(file.null_value_counts, 4), 1);
  EXPECT_EQ(manifest::Find(file.lower_bounds, 4), nullptr);
  EXPECT_NE(manifest::Find(file.lower_bounds, 1), nullptr);
}

TEST(Metrics, ColumnSizesMatchParquetChunks) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, WriteOne(table, {}, {{1, 5, "x", 1.0}, {2, 6, "y", 2.0}}));
  auto duck = Duck(
      "SELECT path_in_schema AS p, sum(total_compressed_size) AS size, sum(num_values) AS n "
      "FROM parquet_metadata('" +
      file.file_path + "') GROUP BY p ORDER BY p");
  if (!duck) GTEST_SKIP() << "peers not installed: " << duck.error().ToString();
  ASSERT_EQ(duck->size(), 4U);
  for (const Json& row : *duck) {
    const int32_t id = table.schema->FindField(Text(row, "p"))->id;
    EXPECT_EQ(*manifest::Find(file.column_sizes, id), Int(row, "size")) << Text(row, "p");
    EXPECT_EQ(*manifest::Find(file.value_counts, id), Int(row, "n")) << Text(row, "p");
  }
}

TEST(Metrics, NanCountedAndKeptOutOfBounds) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, WriteOne(table, {},
                                                {{1, 0, "a", std::nan("")},
                                                 {2, 0, "a", -0.0},
                                                 {3, 0, "a", 2.5},
                                                 {4, 0, "a", std::nan("")},
                                                 {5, 0, "a", std::nullopt}}));
  auto duck = Duck(
      "SELECT count(*) FILTER (WHERE isnan(amount)) AS nans, min(amount) FILTER (WHERE NOT "
      "isnan(amount)) AS lo, max(amount) FILTER (WHERE NOT isnan(amount)) AS hi FROM "
      "read_parquet('" +
      file.file_path + "')");
  if (!duck) GTEST_SKIP() << "peers not installed: " << duck.error().ToString();
  EXPECT_EQ(*manifest::Find(file.nan_value_counts, 4), Int((*duck)[0], "nans"));
  EXPECT_EQ(*manifest::Find(file.value_counts, 4), 5);
  EXPECT_EQ(*manifest::Find(file.null_value_counts, 4), 1);
  auto lower = Literal::FromBinary(types::Double(), Bound(file.lower_bounds, 4));
  auto upper = Literal::FromBinary(types::Double(), Bound(file.upper_bounds, 4));
  ASSERT_TRUE(lower.has_value() && upper.has_value());
  EXPECT_EQ(lower->double_value(), std::stod(Text((*duck)[0], "lo")));
  EXPECT_TRUE(std::signbit(lower->double_value()));  // -0.0 precedes +0.0
  EXPECT_EQ(upper->double_value(), std::stod(Text((*duck)[0], "hi")));
}

TEST(Metrics, InferredDefaultsStopAtTheColumnLimit) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto file, WriteOne(table, {{"write.metadata.metrics.max-inferred-column-defaults", "2"}},
                          {{1, 5, "x", 1.0}}));
  EXPECT_NE(manifest::Find(file.lower_bounds, 1), nullptr);
  EXPECT_NE(manifest::Find(file.lower_bounds, 2), nullptr);
  EXPECT_EQ(manifest::Find(file.value_counts, 3), nullptr);
  EXPECT_EQ(manifest::Find(file.value_counts, 4), nullptr);
  // An explicit default applies to every column whatever the limit.
  FLOE_ASSERT_OK_AND_ASSIGN(auto counted,
                            WriteOne(table,
                                     {{"write.metadata.metrics.max-inferred-column-defaults", "2"},
                                      {"write.metadata.metrics.default", "counts"}},
                                     {{1, 5, "x", 1.0}}));
  EXPECT_EQ(*manifest::Find(counted.value_counts, 4), 1);
  EXPECT_EQ(manifest::Find(counted.lower_bounds, 1), nullptr);
}

TEST(Metrics, BadPropertiesAreErrors) {
  EventsTable table;
  auto unknown =
      MetricsConfig::Make({{"write.metadata.metrics.column.nope", "full"}}, *table.schema);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("nope"), std::string::npos);
  auto bad =
      MetricsConfig::Make({{"write.metadata.metrics.column.id", "truncate(0)"}}, *table.schema);
  ASSERT_FALSE(bad.has_value());
  auto format = WriteProperties::Parse({{"write.format.default", "csv"}});
  ASSERT_FALSE(format.has_value());
  auto override_format = WriteProperties::Parse({}, {{"write-format", "AVRO"}});
  ASSERT_TRUE(override_format.has_value());
  EXPECT_EQ(override_format->format, FileFormat::kAvro);
}

}  // namespace
}  // namespace floe::table
