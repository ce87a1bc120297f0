// Page skipping with the page index: reading with predicates returns every row a full read filtered
// afterwards returns (the rows the writer wrote, and the rows DuckDB's WHERE returns from the same
// file), while the pages the column index rules out are not read.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;
using Op = ColumnPredicate::Op;

constexpr int64_t kRows = 30000;

std::string Text(int64_t id) { return fmt::format("row{:08}{}", id, std::string(id % 13, 'x')); }

// ids 0..kRows-1 in file order; v = id / 2 except every 7th row null; s = Text(id). Small pages
// cut by bytes, without dictionaries, so that the string column's pages end at other rows than the
// numbers'; several row groups.
void WriteSmallPages(const fs::path& path) {
  Int64Builder ids;
  Float64Builder v;
  StringBuilder s(DataType::String());
  for (int64_t id = 0; id < kRows; ++id) {
    ids.Append(id);
    if (id % 7 == 0) {
      v.AppendNull();
    } else {
      v.Append(static_cast<double>(id) / 2);
    }
    s.Append(Text(id));
  }
  std::vector<Array> arrays;
  for (ArrayBuilder* builder : std::initializer_list<ArrayBuilder*>{&ids, &v, &s}) {
    auto array = builder->Finish();
    ASSERT_TRUE(array.has_value()) << array.error().message();
    arrays.push_back(std::move(*array));
  }
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false, 1}, Field{"v", DataType::Float64(), true, 2},
      Field{"s", DataType::String(), false, 3}});
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, arrays, kRows));
  WriterOptions options;
  options.page_size_bytes = 3000;
  options.row_group_size_bytes = 256 << 10;
  options.dictionary_enabled = false;
  options.delta_encoding = false;
  options.codec = Codec::kSnappy;
  io::LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io.NewOutputFile(path.string()));
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, output->CreateOrOverwrite());
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, ParquetWriter::Make(std::move(file), schema, options));
  FLOE_ASSERT_OK(writer->Write(batch));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_GT(result.metadata.row_groups.size(), 1u);
}

struct Read {
  std::vector<std::vector<Value>> rows;  // with the file position of each row first
  int64_t rows_skipped = 0;
};

Read ReadRows(const fs::path& path, ReadOptions options) {
  Read read;
  options.batch_rows = 1000;
  auto reader = ParquetBatchReader::OpenPath(path.string(), options);
  EXPECT_TRUE(reader.has_value()) << reader.error().ToString();
  if (!reader) return read;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
    if (!batch || !*batch) break;
    for (int64_t row = 0; row < (*batch)->num_rows(); ++row) {
      std::vector<Value> values{Value((*reader)->batch_row_position() + row)};
      for (int c = 0; c < (*batch)->num_columns(); ++c) {
        values.push_back(RowView(**batch, row).Get(c));
      }
      read.rows.push_back(std::move(values));
    }
  }
  read.rows_skipped = (*reader)->rows_skipped_by_page_index();
  return read;
}

// The rows (position dropped) whose column `column` (0-based, after the position) passes keep.
std::vector<std::vector<Value>> Filter(const std::vector<std::vector<Value>>& rows, size_t column,
                                       const std::function<bool(const Value&)>& keep) {
  std::vector<std::vector<Value>> out;
  for (const auto& row : rows) {
    if (keep(row[column + 1])) out.emplace_back(row.begin() + 1, row.end());
  }
  return out;
}

// DuckDB's rows for the query, each value compared with floe's: numbers by value, strings as text.
void ExpectDuckRows(const std::string& sql, const std::vector<std::vector<Value>>& rows) {
  if (!testing::PeerInstalled("@duckdb/node-api")) {
    GTEST_SKIP() << "DuckDB peer not installed (run ../shared/peers/setup)";
  }
  FLOE_ASSERT_OK_AND_ASSIGN(std::string out, testing::RunPeer("duck", {sql}));
  std::vector<Json> duck;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) {
      FLOE_ASSERT_OK_AND_ASSIGN(Json row,
                                Json::Parse(std::string_view(out).substr(start, end - start)));
      duck.push_back(std::move(row));
    }
    start = end + 1;
  }
  ASSERT_EQ(duck.size(), rows.size()) << sql;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& members = duck[i].as_object();
    ASSERT_EQ(members.size(), rows[i].size());
    for (size_t c = 0; c < rows[i].size(); ++c) {
      const Json& d = members[c].second;
      const Value& f = rows[i][c];
      SCOPED_TRACE(fmt::format("row {} column {}: duck {}, floe {}", i, members[c].first, d.Dump(),
                               f.ToJson()));
      if (f.is_null()) {
        EXPECT_EQ(d.kind(), Json::Kind::kNull);
      } else if (f.is<int64_t>()) {
        // The peer prints 64-bit integers as strings.
        EXPECT_EQ(d.kind() == Json::Kind::kString ? std::stoll(d.as_string()) : d.as_int(),
                  f.get<int64_t>());
      } else if (f.is<double>() || f.is<float>()) {
        const double x = f.is<double>() ? f.get<double>() : f.get<float>();
        EXPECT_FLOAT_EQ(d.as_double(), x);
      } else if (f.is<bool>()) {
        EXPECT_EQ(d.as_bool(), f.get<bool>());
      } else {
        EXPECT_EQ(d.as_string(), f.ToJson().substr(1, f.ToJson().size() - 2));
      }
    }
  }
}

TEST(PageSkip, SmallPagesOfAFloeFileKeepColumnsAligned) {
  testing::TempDir dir;
  const fs::path path = dir.path() / "pages.parquet";
  WriteSmallPages(path);
  if (HasFatalFailure()) return;
  // The pages of id and s end at different rows.
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::OpenPath(path));
  std::vector<std::vector<int64_t>> first_rows;
  for (size_t c = 0; c < 3; ++c) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto index, file->ReadOffsetIndex(0, c));
    ASSERT_TRUE(index.has_value());
    first_rows.emplace_back();
    for (const PageLocation& page : index->page_locations) {
      first_rows.back().push_back(page.first_row_index);
    }
    EXPECT_GT(first_rows.back().size(), 10u);
  }
  EXPECT_NE(first_rows[0], first_rows[2]);

  const Read full = ReadRows(path, {});
  ASSERT_EQ(full.rows.size(), static_cast<size_t>(kRows));
  EXPECT_EQ(full.rows_skipped, 0);

  ReadOptions options;
  options.predicates = {{"id", std::nullopt, Op::kGe, int64_t{12345}},
                        {"id", std::nullopt, Op::kLt, int64_t{12900}}};
  const Read skipped = ReadRows(path, options);
  EXPECT_GT(skipped.rows_skipped, kRows / 2);
  EXPECT_LT(skipped.rows.size(), static_cast<size_t>(kRows / 10));
  // Every row returned is the row written at its position: the columns stayed aligned.
  for (const auto& row : skipped.rows) {
    const int64_t position = row[0].get<int64_t>();
    ASSERT_EQ(row[1].get<int64_t>(), position);
    if (position % 7 == 0) {
      EXPECT_TRUE(row[2].is_null());
    } else {
      EXPECT_EQ(row[2].get<double>(), static_cast<double>(position) / 2);
    }
    EXPECT_EQ(row[3].get<std::string>(), Text(position));
  }
  auto in_range = [](const Value& v) {
    return v.get<int64_t>() >= 12345 && v.get<int64_t>() < 12900;
  };
  const auto expected = Filter(full.rows, 0, in_range);
  ASSERT_EQ(expected.size(), 555u);
  EXPECT_EQ(Filter(skipped.rows, 0, in_range), expected);
  ExpectDuckRows(fmt::format("SELECT id, v, s FROM read_parquet('{}') WHERE id >= 12345 AND id < "
                             "12900 ORDER BY id",
                             path.string()),
                 expected);

  // A string equality on the third column, and IS NULL on the second, with projection.
  options.predicates = {{"s", std::nullopt, Op::kEq, Text(20001)}};
  options.select = {Field{"s", nullptr, true, std::nullopt},
                    Field{"id", nullptr, true, std::nullopt}};
  const Read one = ReadRows(path, options);
  EXPECT_GT(one.rows_skipped, kRows / 2);
  const auto match =
      Filter(one.rows, 0, [](const Value& v) { return v.get<std::string>() == Text(20001); });
  ASSERT_EQ(match.size(), 1u);
  EXPECT_EQ(match[0][1].get<int64_t>(), 20001);

  options.predicates = {{"v", std::nullopt, Op::kIsNull, int64_t{0}}};
  options.select.clear();
  const Read nulls = ReadRows(path, options);
  EXPECT_EQ(Filter(nulls.rows, 1, [](const Value& v) { return v.is_null(); }),
            Filter(full.rows, 1, [](const Value& v) { return v.is_null(); }));
}

TEST(PageSkip, OffsetIndexOutsideTheChunkIsCorrupt) {
  testing::TempDir dir;
  const fs::path path = dir.path() / "pages.parquet";
  WriteSmallPages(path);
  if (HasFatalFailure()) return;
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::OpenPath(path));
  FLOE_ASSERT_OK_AND_ASSIGN(auto index, file->ReadOffsetIndex(0, 0));
  ASSERT_TRUE(index.has_value());
  OffsetIndex bad = *index;
  bad.page_locations.back().offset += 1 << 20;
  ChunkRowSelection selection{{{0, 10}}, &bad};
  auto reader = file->ReadColumn<int64_t>(0, 0, &selection);
  ASSERT_FALSE(reader.has_value());
  EXPECT_EQ(reader.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(reader.error().message().find("offset index"), std::string::npos)
      << reader.error().message();
  EXPECT_NE(reader.error().message().find("column id"), std::string::npos)
      << reader.error().message();
  // With the true index, just those rows.
  selection.offset_index = &*index;
  FLOE_ASSERT_OK_AND_ASSIGN(auto rows, file->ReadColumn<int64_t>(0, 0, &selection));
  int64_t values[16];
  FLOE_ASSERT_OK_AND_ASSIGN(BatchCounts counts, rows->ReadBatch(16, nullptr, nullptr, values));
  ASSERT_EQ(counts.levels, 10u);
  EXPECT_EQ(values[9], 9);
}

TEST(PageSkip, ParquetTestingTinyPagesMatchDuckDb) {
  const fs::path path = testing::TestDataDir() / "parquet-testing/data/alltypes_tiny_pages.parquet";
  ReadOptions options;
  options.select = {Field{"id", nullptr, true, std::nullopt},
                    Field{"bool_col", nullptr, true, std::nullopt},
                    Field{"smallint_col", nullptr, true, std::nullopt},
                    Field{"bigint_col", nullptr, true, std::nullopt},
                    Field{"double_col", nullptr, true, std::nullopt},
                    Field{"float_col", nullptr, true, std::nullopt}};
  const Read full = ReadRows(path, options);
  ASSERT_EQ(full.rows.size(), 7300u);
  options.predicates = {{"id", std::nullopt, Op::kGe, int64_t{2000}},
                        {"id", std::nullopt, Op::kLe, int64_t{2100}}};
  const Read skipped = ReadRows(path, options);
  EXPECT_GT(skipped.rows_skipped, 5000);
  auto in_range = [](const Value& v) {
    return v.get<int64_t>() >= 2000 && v.get<int64_t>() <= 2100;
  };
  auto expected = Filter(full.rows, 0, in_range);
  ASSERT_EQ(expected.size(), 101u);
  EXPECT_EQ(Filter(skipped.rows, 0, in_range), expected);
  // The file's ids are not in order.
  std::sort(expected.begin(), expected.end(),
            [](const std::vector<Value>& a, const std::vector<Value>& b) {
              return a[0].get<int64_t>() < b[0].get<int64_t>();
            });
  ExpectDuckRows(fmt::format("SELECT id, bool_col, smallint_col, bigint_col, double_col, float_col "
                             "FROM read_parquet('{}') WHERE id >= 2000 AND id <= 2100 ORDER BY id",
                             path.string()),
                 expected);

  // A predicate on a column whose pages are not ordered by it (bigint_col cycles 0..90).
  options.predicates = {{"bigint_col", std::nullopt, Op::kGt, int64_t{85}}};
  const Read big = ReadRows(path, options);
  auto above = [](const Value& v) { return v.get<int64_t>() > 85; };
  EXPECT_EQ(Filter(big.rows, 3, above), Filter(full.rows, 3, above));
}

}  // namespace
}  // namespace floe::parquet
