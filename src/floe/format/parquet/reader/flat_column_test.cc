// The flat-column path of the batch reader against DuckDB: a floe-written file with pages of 100
// rows (v1 and v2 pages), nulls on page edges and a whole page of nulls, a string column whose
// dictionary overflows mid-chunk (later pages PLAIN), a narrowed int8 and a boolean column, read
// with batches smaller than, equal to, across and larger than pages and row groups.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/page_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kRows = 5000;

bool NullOnPageEdge(int64_t i) { return i % 100 == 0 || i % 100 == 99 || (i >= 300 && i < 400); }

void Write(const fs::path& path, bool v2) {
  Int64Builder id, v;
  Float64Builder d;
  StringBuilder s(DataType::String());
  Int8Builder n;
  BooleanBuilder b;
  for (int64_t i = 0; i < kRows; ++i) {
    id.Append(i);
    if (NullOnPageEdge(i)) {
      v.AppendNull();
    } else {
      v.Append(i * 3 - 7000);
    }
    d.Append(static_cast<double>(i) * 0.25);
    if (i % 37 == 0) {
      s.AppendNull();
    } else {
      s.Append(i < 1500 ? fmt::format("c{}", i % 5) : fmt::format("unique-{}", i));
    }
    if (i % 11 == 0) {
      n.AppendNull();
    } else {
      n.Append(static_cast<int8_t>(i % 200 - 100));
    }
    if (i % 3 == 0) {
      b.AppendNull();
    } else {
      b.Append(i % 2 == 0);
    }
  }
  std::vector<Array> arrays;
  for (ArrayBuilder* builder : std::initializer_list<ArrayBuilder*>{&id, &v, &d, &s, &n, &b}) {
    auto array = builder->Finish();
    ASSERT_TRUE(array.has_value()) << array.error().message();
    arrays.push_back(std::move(*array));
  }
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false, 1}, Field{"v", DataType::Int64(), true, 2},
      Field{"d", DataType::Float64(), false, 3}, Field{"s", DataType::String(), true, 4},
      Field{"n", DataType::Int8(), true, 5}, Field{"b", DataType::Bool(), true, 6}});
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, arrays, kRows));
  WriterOptions options;
  options.page_row_limit = 100;
  options.row_group_size_bytes = 64 << 10;
  options.dict_size_bytes = 1024;
  options.delta_encoding = false;
  options.data_page_v2 = v2;
  options.codec = Codec::kSnappy;
  io::LocalFileIO io;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io.NewOutputFile(path.string()));
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, output->CreateOrOverwrite());
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, ParquetWriter::Make(std::move(file), schema, options));
  FLOE_ASSERT_OK(writer->Write(batch));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writer->Close());
  ASSERT_GT(result.metadata.row_groups.size(), 1u);
}

std::vector<Json> DuckRows(const fs::path& path) {
  std::vector<Json> rows;
  auto out = testing::RunPeer(
      "duck", {"SELECT id, v, d, s, n, b FROM read_parquet('" + path.string() + "') ORDER BY id"});
  EXPECT_TRUE(out.has_value()) << out.error().ToString();
  if (!out) return rows;
  size_t start = 0;
  while (start < out->size()) {
    size_t end = out->find('\n', start);
    if (end == std::string::npos) end = out->size();
    if (end > start) {
      auto row = Json::Parse(std::string_view(*out).substr(start, end - start));
      EXPECT_TRUE(row.has_value());
      if (row) rows.push_back(std::move(*row));
    }
    start = end + 1;
  }
  return rows;
}

// Numbers by value (the peer prints 64-bit integers as strings), the rest as text.
void ExpectSame(const Json& duck, const Value& floe) {
  if (floe.is_null()) {
    EXPECT_EQ(duck.kind(), Json::Kind::kNull);
  } else if (floe.is<int64_t>()) {
    EXPECT_EQ(duck.kind() == Json::Kind::kString ? std::stoll(duck.as_string()) : duck.as_int(),
              floe.get<int64_t>());
  } else if (floe.is<double>()) {
    EXPECT_DOUBLE_EQ(duck.as_double(), floe.get<double>());
  } else if (floe.is<bool>()) {
    EXPECT_EQ(duck.as_bool(), floe.get<bool>());
  } else {
    EXPECT_EQ(duck.as_string(), floe.ToJson().substr(1, floe.ToJson().size() - 2));
  }
}

class FlatColumns : public ::testing::TestWithParam<bool> {};

TEST_P(FlatColumns, EveryBatchSizeReadsWhatDuckDbReads) {
  if (!testing::PeerInstalled("@duckdb/node-api")) {
    GTEST_SKIP() << "DuckDB peer not installed (run ../shared/peers/setup)";
  }
  testing::TempDir dir;
  const fs::path path = dir.path() / "flat.parquet";
  Write(path, GetParam());
  if (HasFatalFailure()) return;
  const std::vector<Json> duck = DuckRows(path);
  ASSERT_EQ(duck.size(), static_cast<size_t>(kRows));
  for (int64_t batch_rows : {1, 7, 100, 333, 4096, 100000}) {
    SCOPED_TRACE(fmt::format("batch_rows {}", batch_rows));
    ReadOptions options;
    options.batch_rows = batch_rows;
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ParquetBatchReader::OpenPath(path.string(), options));
    size_t row = 0;
    while (true) {
      FLOE_ASSERT_OK_AND_ASSIGN(std::optional<RecordBatch> batch, reader->Next());
      if (!batch) break;
      ASSERT_LE(batch->num_rows(), batch_rows);
      ASSERT_EQ(reader->batch_row_position(), static_cast<int64_t>(row));
      for (int64_t r = 0; r < batch->num_rows(); ++r, ++row) {
        ASSERT_LT(row, duck.size());
        const auto& members = duck[row].as_object();
        ASSERT_EQ(members.size(), 6u);
        for (int c = 0; c < 6; ++c) {
          SCOPED_TRACE(fmt::format("row {} column {}", row, members[c].first));
          ExpectSame(members[c].second, RowView(*batch, r).Get(c));
          if (HasFailure()) return;
        }
      }
    }
    EXPECT_EQ(row, static_cast<size_t>(kRows));
  }
}

// The string column's first pages are dictionary-encoded and its last PLAIN: the dictionary
// overflowed mid-chunk.
TEST_P(FlatColumns, StringDictionaryFallsBackMidChunk) {
  testing::TempDir dir;
  const fs::path path = dir.path() / "flat.parquet";
  Write(path, GetParam());
  if (HasFatalFailure()) return;
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::OpenPath(path));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto pages,
      PageReader::Make(file->source(), *file->metadata().row_groups[0].columns[3].meta_data, "s"));
  bool dictionary = false, plain = false;
  while (true) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::optional<Page> page, pages->Next());
    if (!page) break;
    std::optional<Encoding> encoding;
    if (page->header.data_page_header) encoding = page->header.data_page_header->encoding;
    if (page->header.data_page_header_v2) encoding = page->header.data_page_header_v2->encoding;
    if (!encoding) continue;
    dictionary |= *encoding == Encoding::kRleDictionary || *encoding == Encoding::kPlainDictionary;
    // A PLAIN page after a dictionary-encoded one: the fallback.
    plain |= dictionary && *encoding == Encoding::kPlain;
  }
  EXPECT_TRUE(dictionary && plain);
}

INSTANTIATE_TEST_SUITE_P(Pages, FlatColumns, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "v2" : "v1"; });

}  // namespace
}  // namespace floe::parquet
