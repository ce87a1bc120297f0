// Data files written through the rolling, data file, fanout and clustered writers, checked with
// DuckDB and ClickHouse reading the files.

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>

#include "floe/io/fault_injecting_file_io.h"
#include "floe/table/write/clustered_writer.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/write_test_support.h"

namespace floe::table {
namespace {

using test::Duck;
using test::EventsTable;
using test::Int;
using test::Text;

constexpr int64_t kDay = 86'400'000'000LL;

std::vector<EventsTable::Row> RandomRows(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<EventsTable::Row> rows;
  const char* categories[] = {"a", "b", "c/d", "é"};
  for (int i = 0; i < n; ++i) {
    EventsTable::Row r;
    r.id = i;
    if (rng() % 10 != 0) r.ts = static_cast<int64_t>(rng() % (20 * kDay)) - 5 * kDay;
    if (rng() % 7 != 0) r.category = categories[rng() % 4];
    if (rng() % 5 != 0) r.amount = static_cast<double>(rng() % 100000) / 8.0 - 1000.0;
    rows.push_back(r);
  }
  return rows;
}

PartitionSpecPtr DayAndBucket() {
  return std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{2}, 1000, "ts_day", Transform::Day()},
                                     {{1}, 1001, "id_bucket", Transform::Bucket(3)}});
}

// A data file is synced before it closes, since the commit that names it syncs only metadata; a
// failed sync fails the close, so the file is never handed on. (A sync after the close would fail:
// the file writer refuses it.)
TEST(RollingFileWriter, SyncsEachFileBeforeItIsHandedOn) {
  EventsTable table;
  io::FaultInjectingFileIO faults(std::make_shared<io::LocalFileIO>());
  WriterContext context = table.Context();
  context.io = &faults;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(context));
  FLOE_ASSERT_OK(writer->Write(table.Batch(RandomRows(100, 1))));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_EQ(result.data_files.size(), 1U);
  EXPECT_EQ(faults.count(io::FileOp::kSync), 1);

  FLOE_ASSERT_OK_AND_ASSIGN(auto failing, FanoutWriter::Make(context));
  FLOE_ASSERT_OK(failing->Write(table.Batch(RandomRows(100, 2))));
  faults.Inject({.op = io::FileOp::kSync, .location_contains = ".parquet"});
  auto closed = failing->Close();
  ASSERT_FALSE(closed.has_value());
  EXPECT_EQ(closed.error().kind(), ErrorKind::kIO) << closed.error().ToString();
}

// One DuckDB query per check: files, rows, partition values, bounds and split offsets.
TEST(FanoutWriter, PartitionedFilesReadBackWithMatchingMetadata) {
  EventsTable table;
  WriterContext context = table.Context(DayAndBucket());
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(context));
  auto rows = RandomRows(3000, 7);
  for (int start = 0; start < 3000; start += 1000) {
    std::vector<EventsTable::Row> part(rows.begin() + start, rows.begin() + start + 1000);
    FLOE_ASSERT_OK(writer->Write(table.Batch(part)));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  EXPECT_TRUE(result.delete_files.empty());
  ASSERT_GT(result.data_files.size(), 20U);

  auto per_file = Duck(
      "SELECT filename, count(*) AS n, count(DISTINCT date_diff('day', DATE '1970-01-01', "
      "CAST(make_timestamp(epoch_us(ts)) AS DATE))) AS days, min(date_diff('day', DATE "
      "'1970-01-01', CAST(make_timestamp(epoch_us(ts)) AS DATE))) AS day, count(ts) AS ts_n, "
      "min(id) AS id_min, max(id) AS id_max, min(epoch_us(ts)) AS ts_min, max(epoch_us(ts)) AS "
      "ts_max, min(category) AS c_min, max(category) AS c_max, count(category) AS c_n, "
      "min(amount) AS a_min, max(amount) AS a_max FROM read_parquet(" +
      test::PathList(result.data_files) + ", filename = true) GROUP BY filename");
  if (!per_file) GTEST_SKIP() << "peers not installed: " << per_file.error().ToString();
  ASSERT_EQ(per_file->size(), result.data_files.size());
  std::map<std::string, Json> by_file;
  for (const Json& row : *per_file) by_file[Text(row, "filename")] = row;
  int64_t total = 0;
  for (const manifest::DataFile& file : result.data_files) {
    SCOPED_TRACE(file.file_path);
    ASSERT_TRUE(by_file.contains(file.file_path));
    const Json& r = by_file[file.file_path];
    EXPECT_EQ(file.content, manifest::FileContent::kData);
    EXPECT_EQ(file.file_format, "parquet");
    EXPECT_EQ(file.record_count, Int(r, "n"));
    EXPECT_EQ(file.file_size_in_bytes,
              static_cast<int64_t>(std::filesystem::file_size(file.file_path)));
    total += file.record_count;
    // Partition: one day per file, the day DuckDB computes; null when ts is.
    ASSERT_EQ(file.partition.size(), 2U);
    if (Int(r, "ts_n") == 0) {
      EXPECT_TRUE(file.partition[0].is_null());
      EXPECT_NE(file.file_path.find("/ts_day=null/"), std::string::npos);
    } else {
      EXPECT_EQ(Int(r, "days"), 1);
      EXPECT_EQ(file.partition[0].int_value(), Int(r, "day"));
    }
    EXPECT_NE(file.file_path.find(fmt::format("/id_bucket={}/", file.partition[1].int_value())),
              std::string::npos);
    // Bounds decode to DuckDB's minimum and maximum of each column.
    auto bound = [&](const manifest::BoundMap& map, int32_t id) -> std::string {
      const std::string* bytes = manifest::Find(map, id);
      if (bytes == nullptr) return "null";
      auto literal = Literal::FromBinary(table.schema->FindField(id)->type, *bytes);
      if (!literal) return "error";
      switch (literal->type_id()) {
        case TypeId::kLong:
        case TypeId::kTimestampTz:
          return std::to_string(literal->long_value());
        case TypeId::kDouble:
          return fmt::format("{}", literal->double_value());
        default:
          return literal->bytes_value();
      }
    };
    EXPECT_EQ(bound(file.lower_bounds, 1), Text(r, "id_min"));
    EXPECT_EQ(bound(file.upper_bounds, 1), Text(r, "id_max"));
    EXPECT_EQ(bound(file.lower_bounds, 2), Text(r, "ts_min"));
    EXPECT_EQ(bound(file.upper_bounds, 2), Text(r, "ts_max"));
    EXPECT_EQ(bound(file.lower_bounds, 3), Text(r, "c_min"));
    EXPECT_EQ(bound(file.upper_bounds, 3), Text(r, "c_max"));
    EXPECT_EQ(std::stod(bound(file.lower_bounds, 4)), std::stod(Text(r, "a_min")));
    EXPECT_EQ(std::stod(bound(file.upper_bounds, 4)), std::stod(Text(r, "a_max")));
    EXPECT_EQ(*manifest::Find(file.null_value_counts, 3), file.record_count - Int(r, "c_n"));
    EXPECT_EQ(*manifest::Find(file.value_counts, 3), file.record_count);
    EXPECT_EQ(*manifest::Find(file.nan_value_counts, 4), 0);
    EXPECT_EQ(manifest::Find(file.nan_value_counts, 3), nullptr);
  }
  EXPECT_EQ(total, 3000);
}

TEST(RollingFileWriter, TargetSizeRollsFiles) {
  EventsTable table;
  WriterContext context = table.Context(nullptr, {{"write.target-file-size-bytes", "1"}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(context));
  FLOE_ASSERT_OK(writer->Write(table.Batch(RandomRows(10000, 3))));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  // The size is checked every kRollCheckRows rows; a 1-byte target rolls at every check.
  ASSERT_EQ(result.data_files.size(), 3U);
  EXPECT_EQ(result.data_files[0].record_count, RollingFileWriter::kRollCheckRows);
  EXPECT_EQ(result.data_files[2].record_count, 10000 - 2 * RollingFileWriter::kRollCheckRows);
  EXPECT_TRUE(result.data_files[0].file_path.ends_with("/t/data/00001-2-op-00001.parquet"));
  EXPECT_TRUE(result.data_files[2].file_path.ends_with("/t/data/00001-2-op-00003.parquet"));
  auto counts = Duck("SELECT filename, count(*) AS n FROM read_parquet(" +
                     test::PathList(result.data_files) + ", filename = true) GROUP BY filename");
  if (!counts) GTEST_SKIP() << "peers not installed: " << counts.error().ToString();
  std::map<std::string, int64_t> rows_of;
  for (const Json& row : *counts) rows_of[Text(row, "filename")] = Int(row, "n");
  for (const auto& file : result.data_files) EXPECT_EQ(rows_of[file.file_path], file.record_count);
  auto ids = Duck("SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS s FROM read_parquet(" +
                  test::PathList(result.data_files) + ")");
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(Int((*ids)[0], "n"), 10000);
  EXPECT_EQ(Int((*ids)[0], "d"), 10000);
  EXPECT_EQ(Int((*ids)[0], "s"), 10000LL * 9999 / 2);
}

// Rows chosen from a batch, a few per call (one partition's share of a batch spread over many),
// go into the files in the order chosen, and the files still roll every kRollCheckRows rows.
TEST(RollingFileWriter, ChosenRowsKeepTheirOrderAndRoll) {
  EventsTable table;
  WriterContext context = table.Context(nullptr, {{"write.target-file-size-bytes", "1"}});
  auto writer = std::make_unique<DataFileWriter>(context.DataOptions({}), std::nullopt);
  const auto random = RandomRows(10000, 5);
  const RecordBatch batch = table.Batch(random);
  std::vector<int64_t> rows;  // every other row, last first
  for (int64_t row = 9998; row >= 0; row -= 2) rows.push_back(row);
  const std::span<const int64_t> chosen(rows);
  for (size_t at = 0; at < chosen.size(); at += 41) {
    FLOE_ASSERT_OK(
        writer->Write(batch, chosen.subspan(at, std::min<size_t>(41, chosen.size() - at))));
  }
  const std::vector<int64_t> outside = {10000};
  EXPECT_FALSE(writer->Write(batch, outside).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<manifest::DataFile> files, writer->Close());
  ASSERT_EQ(files.size(), 2U);
  EXPECT_EQ(files[0].record_count, RollingFileWriter::kRollCheckRows);
  EXPECT_EQ(files[1].record_count, 5000 - RollingFileWriter::kRollCheckRows);
  auto ids = Duck(
      "SELECT string_agg(id::VARCHAR, ',' ORDER BY filename, file_row_number) AS ids "
      "FROM read_parquet(" +
      test::PathList(files) + ", filename = true, file_row_number = true)");
  if (!ids) GTEST_SKIP() << "peers not installed: " << ids.error().ToString();
  std::string expected;
  for (int64_t row : rows) {
    expected +=
        fmt::format("{}{}", expected.empty() ? "" : ",", random[static_cast<size_t>(row)].id);
  }
  EXPECT_EQ(Text((*ids)[0], "ids"), expected);
}

TEST(RollingFileWriter, RowGroupStartsAreSplitOffsets) {
  EventsTable table;
  WriterContext context = table.Context(nullptr, {{"write.parquet.row-group-size-bytes", "20000"}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(context));
  FLOE_ASSERT_OK(writer->Write(table.Batch(RandomRows(10000, 3))));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_EQ(result.data_files.size(), 1U);
  const manifest::DataFile& file = result.data_files[0];
  auto groups = Duck(
      "SELECT row_group_id, min(coalesce(dictionary_page_offset, data_page_offset)) AS start, "
      "any_value(row_group_num_rows) AS n FROM parquet_metadata('" +
      file.file_path + "') GROUP BY row_group_id ORDER BY row_group_id");
  if (!groups) GTEST_SKIP() << "peers not installed: " << groups.error().ToString();
  ASSERT_EQ(groups->size(), file.split_offsets.size());
  EXPECT_GT(groups->size(), 1U);
  int64_t rows = 0;
  for (size_t g = 0; g < groups->size(); ++g) {
    EXPECT_EQ(file.split_offsets[g], Int((*groups)[g], "start"));
    rows += Int((*groups)[g], "n");
  }
  EXPECT_EQ(rows, file.record_count);
}

TEST(FanoutWriter, EmptyInputWritesNoFiles) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(table.Context(DayAndBucket())));
  FLOE_ASSERT_OK(writer->Write(table.Batch({})));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  EXPECT_TRUE(result.data_files.empty());
  EXPECT_FALSE(std::filesystem::exists(table.location()));
}

// With two open files at most, a third partition closes the least recently written one, and a
// partition that returns after being closed starts a new file: no row is lost or duplicated.
TEST(FanoutWriter, MaxOpenFilesClosesTheLeastRecentlyUsedPartition) {
  EventsTable table;
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(table.Context(spec), 2));
  FLOE_ASSERT_OK(writer->Write(table.Batch({{1, 0, "a", 1.0}, {2, 0, "b", 2.0}})));
  FLOE_ASSERT_OK(writer->Write(table.Batch({{3, 0, "a", 3.0}})));
  // b is the least recently used: c closes it.
  FLOE_ASSERT_OK(writer->Write(table.Batch({{4, 0, "c", 4.0}})));
  FLOE_ASSERT_OK(writer->Write(table.Batch({{5, 0, "b", 5.0}})));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  std::map<std::string, std::vector<int64_t>> counts;
  int64_t rows = 0;
  for (const manifest::DataFile& file : result.data_files) {
    counts[file.partition[0].ToString()].push_back(file.record_count);
    rows += file.record_count;
  }
  EXPECT_EQ(rows, 5);
  ASSERT_EQ(result.data_files.size(), 4U);
  EXPECT_EQ(counts.size(), 3U);
  for (const auto& [partition, files] : counts) {
    EXPECT_EQ(files.size(), partition.find('b') != std::string::npos ? 2U : 1U) << partition;
  }
  auto read = Duck("SELECT count(*) AS n, count(DISTINCT id) AS ids FROM read_parquet(" +
                   test::PathList(result.data_files) + ")");
  if (!read) GTEST_SKIP() << "peers not installed: " << read.error().ToString();
  EXPECT_EQ(Int(read->at(0), "n"), 5);
  EXPECT_EQ(Int(read->at(0), "ids"), 5);
}

TEST(ClusteredWriter, SortedInputOneFilePerPartitionAndUnsortedInputFails) {
  EventsTable table;
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, ClusteredWriter::Make(table.Context(spec)));
  FLOE_ASSERT_OK(
      writer->Write(table.Batch({{1, 0, "a", 1.0}, {2, 0, "a", 2.0}, {3, 0, "b", 3.0}})));
  FLOE_ASSERT_OK(writer->Write(table.Batch({{4, 0, "b", 4.0}, {5, 0, std::nullopt, 5.0}})));
  auto status = writer->Write(table.Batch({{6, 0, "a", 6.0}}));
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(status.error().message().find("category=a"), std::string::npos);
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_EQ(result.data_files.size(), 3U);
  EXPECT_EQ(result.data_files[0].record_count, 2);
  EXPECT_EQ(result.data_files[1].record_count, 2);
  EXPECT_TRUE(result.data_files[2].partition[0].is_null());
  EXPECT_NE(result.data_files[2].file_path.find("/category=null/"), std::string::npos);
}

TEST(FanoutWriter, ClickHouseReadsThePartitionedFiles) {
  EventsTable table;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, FanoutWriter::Make(table.Context(DayAndBucket())));
  FLOE_ASSERT_OK(writer->Write(table.Batch(RandomRows(500, 11))));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  std::string list;
  for (const auto& f : result.data_files) list += (list.empty() ? "'" : ",'") + f.file_path + "'";
  auto out = floe::testing::RunPeer(
      "ch", {"SELECT count() AS n, sum(id) AS s, countIf(category = 'c/d') AS cd FROM file('" +
             table.location() + "/data/*/*/*.parquet', Parquet) FORMAT JSONEachRow"});
  if (!out) GTEST_SKIP() << "peers not installed: " << out.error().ToString();
  auto row = Json::Parse(*out);
  ASSERT_TRUE(row.has_value()) << *out;
  int64_t cd = 0;
  for (const auto& r : RandomRows(500, 11)) cd += r.category == std::optional<std::string>("c/d");
  EXPECT_EQ(test::Int(*row, "n"), 500);
  EXPECT_EQ(test::Int(*row, "s"), 500 * 499 / 2);
  EXPECT_EQ(test::Int(*row, "cd"), cd);
}

}  // namespace
}  // namespace floe::table
