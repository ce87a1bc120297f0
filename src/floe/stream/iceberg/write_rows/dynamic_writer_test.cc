// DynamicWriter driven by hand with a DynamicCommitter: Beam's keep / drop / only field filters,
// drop_unused_columns, and the buffer limits (rows, bytes, input batches). Tables
// are read back by floe's scan and, for the filters, by ClickHouse (icebergLocal), an engine
// independent of floe.

#include "floe/stream/iceberg/write_rows/dynamic_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "floe/batch/make_batch.h"
#include "floe/stream/iceberg/write_rows/dynamic_committer.h"
#include "floe/stream/iceberg/write_rows/dynamic_selector.h"
#include "floe/stream/metrics.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using floe::testing::PeerInstalled;
using floe::testing::RunPeer;

RecordBatch MakeBatch(std::vector<Field> fields, const std::vector<std::vector<Value>>& columns) {
  return floe::MakeBatch(std::make_shared<const BatchSchema>(std::move(fields)), columns).value();
}

class DynamicWriterTest : public ::testing::Test {
 protected:
  int64_t BufferFlushes() const { return metrics_.Get("writer.0.bufferFlushes"); }
  MetricGroup metrics_;
  StringMap CatalogProperties() const {
    return {{"catalog-type", "hadoop"}, {"warehouse", (dir_.path() / "wh").string()}};
  }
  std::shared_ptr<table::Table> Load(const std::string& name) const {
    auto catalog = catalog::CreateCatalog("lake", CatalogProperties()).value();
    return table::Table::Load(catalog, catalog::TableIdentifier::Parse(name).value()).value();
  }
  WriteRowsSpec Spec(const std::string& pattern) const {
    WriteRowsSpec spec;
    spec.catalog_name = "lake";
    spec.catalog_properties = CatalogProperties();
    spec.destinations = DynamicDestinations::Template(pattern).value();
    spec.sink_id = "writer-test";
    return spec;
  }

  // Writes the batches through a writer and a committer, and commits them at one checkpoint.
  Status Write(const WriteRowsSpec& spec, const std::vector<RecordBatch>& batches) {
    OperatorContext context{.job_name = "hand", .operator_name = "writer", .metrics = &metrics_};
    testing::OperatorHarness writer(std::make_unique<DynamicWriter>(spec), context);
    context.operator_name = "committer";
    testing::OperatorHarness committer(std::make_unique<DynamicCommitter>(spec), context);
    FLOE_RETURN_IF_ERROR(writer.Open());
    FLOE_RETURN_IF_ERROR(committer.Open());
    for (const RecordBatch& batch : batches) FLOE_RETURN_IF_ERROR(writer.ProcessBatch(batch));
    FLOE_RETURN_IF_ERROR(writer.SnapshotState(1));
    for (Message& message : writer.output().TakeMessages()) {
      FLOE_RETURN_IF_ERROR(committer.ProcessMessage(std::move(message)));
    }
    FLOE_RETURN_IF_ERROR(committer.SnapshotState(1));
    return committer.NotifyCheckpointComplete(1);
  }

  // The table's columns, in schema order.
  std::vector<std::string> Columns(const std::string& name) const {
    const TableMetadataPtr metadata = Load(name)->metadata();
    std::vector<std::string> columns;
    for (const NestedField& field : metadata->current_schema()->fields()) {
      columns.push_back(field.name);
    }
    return columns;
  }

  // Every row of the table as floe's scan reads it, as JSON values joined by '|', sorted unless
  // asked for in the order read (files in planning order, rows in file order).
  std::vector<std::string> ScanRows(const std::string& name, bool sorted = true) const {
    auto table = Load(name);
    table::TableScan scan(table->metadata(), table->io());
    auto tasks = scan.PlanTasks();
    EXPECT_TRUE(tasks.has_value()) << tasks.error().ToString();
    std::vector<std::string> rows;
    if (!tasks) return rows;
    table::TaskReader reader(table->io(), scan.schema().value(), scan.ProjectedSchema().value());
    for (const auto& group : *tasks) {
      auto read = reader.Read(group, [&](RecordBatch batch) -> Status {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          std::string row;
          for (int c = 0; c < batch.num_columns(); ++c) {
            if (c > 0) row += "|";
            AppendJson(batch.column(c), i, row);
          }
          rows.push_back(std::move(row));
        }
        return Ok();
      });
      EXPECT_TRUE(read.has_value()) << read.error().ToString();
    }
    if (sorted) std::sort(rows.begin(), rows.end());
    return rows;
  }

  // The table's rows as ClickHouse reads them (TSV, ordered by the first column).
  std::string ClickHouseRows(const std::string& name, const std::string& columns) const {
    auto out = RunPeer("ch", {"SELECT " + columns + " FROM icebergLocal('" +
                                  Load(name)->metadata()->location() + "') ORDER BY 1",
                              "TSV"});
    EXPECT_TRUE(out.has_value()) << (out ? "" : out.error().message());
    return out ? *out : "";
  }

  floe::testing::TempDir dir_;
};

// id long, t string (the destination), a int, b string, rec struct<x int, y string>.
RecordBatch FilterRows() {
  auto rec =
      DataType::Struct({Field{"x", DataType::Int32(), true}, Field{"y", DataType::String(), true}});
  return MakeBatch(
      {Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false},
       Field{"a", DataType::Int32(), true}, Field{"b", DataType::String(), true},
       Field{"rec", rec, true}},
      {{int64_t{1}, int64_t{2}},
       {"w", "w"},
       {10, 20},
       {"b1", "b2"},
       {StructValue{{{"x", 100}, {"y", "y1"}}}, StructValue{{{"x", 200}, {"y", "y2"}}}}});
}

// Keep writes only the named fields (in that order), drop all but the named ones, only the members
// of a struct field; the destination still comes from the whole row (t is not written by keep).
TEST_F(DynamicWriterTest, KeepDropAndOnlyWriteTheChosenFields) {
  WriteRowsSpec keep = Spec("keep.{t}");
  keep.filter.keep = {"a", "id"};
  FLOE_ASSERT_OK(Write(keep, {FilterRows()}));
  EXPECT_EQ(Columns("keep.w"), (std::vector<std::string>{"a", "id"}));
  EXPECT_EQ(ScanRows("keep.w"), (std::vector<std::string>{"10|1", "20|2"}));

  WriteRowsSpec drop = Spec("drop.{t}");
  drop.filter.drop = {"b", "rec"};
  FLOE_ASSERT_OK(Write(drop, {FilterRows()}));
  EXPECT_EQ(Columns("drop.w"), (std::vector<std::string>{"id", "t", "a"}));
  EXPECT_EQ(ScanRows("drop.w"), (std::vector<std::string>{"1|\"w\"|10", "2|\"w\"|20"}));

  WriteRowsSpec only = Spec("only.{t}");
  only.filter.only = "rec";
  FLOE_ASSERT_OK(Write(only, {FilterRows()}));
  EXPECT_EQ(Columns("only.w"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(ScanRows("only.w"), (std::vector<std::string>{"100|\"y1\"", "200|\"y2\""}));

  if (PeerInstalled("chdb")) {
    EXPECT_EQ(ClickHouseRows("keep.w", "id, a"), "1\t10\n2\t20\n");
    EXPECT_EQ(ClickHouseRows("drop.w", "id, t, a"), "1\tw\t10\n2\tw\t20\n");
    EXPECT_EQ(ClickHouseRows("only.w", "x, y"), "100\ty1\n200\ty2\n");
  }

  // A filter naming a field the rows lack fails the write, naming the field.
  WriteRowsSpec missing = Spec("missing.{t}");
  missing.filter.keep = {"id", "nope"};
  Status failed = Write(missing, {FilterRows()});
  ASSERT_FALSE(failed.has_value());
  EXPECT_NE(failed.error().message().find("'nope'"), std::string::npos) << failed.error().message();
  missing.filter = FieldFilter{.only = "a"};
  failed = Write(missing, {FilterRows()});
  ASSERT_FALSE(failed.has_value());
  EXPECT_NE(failed.error().message().find("not a struct"), std::string::npos);
}

// A table column the rows no longer carry is dropped with drop_unused_columns, and kept (written
// as null) without it.
TEST_F(DynamicWriterTest, DropUnusedColumnsOnlyWhenAsked) {
  const Field id{"id", DataType::Int64(), false};
  const Field t{"t", DataType::String(), false};
  const Field b{"b", DataType::String(), true};
  const RecordBatch first = MakeBatch({id, t, b}, {{int64_t{1}}, {"w"}, {"old"}});
  const RecordBatch second = MakeBatch({id, t}, {{int64_t{2}}, {"w"}});

  FLOE_ASSERT_OK(Write(Spec("kept.{t}"), {first}));
  FLOE_ASSERT_OK(Write(Spec("kept.{t}"), {second}));
  EXPECT_EQ(Columns("kept.w"), (std::vector<std::string>{"id", "t", "b"}));
  EXPECT_EQ(ScanRows("kept.w"), (std::vector<std::string>{"1|\"w\"|\"old\"", "2|\"w\"|null"}));

  WriteRowsSpec dropping = Spec("dropped.{t}");
  FLOE_ASSERT_OK(Write(dropping, {first}));
  dropping.tables.drop_unused_columns = true;
  FLOE_ASSERT_OK(Write(dropping, {second}));
  EXPECT_EQ(Columns("dropped.w"), (std::vector<std::string>{"id", "t"}));
  EXPECT_EQ(ScanRows("dropped.w"), (std::vector<std::string>{"1|\"w\"", "2|\"w\""}));

  if (PeerInstalled("chdb")) {
    EXPECT_EQ(ClickHouseRows("kept.w", "id, b"), "1\told\n2\t\\N\n");
    EXPECT_EQ(ClickHouseRows("dropped.w", "*"), "1\tw\n2\tw\n");
  }
}

// The buffer limits, seen in the writer's bufferFlushes metric; every row is written once.
class BufferLimitsTest : public DynamicWriterTest {
 protected:
  // `count` rows with ids from `first`, all to table `t`, with strings of `width` bytes.
  static RecordBatch Rows(int64_t first, int64_t count, const std::string& t, size_t width = 1) {
    std::vector<Value> ids, ts, strings;
    for (int64_t i = first; i < first + count; ++i) {
      ids.emplace_back(i);
      ts.emplace_back(t);
      strings.emplace_back(std::string(width, static_cast<char>('a' + i % 26)));
    }
    return MakeBatch({Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false},
                      Field{"s", DataType::String(), false}},
                     {ids, ts, strings});
  }
  std::vector<std::string> Ids(int64_t count) const {
    std::vector<std::string> ids;
    for (int64_t i = 0; i < count; ++i) ids.push_back(std::to_string(i));
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  std::vector<std::string> ScanIds(const std::string& name) const {
    std::vector<std::string> ids;
    for (const std::string& row : ScanRows(name)) ids.push_back(row.substr(0, row.find('|')));
    std::sort(ids.begin(), ids.end());
    return ids;
  }
};

TEST_F(BufferLimitsTest, RowsLimitFlushesFullBuffers) {
  constexpr int64_t kBatch = DynamicWriter::kBufferRows / 4;
  std::vector<RecordBatch> batches;
  for (int64_t b = 0; b < 10; ++b) batches.push_back(Rows(b * kBatch, kBatch, "a"));
  FLOE_ASSERT_OK(Write(Spec("db.{t}"), batches));
  // Two full buffers, and what the checkpoint found buffered.
  EXPECT_EQ(BufferFlushes(), 3);
  EXPECT_EQ(ScanIds("db.a"), Ids(10 * kBatch));
}

TEST_F(BufferLimitsTest, BytesLimitFlushesLargeRowsEarly) {
  constexpr int64_t kBatch = 10;
  const size_t width = static_cast<size_t>(DynamicWriter::kBufferBytes / 32);
  const int64_t batch_bytes = DynamicChannelSelector::BatchBytes(Rows(0, kBatch, "a", width));
  // The input batches it takes to reach the byte limit (far fewer rows than the rows limit).
  const int64_t per_flush = (DynamicWriter::kBufferBytes + batch_bytes - 1) / batch_bytes;
  ASSERT_LT(per_flush * kBatch, DynamicWriter::kBufferRows);
  std::vector<RecordBatch> batches;
  for (int64_t b = 0; b < 2 * per_flush + 1; ++b) {
    batches.push_back(Rows(b * kBatch, kBatch, "a", width));
  }
  FLOE_ASSERT_OK(Write(Spec("db.{t}"), batches));
  EXPECT_EQ(BufferFlushes(), 3);
  EXPECT_EQ(ScanIds("db.a").size(), static_cast<size_t>((2 * per_flush + 1) * kBatch));
}

// A destination that gets a row or two per input batch is handed over once its oldest buffered
// rows are kBufferBatches input batches old, far below the rows and bytes limits.
TEST_F(BufferLimitsTest, AgeLimitFlushesSlowDestinations) {
  constexpr int64_t kPerFlush = DynamicWriter::kBufferBatches + 1;
  std::vector<RecordBatch> batches;
  for (int64_t b = 0; b < 2 * kPerFlush + 3; ++b) {
    std::vector<Value> ids{2 * b, 2 * b + 1}, ts{"a", "b"}, strings{"x", "y"};
    batches.push_back(
        MakeBatch({Field{"id", DataType::Int64(), false}, Field{"t", DataType::String(), false},
                   Field{"s", DataType::String(), false}},
                  {ids, ts, strings}));
  }
  FLOE_ASSERT_OK(Write(Spec("db.{t}"), batches));
  // Each table: two buffers flushed by age, and what the checkpoint found buffered.
  EXPECT_EQ(BufferFlushes(), 6);
  for (const std::string name : {"db.a", "db.b"}) {
    EXPECT_EQ(ScanIds(name).size(), static_cast<size_t>(2 * kPerFlush + 3)) << name;
  }
}

// At the age limit every destination's rows go at once, dealt out from the buffered batches:
// each table gets its rows in arrival order, also when the buffered batches have two column sets
// (a column added half way: table a only had rows before, table b only after, table c both).
TEST_F(BufferLimitsTest, AgeLimitDealsEveryTableItsRowsInArrivalOrder) {
  constexpr int64_t kBatches = DynamicWriter::kBufferBatches + 20, kChanged = 30;
  std::vector<RecordBatch> batches;
  std::map<std::string, std::vector<int64_t>> expected;
  int64_t id = 0;
  for (int64_t b = 0; b < kBatches; ++b) {
    const bool changed = b >= kChanged;
    std::vector<Value> ids, ts, strings, extras;
    for (int64_t k = 0; k < 3 + b % 4; ++k) {
      const std::string table = (k + b) % 2 == 0 ? "c" : (changed ? "b" : "a");
      expected[table].push_back(id);
      ids.emplace_back(id++);
      ts.emplace_back(table);
      strings.emplace_back("s");
      extras.emplace_back(int32_t{7});
    }
    const Field id_field{"id", DataType::Int64(), false}, t_field{"t", DataType::String(), false},
        s_field{"s", DataType::String(), false}, extra_field{"extra", DataType::Int32(), true};
    batches.push_back(
        changed ? MakeBatch({id_field, t_field, s_field, extra_field}, {ids, ts, strings, extras})
                : MakeBatch({id_field, t_field, s_field}, {ids, ts, strings}));
  }
  FLOE_ASSERT_OK(Write(Spec("db.{t}"), batches));
  for (const auto& [table, ids] : expected) {
    std::vector<int64_t> read;
    for (const std::string& row : ScanRows("db." + table, /*sorted=*/false)) {
      read.push_back(std::stoll(row.substr(0, row.find('|'))));
    }
    EXPECT_EQ(read, ids) << table;
  }
  EXPECT_EQ(Columns("db.b"), (std::vector<std::string>{"id", "t", "s", "extra"}));
}

}  // namespace
}  // namespace floe::stream
