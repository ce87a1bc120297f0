// Cross-checks the tables the commit operations make with independent Iceberg readers: ClickHouse
// (icebergLocal) and icebird read a table of real Parquet files, exported in the hadoop layout
// (metadata/vN.metadata.json + version-hint.text) after each commit, and must see the rows floe
// committed: after appends, an overwrite, a row delta with position deletes, and expiry.
// (The shared DuckDB has no Iceberg extension, so it cannot take part.)

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "floe/batch/record_batch.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/table/update/expire_snapshots.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/overwrite_files.h"
#include "floe/table/update/row_delta.h"
#include "floe/table/update/test_table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::table {
namespace {

constexpr int32_t kFilePathId = 2147483546;
constexpr int32_t kPosId = 2147483545;

struct Row {
  int64_t id;
  std::string data;
  std::string category;
  friend auto operator<=>(const Row&, const Row&) = default;
};

// Writes batch to path and describes it as a DataFile: counts and bounds by field id (the PLAIN
// bounds Parquet keeps are Iceberg's binary form for long and string columns).
manifest::DataFile WriteParquet(io::FileIO& io, const std::string& path, const RecordBatch& batch,
                                manifest::FileContent content) {
  auto file = io.NewOutputFile(path).value()->Create().value();
  auto writer = parquet::ParquetWriter::Make(std::move(file), batch.schema(), {}).value();
  EXPECT_TRUE(writer->Write(batch));
  parquet::WriteResult result = writer->Close().value();
  manifest::DataFile out;
  out.content = content;
  out.file_path = path;
  out.file_format = "parquet";
  out.record_count = result.row_count;
  out.file_size_in_bytes = result.file_size;
  out.split_offsets = result.split_offsets;
  for (const parquet::ColumnMetrics& column : result.columns) {
    if (!column.field_id) continue;
    int32_t id = *column.field_id;
    out.column_sizes.emplace_back(id, column.column_size);
    out.value_counts.emplace_back(id, column.value_count);
    out.null_value_counts.emplace_back(id, column.null_count);
    if (column.lower_bound) out.lower_bounds.emplace_back(id, *column.lower_bound);
    if (column.upper_bound) out.upper_bounds.emplace_back(id, *column.upper_bound);
  }
  return out;
}

manifest::DataFile WriteData(io::FileIO& io, const std::string& path,
                             const std::vector<Row>& rows) {
  std::vector<Value> ids, data, categories;
  for (const Row& row : rows) {
    ids.emplace_back(row.id);
    data.emplace_back(row.data);
    categories.emplace_back(row.category);
  }
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false, 1}, Field{"data", DataType::String(), true, 2},
      Field{"category", DataType::String(), true, 3}});
  auto batch = RecordBatch::Make(schema, {MakeArray(DataType::Int64(), ids).value(),
                                          MakeArray(DataType::String(), data).value(),
                                          MakeArray(DataType::String(), categories).value()})
                   .value();
  manifest::DataFile file = WriteParquet(io, path, batch, manifest::FileContent::kData);
  file.partition = {Literal::String(rows.front().category)};
  return file;
}

manifest::DataFile WritePositionDeletes(io::FileIO& io, const std::string& path,
                                        const manifest::DataFile& data,
                                        const std::vector<int64_t>& positions) {
  std::vector<Value> paths, pos;
  for (int64_t p : positions) {
    paths.emplace_back(data.file_path);
    pos.emplace_back(p);
  }
  auto schema = std::make_shared<BatchSchema>(
      std::vector<Field>{Field{"file_path", DataType::String(), false, kFilePathId},
                         Field{"pos", DataType::Int64(), false, kPosId}});
  auto batch = RecordBatch::Make(schema, {MakeArray(DataType::String(), paths).value(),
                                          MakeArray(DataType::Int64(), pos).value()})
                   .value();
  manifest::DataFile file = WriteParquet(io, path, batch, manifest::FileContent::kPositionDeletes);
  file.partition = data.partition;
  file.referenced_data_file = data.file_path;
  return file;
}

class PeerReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
    io_ = std::make_shared<io::LocalFileIO>();
    warehouse_ = dir_.path().string();
    // The catalog's own metadata files go aside, so that metadata/ holds only the hadoop layout.
    auto t = test::MakeTestTable(io_, /*partitioned=*/true, 2,
                                 {{"write.metadata.path", warehouse_ + "/db/t/floe-metadata"}},
                                 warehouse_);
    ASSERT_TRUE(t) << t.error().ToString();
    t_ = std::move(*t);
    location_ = warehouse_ + "/db/t";
  }

  // Exports the current metadata as the next vN.metadata.json and points version-hint.text at it.
  void Export() {
    ++version_;
    std::string folder = location_ + "/metadata";
    FLOE_ASSERT_OK(WriteTableMetadata(*io_,
                                      folder + "/v" + std::to_string(version_) + ".metadata.json",
                                      *t_.table->metadata(), false));
    FLOE_ASSERT_OK(io_->WriteFile(folder + "/version-hint.text", std::to_string(version_), true));
  }

  // Rows printed as JSON lines by a peer, sorted.
  static std::vector<Row> ParseRows(const Result<std::string>& out) {
    EXPECT_TRUE(out) << out.error().ToString();
    std::vector<Row> rows;
    if (!out) return rows;
    size_t start = 0;
    while (start < out->size()) {
      size_t end = out->find('\n', start);
      if (end == std::string::npos) end = out->size();
      std::string line = out->substr(start, end - start);
      start = end + 1;
      if (line.empty()) continue;
      auto json = Json::Parse(line);
      EXPECT_TRUE(json) << line;
      if (!json) continue;
      const Json* id = json->Find("id");
      EXPECT_NE(id, nullptr) << line;
      if (!id) continue;
      rows.push_back(Row{id->is_string() ? std::stoll(id->as_string()) : id->as_int(),
                         json->GetString("data").value(), json->GetString("category").value()});
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  void ExpectRows(std::vector<Row> expected) {
    Export();
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(ParseRows(floe::testing::RunPeer(
                  "ch", {"SELECT id, data, category FROM icebergLocal('" + location_ + "')",
                         "JSONEachRow"})),
              expected)
        << "ClickHouse, version " << version_;
    if (floe::testing::PeerInstalled("icebird")) {
      EXPECT_EQ(ParseRows(floe::testing::RunPeer("icebird-read", {location_})), expected)
          << "icebird, version " << version_;
    }
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<io::LocalFileIO> io_;
  std::string warehouse_;
  std::string location_;
  test::TestTable t_;
  int version_ = 0;
};

TEST_F(PeerReadTest, PeersReadWhatCommitsMade) {
  std::vector<Row> a = {{1, "one", "a"}, {2, "two", "a"}};
  std::vector<Row> b = {{3, "three", "b"}, {4, "four", "b"}, {5, "five", "b"}};
  std::vector<Row> c = {{6, "six", "c"}};
  auto fa = WriteData(*io_, location_ + "/data/a1.parquet", a);
  auto fb = WriteData(*io_, location_ + "/data/b1.parquet", b);
  auto fc = WriteData(*io_, location_ + "/data/c1.parquet", c);
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(fa).AppendFile(fb).Commit());
  FLOE_ASSERT_OK(t_.table->NewFastAppend()->AppendFile(fc).Commit());
  std::vector<Row> all = a;
  all.insert(all.end(), b.begin(), b.end());
  all.insert(all.end(), c.begin(), c.end());
  ExpectRows(all);

  // Overwrite partition a.
  std::vector<Row> a2 = {{7, "seven", "a"}};
  auto fa2 = WriteData(*io_, location_ + "/data/a2.parquet", a2);
  FLOE_ASSERT_OK(t_.table->NewOverwrite()
                     ->OverwriteByRowFilter(expr::Equal("category", Literal::String("a")))
                     .AddFile(fa2)
                     .Commit());
  ExpectRows({b[0], b[1], b[2], c[0], a2[0]});

  // Delete rows 0 and 2 of b1 (ids 3 and 5), add a row to c.
  auto deletes = WritePositionDeletes(*io_, location_ + "/data/b1-deletes.parquet", fb, {0, 2});
  std::vector<Row> c2 = {{8, "eight", "c"}};
  auto fc2 = WriteData(*io_, location_ + "/data/c2.parquet", c2);
  FLOE_ASSERT_OK(t_.table->NewRowDelta()->AddDeletes(deletes).AddRows(fc2).Commit());
  ExpectRows({b[1], c[0], a2[0], c2[0]});

  // Expire all but the current snapshot: the replaced a1.parquet goes, the rows stay.
  auto expire = t_.table->NewExpireSnapshots();
  expire->ExpireOlderThan(t_.table->metadata()->last_updated_ms() + 1).RetainLast(1);
  FLOE_ASSERT_OK(expire->Commit());
  EXPECT_EQ(t_.table->metadata()->snapshots().size(), 1u);
  EXPECT_FALSE(io_->Exists(location_ + "/data/a1.parquet").value());
  EXPECT_TRUE(io_->Exists(location_ + "/data/b1.parquet").value());
  ExpectRows({b[1], c[0], a2[0], c2[0]});
}

}  // namespace
}  // namespace floe::table
