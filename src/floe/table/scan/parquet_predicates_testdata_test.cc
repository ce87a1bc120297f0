// Filter push-down on the Iceberg tables other engines wrote (Spark, PyIceberg, Impala, DuckDB
// under ../shared/testdata, see its MANIFEST.txt): for each top-level primitive column, the
// bounds the writer recorded for its data files are the literals (so that a row group's min or
// max equals the literal), and each comparison and null test scans to exactly the rows of the
// same scan without push-down, which reads every row and filters afterwards. Tables of many rows
// check an even sample of these filters.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "floe/batch/value.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/table/scan/location_mapping.h"
#include "floe/table/scan/name_mapping.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

namespace fs = std::filesystem;
using floe::testing::TestDataDir;

struct Table {
  TableMetadataPtr metadata;
  std::shared_ptr<io::FileIO> io;
  LocationMapping mapping;
  TaskReadOptions options;
};

Result<Table> Load(const fs::path& dir) {
  auto base = std::make_shared<io::LocalFileIO>();
  Table t;
  FLOE_ASSIGN_OR_RETURN(std::string location, FindCurrentMetadataLocation(*base, dir.string()));
  FLOE_ASSIGN_OR_RETURN(t.metadata, ReadTableMetadata(*base, location));
  t.mapping = LocationMapping::ForTable(*t.metadata, dir.string());
  t.io = t.mapping.empty() ? std::shared_ptr<io::FileIO>(base) : MapLocations(base, t.mapping);
  if (auto it = t.metadata->properties().find("schema.name-mapping.default");
      it != t.metadata->properties().end()) {
    FLOE_ASSIGN_OR_RETURN(t.options.name_mapping, ParseNameMapping(it->second));
  }
  return t;
}

struct Rows {
  std::vector<std::string> rows;
  ScanSkipMetrics skipped;
};

Result<Rows> Read(const Table& t, const expr::ExprPtr& filter, bool push_down) {
  TableScan scan(t.metadata, t.io);
  scan.WithLocationMapping(t.mapping);
  if (filter) scan.Filter(filter);
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, scan.schema());
  FLOE_ASSIGN_OR_RETURN(auto tasks, scan.PlanTasks());
  TaskReadOptions options = t.options;
  options.push_down_filter = push_down;
  // Small batches, so that a skipped page is visible even in small files.
  options.batch_rows = 64;
  TaskReader reader(t.io, schema, schema, options);
  Rows out;
  for (const auto& group : tasks) {
    FLOE_RETURN_IF_ERROR(reader.Read(group, [&](RecordBatch batch) -> Status {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        out.rows.push_back(RowView(batch, i).ToJson());
      }
      return Ok();
    }));
  }
  std::sort(out.rows.begin(), out.rows.end());
  out.skipped = reader.skip_metrics();
  return out;
}

// Up to two lower and two upper bounds per top-level primitive column, from the data files.
std::vector<std::pair<const NestedField*, Literal>> BoundLiterals(
    const Schema& schema, const std::vector<FileScanTask>& tasks) {
  std::vector<std::pair<const NestedField*, Literal>> out;
  for (const NestedField& field : schema.fields()) {
    if (!field.type->is_primitive()) continue;
    std::vector<Literal> found;
    for (const FileScanTask& task : tasks) {
      for (const auto* bounds : {&task.data_file->lower_bounds, &task.data_file->upper_bounds}) {
        const std::string* bytes = manifest::Find(*bounds, field.id);
        if (bytes == nullptr) continue;
        auto literal = Literal::FromBinary(field.type, *bytes);
        if (!literal || literal->is_null()) continue;
        if (std::find(found.begin(), found.end(), *literal) == found.end()) {
          found.push_back(*literal);
        }
      }
      if (found.size() >= 4) break;
    }
    for (Literal& literal : found) out.emplace_back(&field, std::move(literal));
  }
  return out;
}

TEST(ParquetPredicatesTestdata, PushDownMatchesFilteringAfterwardsOnOtherEnginesTables) {
  const auto tables = floe::testing::TestDataTables();
  ASSERT_GT(tables.size(), 50u);
  int tables_checked = 0;
  int64_t filters_checked = 0, scans_skipping = 0;
  std::vector<std::string> not_read;
  for (const std::string& relative : tables) {
    SCOPED_TRACE(relative);
    auto table = Load(TestDataDir() / relative);
    if (!table) {
      not_read.push_back(relative + ": " + table.error().message().substr(0, 120));
      continue;
    }
    // Tables floe cannot read whole (ORC or Avro data, files outside the mapped location) are
    // the business of the scan tests, not of push-down.
    auto all = Read(*table, nullptr, true);
    if (!all) {
      not_read.push_back(relative + ": " + all.error().message().substr(0, 120));
      continue;
    }
    TableScan stats_scan(table->metadata, table->io);
    stats_scan.WithLocationMapping(table->mapping).IncludeColumnStats();
    auto schema = stats_scan.schema();
    auto tasks = stats_scan.PlanFiles();
    ASSERT_TRUE(schema && tasks);
    ++tables_checked;
    std::vector<expr::ExprPtr> filters;
    for (const NestedField& field : (*schema)->fields()) {
      if (!field.type->is_primitive()) continue;
      filters.push_back(expr::BoundPredicate(expr::Op::kIsNull, field.name, field.id, field.type));
      filters.push_back(expr::BoundPredicate(expr::Op::kNotNull, field.name, field.id, field.type));
    }
    for (const auto& [field, literal] : BoundLiterals(**schema, *tasks)) {
      for (expr::Op op :
           {expr::Op::kLt, expr::Op::kLtEq, expr::Op::kGt, expr::Op::kGtEq, expr::Op::kEq}) {
        filters.push_back(expr::BoundPredicate(op, field->name, field->id, field->type, {literal}));
      }
    }
    // Big tables (lineitem) get an even sample of the filters, so that the test stays short.
    int64_t records = 0;
    for (const FileScanTask& task : *tasks) records += task.data_file->record_count;
    const size_t budget =
        static_cast<size_t>(std::max<int64_t>(10, 400000 / std::max<int64_t>(1, records)));
    const size_t stride = (filters.size() + budget - 1) / budget;
    for (size_t k = 0; k < filters.size(); k += stride) {
      const expr::ExprPtr& filter = filters[k];
      SCOPED_TRACE(filter->ToString());
      auto with = Read(*table, filter, true);
      auto without = Read(*table, filter, false);
      ASSERT_TRUE(with) << with.error().ToString();
      ASSERT_TRUE(without) << without.error().ToString();
      EXPECT_EQ(with->rows, without->rows);
      ++filters_checked;
      scans_skipping +=
          with->skipped.row_groups_skipped + with->skipped.rows_skipped_by_page_index > 0;
    }
  }
  std::printf("%d tables, %lld filters checked; push-down skipped row groups or pages in %lld\n",
              tables_checked, static_cast<long long>(filters_checked),
              static_cast<long long>(scans_skipping));
  std::printf("not read (%zu):\n", not_read.size());
  for (const std::string& s : not_read) std::printf("  %s\n", s.c_str());
  EXPECT_GE(tables_checked, 50);
  EXPECT_GT(scans_skipping, 0);
}

}  // namespace
}  // namespace floe::table
