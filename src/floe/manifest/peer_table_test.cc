// Tables floe writes must be readable by other engines: a small partitioned Iceberg table (Parquet
// data files from format/parquet, manifest and manifest list from manifest_writer, metadata from
// spec/table_metadata_io, in the Hadoop layout) for format versions 1 to 3, read back by
// ClickHouse (icebergLocal, and its Avro reader over the manifests themselves) and by icebird.
// DuckDB cannot take part: the peer has no iceberg or avro extension (they would be downloaded at
// run time). Each check is skipped when its peer is not installed.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "floe/batch/builder.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/manifest/avro_data_schema.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::manifest {
namespace {

using namespace floe::types;

struct Row {
  int64_t id;
  std::string category;
  std::optional<double> price;
  std::optional<int32_t> day;
};

std::vector<Row> TableRows() {
  std::vector<Row> rows;
  for (int64_t i = 1; i <= 9; ++i) {
    rows.push_back({.id = i * 1000000007,
                    .category = i <= 5 ? "books" : "games",
                    .price = i % 4 == 0 ? std::nullopt : std::optional<double>(i * 2.5),
                    .day = i % 3 == 0 ? std::nullopt : std::optional<int32_t>(19000 + i)});
  }
  return rows;
}

SchemaPtr TableSchema() {
  return *Schema::Make({Required(1, "id", Long()), Required(2, "category", String()),
                        Optional(3, "price", Double()), Optional(4, "day", Date())});
}

Result<RecordBatch> MakeBatch(const Schema& schema, const std::vector<Row>& rows) {
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr batch_schema, AvroBatchSchema(schema));
  Int64Builder ids;
  StringBuilder categories(DataType::String());
  Float64Builder prices;
  Date32Builder days(DataType::Date32());
  for (const Row& r : rows) {
    ids.Append(r.id);
    categories.Append(r.category);
    r.price ? prices.Append(*r.price) : prices.AppendNull();
    r.day ? days.Append(*r.day) : days.AppendNull();
  }
  std::vector<floe::Array> columns;
  for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&ids, &categories, &prices, &days}) {
    FLOE_ASSIGN_OR_RETURN(floe::Array a, b->Finish());
    columns.push_back(std::move(a));
  }
  return RecordBatch::Make(batch_schema, std::move(columns));
}

// Writes one Parquet data file and describes it for a manifest.
Result<DataFile> WriteDataFile(io::FileIO& fio, const std::string& path, const Schema& schema,
                               const std::vector<Row>& rows) {
  FLOE_ASSIGN_OR_RETURN(auto out, fio.NewOutputFile(path));
  FLOE_ASSIGN_OR_RETURN(auto file, out->Create());
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, MakeBatch(schema, rows));
  FLOE_ASSIGN_OR_RETURN(auto writer,
                        parquet::ParquetWriter::Make(std::move(file), batch.schema(), {}));
  FLOE_RETURN_IF_ERROR(writer->Write(batch));
  FLOE_ASSIGN_OR_RETURN(parquet::WriteResult result, writer->Close());
  DataFile f;
  f.file_path = path;
  f.file_format = "parquet";
  f.partition = {Literal::String(rows.front().category)};
  f.record_count = result.row_count;
  f.file_size_in_bytes = result.file_size;
  f.split_offsets = result.split_offsets;
  for (const parquet::ColumnMetrics& c : result.columns) {
    if (!c.field_id) continue;
    f.column_sizes.emplace_back(*c.field_id, c.column_size);
    f.value_counts.emplace_back(*c.field_id, c.value_count);
    f.null_value_counts.emplace_back(*c.field_id, c.null_count);
    if (c.nan_count) f.nan_value_counts.emplace_back(*c.field_id, *c.nan_count);
    if (c.lower_bound) f.lower_bounds.emplace_back(*c.field_id, *c.lower_bound);
    if (c.upper_bound) f.upper_bounds.emplace_back(*c.field_id, *c.upper_bound);
  }
  return f;
}

struct Written {
  std::string manifest;
  std::string manifest_list;
};

// A table at dir with one append snapshot of two data files, partitioned by category.
Result<Written> WriteTable(const std::string& dir, int format_version) {
  io::LocalFileIO fio;
  SchemaPtr schema = TableSchema();
  FLOE_ASSIGN_OR_RETURN(
      PartitionSpecPtr spec,
      PartitionSpec::Make(*schema, 0, {{.source_ids = {2}, .field_id = 1000, .name = "category"}}));
  std::vector<Row> rows = TableRows();
  auto split = std::partition_point(rows.begin(), rows.end(),
                                    [](const Row& r) { return r.category == "books"; });
  const int64_t snapshot_id = 3051729675574597004;
  const int64_t sequence_number = format_version == 1 ? 0 : 1;

  FLOE_RETURN_IF_ERROR(fio.CreateDirectories(dir + "/data/category=books"));
  FLOE_RETURN_IF_ERROR(fio.CreateDirectories(dir + "/data/category=games"));
  FLOE_RETURN_IF_ERROR(fio.CreateDirectories(dir + "/metadata"));
  std::vector<DataFile> files;
  FLOE_ASSIGN_OR_RETURN(files.emplace_back(),
                        WriteDataFile(fio, dir + "/data/category=books/00000-0-a.parquet", *schema,
                                      {rows.begin(), split}));
  FLOE_ASSIGN_OR_RETURN(files.emplace_back(),
                        WriteDataFile(fio, dir + "/data/category=games/00001-0-b.parquet", *schema,
                                      {split, rows.end()}));

  Written w;
  w.manifest = dir + "/metadata/5e1f8c9a-0d1b-4c2e-9f3a-7b6d5c4e3f2a-m0.avro";
  FLOE_ASSIGN_OR_RETURN(auto manifest_out, fio.NewOutputFile(w.manifest));
  ManifestWriterOptions options;
  options.format_version = format_version;
  options.snapshot_id = snapshot_id;
  FLOE_ASSIGN_OR_RETURN(auto manifest,
                        ManifestWriter::Open(*manifest_out, *schema, *spec, options));
  for (DataFile& f : files) {
    ManifestEntry e;
    e.status = EntryStatus::kAdded;
    e.snapshot_id = snapshot_id;
    e.data_file = std::move(f);
    FLOE_RETURN_IF_ERROR(manifest->Add(e));
  }
  FLOE_ASSIGN_OR_RETURN(ManifestFile manifest_file, manifest->Close());

  w.manifest_list =
      dir + "/metadata/snap-3051729675574597004-1-5e1f8c9a-0d1b-4c2e-9f3a-7b6d5c4e3f2a.avro";
  FLOE_ASSIGN_OR_RETURN(auto list_out, fio.NewOutputFile(w.manifest_list));
  ManifestListWriterOptions list_options;
  list_options.format_version = format_version;
  list_options.snapshot_id = snapshot_id;
  list_options.sequence_number = sequence_number;
  if (format_version >= 3) list_options.first_row_id = 0;
  FLOE_ASSIGN_OR_RETURN(auto list, ManifestListWriter::Open(*list_out, list_options));
  FLOE_RETURN_IF_ERROR(list->Add(manifest_file));
  FLOE_RETURN_IF_ERROR(list->Close());

  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = snapshot_id;
  snapshot->sequence_number = sequence_number;
  snapshot->timestamp_ms = 1767225600000;
  snapshot->manifest_list = w.manifest_list;
  snapshot->schema_id = schema->schema_id();
  snapshot->summary = {{"operation", "append"},
                       {"added-data-files", "2"},
                       {"added-records", std::to_string(rows.size())},
                       {"total-data-files", "2"},
                       {"total-records", std::to_string(rows.size())}};
  if (format_version >= 3) {
    snapshot->first_row_id = 0;
    snapshot->added_rows = static_cast<int64_t>(rows.size());
  }
  TableMetadataBuilder builder(format_version);
  builder.SetTableUuid("9c12d441-03fe-4693-9a96-a0705ddf69c1")
      .SetLocation(dir)
      .SetLastSequenceNumber(sequence_number)
      .SetLastUpdatedMs(snapshot->timestamp_ms)
      .SetLastColumnId(schema->highest_field_id())
      .AddSchema(schema)
      .SetCurrentSchemaId(schema->schema_id())
      .AddPartitionSpec(spec)
      .SetDefaultSpecId(spec->spec_id())
      .SetLastPartitionId(1000)
      .AddSortOrder(SortOrder::Unsorted())
      .SetDefaultSortOrderId(SortOrder::kUnsortedOrderId)
      .AddSnapshot(snapshot)
      .SetCurrentSnapshotId(snapshot_id)
      .SetRef(std::string(SnapshotRef::kMainBranch), SnapshotRef{.snapshot_id = snapshot_id})
      .AddSnapshotLogEntry({.timestamp_ms = snapshot->timestamp_ms, .snapshot_id = snapshot_id});
  if (format_version >= 3) builder.SetNextRowId(static_cast<int64_t>(rows.size()));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, builder.Build());
  FLOE_RETURN_IF_ERROR(WriteTableMetadata(fio, dir + "/metadata/v1.metadata.json", *metadata));
  FLOE_ASSIGN_OR_RETURN(auto hint, fio.NewOutputFile(dir + "/metadata/version-hint.text"));
  FLOE_ASSIGN_OR_RETURN(auto hint_file, hint->Create());
  FLOE_RETURN_IF_ERROR(hint_file->Write(std::as_bytes(std::span(std::string_view("1")))));
  FLOE_RETURN_IF_ERROR(hint_file->Close());
  return w;
}

Result<std::vector<Json>> JsonLines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(Json j, Json::Parse(line));
    out.push_back(std::move(j));
  }
  return out;
}

// A JSON number or numeric string as int64 (engines differ in quoting 64-bit integers).
int64_t AsInt(const Json& j) { return j.is_string() ? std::stoll(j.as_string()) : j.as_int(); }

class PeerTableTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    dir_ = (tmp_.path() / fmt::format("table_v{}", GetParam())).string();
    auto written = WriteTable(dir_, GetParam());
    ASSERT_TRUE(written.has_value()) << written.error().ToString();
    written_ = *written;
  }
  testing::TempDir tmp_;
  std::string dir_;
  Written written_;
};

TEST_P(PeerTableTest, ClickHouseReadsTheRows) {
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::string out,
      testing::RunPeer("ch", {fmt::format("SELECT id, category, price, toInt32(day) AS day FROM "
                                          "icebergLocal('{}') ORDER BY id",
                                          dir_)}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto lines, JsonLines(out));
  std::vector<Row> rows = TableRows();
  ASSERT_EQ(lines.size(), rows.size()) << out;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(AsInt(*lines[i].Find("id")), rows[i].id);
    EXPECT_EQ(lines[i].Find("category")->as_string(), rows[i].category);
    const Json& price = *lines[i].Find("price");
    if (rows[i].price) {
      EXPECT_EQ(price.as_double(), *rows[i].price) << lines[i].Dump();
    } else {
      EXPECT_TRUE(price.is_null()) << lines[i].Dump();
    }
    const Json& day = *lines[i].Find("day");
    if (rows[i].day) {
      EXPECT_EQ(AsInt(day), *rows[i].day) << lines[i].Dump();
    } else {
      EXPECT_TRUE(day.is_null()) << lines[i].Dump();
    }
  }
  // Partition pruning goes through the manifest's partition values and the list's summaries.
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::string games,
      testing::RunPeer("ch", {fmt::format("SELECT count() AS n FROM icebergLocal('{}') WHERE "
                                          "category = 'games'",
                                          dir_)}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto counted, JsonLines(games));
  ASSERT_EQ(counted.size(), 1u);
  EXPECT_EQ(AsInt(*counted[0].Find("n")), 4);
}

TEST_P(PeerTableTest, ClickHouseReadsTheManifestEntries) {
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::string out,
      testing::RunPeer("ch",
                       {fmt::format("SELECT status, snapshot_id, data_file.file_path AS path, "
                                    "data_file.partition.category AS category, "
                                    "data_file.record_count AS records, "
                                    "data_file.file_size_in_bytes AS size FROM file('{}', 'Avro') "
                                    "ORDER BY path",
                                    written_.manifest)}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto entries, JsonLines(out));
  ASSERT_EQ(entries.size(), 2u) << out;
  EXPECT_EQ(AsInt(*entries[0].Find("status")), 1);
  EXPECT_EQ(AsInt(*entries[0].Find("snapshot_id")), 3051729675574597004);
  EXPECT_EQ(entries[0].Find("path")->as_string(), dir_ + "/data/category=books/00000-0-a.parquet");
  EXPECT_EQ(entries[0].Find("category")->as_string(), "books");
  EXPECT_EQ(AsInt(*entries[0].Find("records")), 5);
  EXPECT_EQ(AsInt(*entries[0].Find("size")),
            static_cast<int64_t>(std::filesystem::file_size(entries[0].Find("path")->as_string())));
  EXPECT_EQ(entries[1].Find("category")->as_string(), "games");
  EXPECT_EQ(AsInt(*entries[1].Find("records")), 4);

  FLOE_ASSERT_OK_AND_ASSIGN(
      std::string list_out,
      testing::RunPeer("ch", {fmt::format("SELECT manifest_path, added_snapshot_id, "
                                          "added_files_count, added_rows_count FROM file('{}', "
                                          "'Avro')",
                                          written_.manifest_list)}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto manifests, JsonLines(list_out));
  ASSERT_EQ(manifests.size(), 1u) << list_out;
  EXPECT_EQ(manifests[0].Find("manifest_path")->as_string(), written_.manifest);
  EXPECT_EQ(AsInt(*manifests[0].Find("added_snapshot_id")), 3051729675574597004);
  EXPECT_EQ(AsInt(*manifests[0].Find("added_files_count")), 2);
  EXPECT_EQ(AsInt(*manifests[0].Find("added_rows_count")), 9);
}

TEST_P(PeerTableTest, IcebirdReadsTheRows) {
  if (!testing::PeerInstalled("icebird")) GTEST_SKIP() << "icebird peer not installed";
  FLOE_ASSERT_OK_AND_ASSIGN(std::string out, testing::RunPeer("icebird-read", {dir_}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto lines, JsonLines(out));
  std::vector<Row> rows = TableRows();
  ASSERT_EQ(lines.size(), rows.size()) << out;
  std::sort(lines.begin(), lines.end(), [](const Json& a, const Json& b) {
    return AsInt(*a.Find("id")) < AsInt(*b.Find("id"));
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(AsInt(*lines[i].Find("id")), rows[i].id) << lines[i].Dump();
    EXPECT_EQ(lines[i].Find("category")->as_string(), rows[i].category);
    const Json& price = *lines[i].Find("price");
    if (rows[i].price) {
      EXPECT_EQ(price.as_double(), *rows[i].price) << lines[i].Dump();
    } else {
      EXPECT_TRUE(price.is_null()) << lines[i].Dump();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FormatVersions, PeerTableTest, ::testing::Values(1, 2, 3),
                         [](const auto& info) { return fmt::format("v{}", info.param); });

}  // namespace
}  // namespace floe::manifest
