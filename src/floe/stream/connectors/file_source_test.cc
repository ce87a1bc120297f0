#include "floe/stream/connectors/file_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/stream/connectors/source_test_driver.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::stream {
namespace {

namespace fs = std::filesystem;
using testing::SourceDriver;
using testing::SourceSnapshot;

BatchSchemaPtr TextSchema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64()},
      {"name", DataType::String()},
      {"price", DataType::Decimal128(9, 2)},
      {"day", DataType::Date32()},
      {"at", DataType::Timestamp(TimeUnit::kMicro, true)},
      {"ok", DataType::Bool()},
      {"ratio", DataType::Float64()},
  });
}

// Rows as JSON text by id, failing on an id seen twice.
void CollectRows(const std::vector<RecordBatch>& batches, std::map<int64_t, std::string>& rows) {
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::string text;
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) text.push_back(',');
        AppendJson(batch.column(c), r, text);
      }
      int64_t id = batch.column(0).Value<int64_t>(r);
      EXPECT_TRUE(rows.emplace(id, std::move(text)).second) << "id " << id << " twice";
    }
  }
}

class FileSourceTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& content) {
    fs::path path = temp_.path() / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }
  std::string Folder(const std::string& name) const { return (temp_.path() / name).string(); }

  Result<std::shared_ptr<FileSource>> Make(std::map<std::string, std::string> options,
                                           BatchSchemaPtr schema = TextSchema()) {
    return FileSource::Make(io_, std::move(schema), options);
  }

  // Ids first..last as CSV lines, with values derived from the id, and the JSON text the batch
  // holds for each (checked against what the CSV says, not against floe's own writer).
  std::string CsvRows(int64_t first, int64_t last) {
    std::string csv;
    for (int64_t id = first; id <= last; ++id) {
      std::string name = id % 5 == 0 ? "" : fmt::format("\"n,{}\"", id);
      csv +=
          fmt::format("{},{},{}.{:02},2024-03-{:02},2024-03-01T10:00:{:02}Z,{},{}\n", id, name, id,
                      id % 100, id % 28 + 1, id % 60, id % 2 == 0 ? "true" : "false", id * 0.5);
      std::string expected_name = id % 5 == 0 ? "null" : fmt::format("\"n,{}\"", id);
      expected_[id] = fmt::format(
          "{},{},\"{}.{:02}\",\"2024-03-{:02}\",\"2024-03-01T10:00:{:02}.000000+00:00\",{},{}", id,
          expected_name, id, id % 100, id % 28 + 1, id % 60, id % 2 == 0 ? "true" : "false",
          fmt::format("{:.1f}", id * 0.5));
    }
    return csv;
  }

  floe::testing::TempDir temp_;
  std::shared_ptr<io::FileIO> io_ = std::make_shared<io::LocalFileIO>();
  std::map<int64_t, std::string> expected_;
};

TEST_F(FileSourceTest, ReadsAFolderOfCsvFilesWithAnyParallelismAcrossARestore) {
  Write("in/a.csv", "id,name,price,day,at,ok,ratio\n" + CsvRows(1, 40));
  Write("in/b.csv", "id,name,price,day,at,ok,ratio\r\n" + CsvRows(41, 45));
  Write("in/c.csv", "id,name,price,day,at,ok,ratio\n");  // a header only
  Write("in/d.csv", "id,name,price,day,at,ok,ratio\n" + CsvRows(46, 100));
  Write("in/.hidden.csv", "not,csv");
  Write("in/_in_progress.csv", "not,csv");
  fs::create_directories(temp_.path() / "in" / "sub");
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Make({{"path", Folder("in")},
                                               {"format", "csv"},
                                               {"csv.header", "true"},
                                               {"batch-size", "7"}}));
  EXPECT_TRUE(source->bounded());

  for (auto [before, after] : {std::pair{2, 1}, std::pair{3, 2}, std::pair{1, 4}}) {
    SCOPED_TRACE(fmt::format("{} readers, then {}", before, after));
    FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, before));
    for (int i = 0; i < 4; ++i) FLOE_ASSERT_OK(first->Step());
    FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
    std::map<int64_t, std::string> rows;
    CollectRows(first->output().batches(), rows);
    EXPECT_GT(rows.size(), 0u);
    EXPECT_LT(rows.size(), 100u);
    for (int i = 0; i < 3; ++i) FLOE_ASSERT_OK(first->Step());  // lost in a failure

    FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, after, &snapshot));
    FLOE_ASSERT_OK(second->RunToEnd());
    CollectRows(second->output().batches(), rows);
    EXPECT_EQ(rows, expected_);
    for (const RecordBatch& batch : second->output().batches()) EXPECT_LE(batch.num_rows(), 7);
  }
}

TEST_F(FileSourceTest, ReadsJsonLines) {
  std::string path =
      Write("in.jsonl",
            "{\"id\":1,\"name\":\"a\",\"price\":1.5,\"day\":\"2024-01-02\","
            "\"at\":\"2024-01-02T03:04:05.000006+00:00\",\"ok\":true,\"ratio\":2}\n"
            "\n"
            "{\"ratio\":-0.25,\"id\":2,\"extra\":[1,2],\"name\":\"\",\"ok\":null}\r\n"
            "{\"id\":3}");
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Make({{"path", path}, {"format", "json"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 2));
  FLOE_ASSERT_OK(driver->RunToEnd());
  std::map<int64_t, std::string> rows;
  CollectRows(driver->output().batches(), rows);
  std::map<int64_t, std::string> expected{
      {1, "1,\"a\",\"1.50\",\"2024-01-02\",\"2024-01-02T03:04:05.000006+00:00\",true,2.0"},
      {2, "2,\"\",null,null,null,null,-0.25"},
      {3, "3,null,null,null,null,null,null"},
  };
  EXPECT_EQ(rows, expected);
}

TEST_F(FileSourceTest, ParquetFilesAgreeWithDuckDbAcrossARestore) {
  fs::path folder =
      floe::testing::TestDataDir() / "duckdb-iceberg/data/persistent/iceberg/lineitem_iceberg/data";
  if (!fs::exists(folder)) GTEST_SKIP() << "no test data at " << folder;
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      Make({{"path", folder.string()}, {"format", "parquet"}, {"batch-size", "5000"}}, nullptr));
  int orderkey = source->schema()->FindFieldIndex("l_orderkey");
  int linenumber = source->schema()->FindFieldIndex("l_linenumber");
  ASSERT_GE(orderkey, 0);
  ASSERT_GE(linenumber, 0);

  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 3));
  for (int i = 0; i < 5; ++i) FLOE_ASSERT_OK(first->Step());
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
  std::vector<RecordBatch> batches = first->output().batches();
  FLOE_ASSERT_OK(first->Step());
  FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, 2, &snapshot));
  FLOE_ASSERT_OK(second->RunToEnd());
  for (const RecordBatch& batch : second->output().batches()) batches.push_back(batch);

  int64_t count = 0, orderkeys = 0, linenumbers = 0;
  for (const RecordBatch& batch : batches) {
    EXPECT_TRUE(*batch.schema() == *source->schema());
    count += batch.num_rows();
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      orderkeys += batch.column(orderkey).Value<int64_t>(r);
      linenumbers += batch.column(linenumber).Value<int64_t>(r);
    }
  }
  auto duck = floe::testing::RunPeer(
      "duck", {fmt::format("SELECT count(*) c, sum(l_orderkey) s, sum(l_linenumber) n FROM "
                           "read_parquet('{}/*.parquet')",
                           folder.string())});
  if (!duck) GTEST_SKIP() << "DuckDB peer not available: " << duck.error().message();
  FLOE_ASSERT_OK_AND_ASSIGN(Json expected, Json::Parse(*duck));
  EXPECT_EQ(fmt::format("{}", count), expected.Find("c")->as_string());
  EXPECT_EQ(fmt::format("{}", orderkeys), expected.Find("s")->as_string());
  EXPECT_EQ(fmt::format("{}", linenumbers), expected.Find("n")->as_string());

  // With a schema given, only its columns are read (by name), in its order.
  auto projected_schema = std::make_shared<BatchSchema>(
      std::vector<Field>{{"l_linenumber", DataType::Int64()}, {"l_orderkey", DataType::Int64()}});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto projected, Make({{"path", folder.string()}, {"format", "parquet"}}, projected_schema));
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*projected, 2));
  FLOE_ASSERT_OK(driver->RunToEnd());
  int64_t projected_count = 0, projected_orderkeys = 0;
  for (const RecordBatch& batch : driver->output().batches()) {
    ASSERT_TRUE(*batch.schema() == *projected_schema);
    projected_count += batch.num_rows();
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      projected_orderkeys += batch.column(1).Value<int64_t>(r);
    }
  }
  EXPECT_EQ(projected_count, count);
  EXPECT_EQ(projected_orderkeys, orderkeys);
}

// A Parquet file larger than split-size is read in byte ranges that parallel readers share, each
// row group once (its first byte lies in one range), also across a restore with another
// parallelism; an enumerator state of a version before ranges (plain file names) still restores.
TEST_F(FileSourceTest, LargeParquetFilesAreSplitInByteRangesThatReadersShare) {
  constexpr int64_t kRows = 200'000;
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false, 1}, Field{"s", DataType::String(), false, 2}});
  Int64Builder ids;
  StringBuilder texts(DataType::String());
  for (int64_t id = 0; id < kRows; ++id) {
    ids.Append(id);
    texts.Append(fmt::format("row {}", id * 7919 % kRows));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(Array id_array, ids.Finish());
  FLOE_ASSERT_OK_AND_ASSIGN(Array text_array, texts.Finish());
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch,
                            RecordBatch::Make(schema, {id_array, text_array}, kRows));
  const std::string path = Folder("big.parquet");
  parquet::WriterOptions options;
  options.row_group_size_bytes = 64 << 10;
  FLOE_ASSERT_OK_AND_ASSIGN(auto output, io_->NewOutputFile(path));
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, output->CreateOrOverwrite());
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer,
                            parquet::ParquetWriter::Make(std::move(file), schema, options));
  FLOE_ASSERT_OK(writer->Write(batch));
  FLOE_ASSERT_OK_AND_ASSIGN(parquet::WriteResult written, writer->Close());
  ASSERT_GE(written.metadata.row_groups.size(), 8u);
  const int64_t size = static_cast<int64_t>(fs::file_size(path));

  auto ids_of = [](const std::vector<RecordBatch>& batches, std::map<int64_t, int>& seen) {
    for (const RecordBatch& b : batches) {
      for (int64_t r = 0; r < b.num_rows(); ++r) ++seen[b.column(0).Value<int64_t>(r)];
    }
  };
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Make({{"path", path},
                                               {"format", "parquet"},
                                               {"batch-size", "1000"},
                                               {"split-size", std::to_string(size / 5 + 1)}},
                                              nullptr));
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 2));
  for (int i = 0; i < 3; ++i) FLOE_ASSERT_OK(first->Step());
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));
  // Both readers hold a range of the one file.
  ASSERT_EQ(snapshot.readers.size(), 2u);
  for (const auto& entries : snapshot.readers) {
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_NE(entries.front().find("\"offset\""), std::string::npos) << entries.front();
  }
  std::map<int64_t, int> seen;
  ids_of(first->output().batches(), seen);
  FLOE_ASSERT_OK(first->Step());  // lost in a failure
  FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, 3, &snapshot));
  FLOE_ASSERT_OK(second->RunToEnd());
  ids_of(second->output().batches(), seen);
  ASSERT_EQ(seen.size(), static_cast<size_t>(kRows));
  EXPECT_EQ(seen.begin()->first, 0);
  EXPECT_EQ(seen.rbegin()->first, kRows - 1);
  EXPECT_TRUE(std::ranges::all_of(seen, [](const auto& id) { return id.second == 1; }));

  // A state written before ranges: the pending file is read whole.
  SourceSnapshot old{1,
                     Json::MakeObject()
                         .Set("discovered", Json::MakeArray().Push(path))
                         .Set("pending", Json::MakeArray().Push(path))
                         .Dump(),
                     {{}}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto restored, SourceDriver::Start(*source, 1, &old));
  FLOE_ASSERT_OK(restored->RunToEnd());
  EXPECT_EQ(restored->output().rows(), kRows);
}

TEST_F(FileSourceTest, MonitoredFolderReadsNewFilesOnceAcrossARestore) {
  Write("in/1.csv", CsvRows(1, 10));
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Make({{"path", Folder("in")},
                                               {"format", "csv"},
                                               {"monitor-interval", "1s"},
                                               {"batch-size", "4"}}));
  EXPECT_FALSE(source->bounded());
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SourceDriver::Start(*source, 2));
  int64_t now = 0;
  auto run = [&](SourceDriver& driver, int steps) {
    for (int i = 0; i < steps; ++i) {
      now += 100;
      auto running = driver.Step(now);
      ASSERT_TRUE(running.has_value()) << running.error().ToString();
      EXPECT_TRUE(*running);  // unbounded: readers never end
    }
  };
  run(*first, 5);
  // A file written under a skipped name and renamed in, as a producer should.
  Write("in/.2.csv.tmp", CsvRows(11, 30));
  fs::rename(temp_.path() / "in" / ".2.csv.tmp", temp_.path() / "in" / "2.csv");
  run(*first, 8);  // the next listing comes a second after the first, at 1100 ms
  std::map<int64_t, std::string> rows;
  CollectRows(first->output().batches(), rows);
  ASSERT_GT(rows.size(), 10u);
  ASSERT_LT(rows.size(), 30u);
  FLOE_ASSERT_OK_AND_ASSIGN(SourceSnapshot snapshot, first->Snapshot(1));

  Write("in/3.csv", CsvRows(31, 33));
  FLOE_ASSERT_OK_AND_ASSIGN(auto second, SourceDriver::Start(*source, 3, &snapshot));
  run(*second, 30);
  CollectRows(second->output().batches(), rows);
  EXPECT_EQ(rows, expected_);
}

TEST_F(FileSourceTest, BadInputNamesTheFileAndLine) {
  auto read_error = [&](const std::string& format, const std::string& content) -> std::string {
    std::string path = Write(fmt::format("bad.{}", format), content);
    auto source = Make({{"path", path}, {"format", format}});
    if (!source) return source.error().message();
    auto driver = SourceDriver::Start(**source, 1);
    if (!driver) return driver.error().message();
    auto ended = (*driver)->RunToEnd();
    return ended ? "no error" : ended.error().message();
  };
  std::string csv = Folder("bad.csv");
  std::string good = "1,a,1.00,2024-01-01,2024-01-01T00:00:00Z,true,1\n";
  EXPECT_EQ(read_error("csv", good + "2,\"open,1,2024-01-01,2024-01-01T00:00:00Z,true,1\n"),
            csv + ": line 2: unterminated quote");
  EXPECT_EQ(read_error("csv", good + good + "3,b\n"),
            csv + ": line 3: 2 fields, the schema has 7 columns");
  EXPECT_EQ(read_error("csv", "x,a,1.00,2024-01-01,2024-01-01T00:00:00Z,true,1\n"),
            csv + ": line 1: column id: 'x' is not an integer");
  std::string json = Folder("bad.json");
  EXPECT_EQ(read_error("json", "{\"id\":1}\n{\"id\":2}\n{\"id\":3\n").substr(0, json.size() + 8),
            json + ": line 3");
  EXPECT_EQ(read_error("json", "{\"id\":1}\n[1]\n"), json + ": line 2: not a JSON object");
  EXPECT_EQ(read_error("json", "{\"id\":{\"a\":1}}\n"),
            json + ": line 1: key 'id' holds a nested value");

  auto missing = Make({{"path", Folder("none")}, {"format", "csv"}});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message().find(Folder("none")), std::string::npos);
  std::string some = Write("some.csv", good);
  auto refused = [&](std::map<std::string, std::string> options, std::string_view text) {
    auto source = Make(options);
    ASSERT_FALSE(source.has_value()) << text;
    EXPECT_NE(source.error().message().find(text), std::string::npos) << source.error().message();
  };
  refused({{"path", some}, {"format", "xml"}}, "'format': 'xml' is not csv, json or parquet");
  refused({{"path", some}}, "option 'format' is missing");
  refused({{"path", some}, {"format", "csv"}, {"colour", "red"}}, "unknown option 'colour'");
  refused({{"path", some}, {"format", "csv"}, {"monitor-interval", "1s"}},
          "'monitor-interval' needs 'path' to be a folder");
  refused({{"path", Folder("")}, {"format", "csv"}, {"monitor-interval", "soon"}},
          "'monitor-interval': 'soon' is not a duration");
  refused({{"path", some}, {"format", "csv"}, {"batch-size", "0"}}, "'batch-size'");
  refused({{"path", some}, {"format", "csv"}, {"split-size", "big"}},
          "'split-size': 'big' is not a positive number");

  // A file named in a restored state that has gone is an error naming it.
  FLOE_ASSERT_OK_AND_ASSIGN(auto source, Make({{"path", some}, {"format", "csv"}}));
  SourceSnapshot gone{1,
                      "{\"discovered\":[],\"pending\":[]}",
                      {{Json::MakeObject().Set("file", Folder("gone.csv")).Set("rows", 1).Dump()}}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto driver, SourceDriver::Start(*source, 1, &gone));
  auto ended = driver->RunToEnd();
  ASSERT_FALSE(ended.has_value());
  EXPECT_EQ(ended.error().kind(), ErrorKind::kNotFound);
  EXPECT_NE(ended.error().message().find("gone.csv"), std::string::npos);
}

}  // namespace
}  // namespace floe::stream
