// SELECT over Iceberg tables, checked against ClickHouse reading the same table (icebergLocal):
// the table is written with the table layer's writers, so neither side of the comparison depends
// on floe's SQL. Also: a streaming SELECT picks up a snapshot committed after it started, and
// Cancel ends it.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/spec/schema.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/insert_columns_internal.h"
#include "floe/sql/statements/jobs.h"
#include "floe/stream/metrics.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/table_write_setup.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = (tmp_.path() / "wh").string();
    FLOE_ASSERT_OK(session_.Open());
    Exec(
        fmt::format("CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop', "
                    "'warehouse'='{}')",
                    warehouse_));
    Exec("USE CATALOG lake");
    Exec("CREATE DATABASE db");
    Exec("USE db");
    CreateTable("t", {types::Optional(1, "id", types::Long()),
                      types::Optional(2, "category", types::String()),
                      types::Optional(3, "amount", types::Long())});
    CreateTable("c", {types::Optional(1, "category", types::String()),
                      types::Optional(2, "label", types::String())});
    Exec("SET 'execution.runtime-mode' = 'batch'");
  }

  void Exec(const std::string& sql) {
    auto result = session_.ExecuteSql(sql);
    ASSERT_TRUE(result.has_value()) << sql << ": " << result.error().ToString();
  }

  // Through the catalog, not CREATE TABLE: the tables do not depend on floe's DDL.
  void CreateTable(const std::string& name, std::vector<NestedField> fields) {
    FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName resolved, session_.ResolveTable({{"db", name}}));
    FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, session_.IcebergCatalog(resolved));
    FLOE_ASSERT_OK(catalog->CreateTable(
        resolved.ident(),
        catalog::CreateTableRequest{.schema = std::make_shared<Schema>(std::move(fields))}));
  }

  std::string TableDir(const std::string& name) const { return warehouse_ + "/db/" + name; }

  // Commits one data file of these rows with the table layer's writer (not SQL).
  void Append(const std::string& name, const std::vector<std::vector<Value>>& rows) {
    FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName resolved, session_.ResolveTable({{"db", name}}));
    FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, session_.IcebergCatalog(resolved));
    FLOE_ASSERT_OK_AND_ASSIGN(auto table, table::Table::Load(catalog, resolved.ident()));
    FLOE_ASSERT_OK_AND_ASSIGN(auto setup,
                              table::TableWriteSetup::Make(*table->metadata(), table->io().get()));
    const BatchSchemaPtr& schema = setup->batch_schema();
    std::vector<Array> columns;
    for (int c = 0; c < schema->num_fields(); ++c) {
      std::vector<Value> values;
      for (const auto& row : rows) values.push_back(row[c]);
      FLOE_ASSERT_OK_AND_ASSIGN(Array column, MakeArray(schema->field(c).type, values));
      columns.push_back(std::move(column));
    }
    FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, std::move(columns)));
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto writer, table::FanoutWriter::Make(setup->Context(table->metadata()->default_spec())));
    FLOE_ASSERT_OK(writer->Write(batch));
    FLOE_ASSERT_OK_AND_ASSIGN(table::WriteResult written, writer->Close());
    auto append = table->NewFastAppend();
    for (auto& file : written.data_files) append->AppendFile(std::move(file));
    FLOE_ASSERT_OK(append->Commit());
  }

  void WriteSample() {
    Append("t", {{int64_t{1}, "a", int64_t{10}},
                 {int64_t{2}, "b", int64_t{20}},
                 {int64_t{3}, "a", int64_t{30}},
                 {int64_t{4}, "c", int64_t{40}}});
    Append("t", {{int64_t{5}, "b", int64_t{50}}, {int64_t{6}, "a", int64_t{60}}});
    Append("c", {{"a", "alpha"}, {"b", "beta"}, {"d", "delta"}});
  }

  // The rows floe returns, each as its cells joined by " | ".
  std::vector<std::string> Floe(const std::string& sql) {
    auto result = session_.ExecuteSql(sql);
    EXPECT_TRUE(result.has_value()) << sql << ": " << result.error().ToString();
    if (!result.has_value()) return {};
    std::vector<std::string> rows;
    while (true) {
      auto next = result->rows->Next();
      EXPECT_TRUE(next.has_value()) << sql << ": " << next.error().ToString();
      if (!next.has_value() || !next->has_value()) break;
      const RecordBatch& batch = **next;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        std::string row;
        for (int c = 0; c < batch.num_columns(); ++c) {
          if (c > 0) row += " | ";
          row += FormatCell(batch.column(c), r);
        }
        rows.push_back(std::move(row));
      }
    }
    return rows;
  }

  // The rows ClickHouse returns for `sql` with {t} and {c} standing for the tables, the columns
  // named by `columns` in order.
  std::vector<std::string> ClickHouse(const std::string& sql,
                                      const std::vector<std::string>& columns) {
    std::string query = sql;
    auto replace = [&](const std::string& from, const std::string& to) {
      for (size_t at = query.find(from); at != std::string::npos; at = query.find(from)) {
        query.replace(at, from.size(), to);
      }
    };
    replace("{t}", fmt::format("icebergLocal('{}')", TableDir("t")));
    replace("{c}", fmt::format("icebergLocal('{}')", TableDir("c")));
    auto out = testing::RunPeer("ch", {query});
    EXPECT_TRUE(out.has_value()) << query << ": " << out.error().ToString();
    if (!out.has_value()) return {};
    std::vector<std::string> rows;
    std::istringstream lines(*out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      auto json = Json::Parse(line);
      EXPECT_TRUE(json.has_value()) << line;
      if (!json.has_value()) continue;
      std::string row;
      for (size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) row += " | ";
        const Json* cell = json->Find(columns[c]);
        if (cell == nullptr || cell->is_null()) {
          row += kNullText;
        } else {
          row += cell->is_string() ? cell->as_string() : cell->Dump();
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  static std::vector<std::string> Sorted(std::vector<std::string> rows) {
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  testing::TempDir tmp_;
  std::string warehouse_;
  Session session_{SessionOptions{.embedded_warehouse = (tmp_.path() / "embedded").string()}};
};

// Data files under a table's data folder, counted on disk.
int64_t DataFilesOnDisk(const std::string& table_dir) {
  int64_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(table_dir + "/data")) {
    if (entry.is_regular_file() && entry.path().extension() == ".parquet") ++files;
  }
  return files;
}

// The counters of the client's progress line: a query's rows and the data files its scan opened;
// an INSERT's rows and the files its sink started.
TEST_F(QueryTest, ProgressCountsRowsAndFiles) {
  WriteSample();
  auto result = session_.ExecuteSql("SELECT id FROM t");
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  int64_t rows = 0;
  while (true) {
    auto next = result->rows->Next();
    ASSERT_TRUE(next.has_value()) << next.error().ToString();
    if (!next->has_value()) break;
    rows += (*next)->num_rows();
  }
  const JobProgress read = result->rows->Progress();
  EXPECT_EQ(read.rows, rows);
  EXPECT_EQ(read.files_read, DataFilesOnDisk(TableDir("t")));
  EXPECT_EQ(read.files_read, 2);
  EXPECT_EQ(read.files_written, 0);

  Exec("CREATE TABLE copy (id BIGINT, category STRING)");
  Exec("INSERT INTO copy SELECT id, category FROM t");
  std::vector<JobStatus> jobs = session_.jobs().List();
  ASSERT_FALSE(jobs.empty());
  ASSERT_TRUE(jobs.back().result.has_value());
  stream::MetricGroup metrics;
  for (const auto& [name, value] : jobs.back().result->metrics) metrics.Set(name, value);
  EXPECT_EQ(metrics.Sum(kInsertedRowsMetric), rows);
  EXPECT_EQ(metrics.Sum(stream::kFilesReadMetric), 2);
  EXPECT_EQ(metrics.Sum(stream::kFilesWrittenMetric), DataFilesOnDisk(TableDir("copy")));
  // Nothing runs any more: no progress to show.
  EXPECT_FALSE(session_.jobs().RunningProgress(0).has_value());
}

TEST_F(QueryTest, ScanFilterAndAggregateMatchClickHouse) {
  WriteSample();
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  EXPECT_EQ(
      Sorted(Floe("SELECT * FROM t")),
      Sorted(ClickHouse("SELECT id, category, amount FROM {t}", {"id", "category", "amount"})));
  EXPECT_EQ(Sorted(Floe("SELECT id, amount FROM t WHERE category = 'a' AND amount > 10")),
            Sorted(ClickHouse("SELECT id, amount FROM {t} WHERE category = 'a' AND amount > 10",
                              {"id", "amount"})));
  EXPECT_EQ(
      Sorted(Floe("SELECT category, COUNT(*), SUM(amount), MIN(id), MAX(id) FROM t GROUP BY "
                  "category")),
      Sorted(ClickHouse("SELECT category, count() AS n, sum(amount) AS s, min(id) AS lo, max(id) "
                        "AS hi FROM {t} GROUP BY category",
                        {"category", "n", "s", "lo", "hi"})));
  EXPECT_EQ(Sorted(Floe("SELECT category FROM t GROUP BY category HAVING SUM(amount) > 50")),
            Sorted(ClickHouse("SELECT category FROM {t} GROUP BY category HAVING sum(amount) > 50",
                              {"category"})));
  EXPECT_EQ(Sorted(Floe("SELECT DISTINCT category FROM t")),
            Sorted(ClickHouse("SELECT DISTINCT category FROM {t}", {"category"})));
}

TEST_F(QueryTest, OrderByLimitMatchesClickHouse) {
  WriteSample();
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  EXPECT_EQ(
      Floe("SELECT id, amount FROM t ORDER BY amount DESC LIMIT 3"),
      ClickHouse("SELECT id, amount FROM {t} ORDER BY amount DESC LIMIT 3", {"id", "amount"}));
  EXPECT_EQ(Floe("SELECT category, SUM(amount) AS s FROM t GROUP BY category ORDER BY s"),
            ClickHouse("SELECT category, sum(amount) AS s FROM {t} GROUP BY category ORDER BY s",
                       {"category", "s"}));
  EXPECT_EQ(Floe("SELECT id FROM t ORDER BY id LIMIT 2 OFFSET 3"),
            ClickHouse("SELECT id FROM {t} ORDER BY id LIMIT 2 OFFSET 3", {"id"}));
}

TEST_F(QueryTest, JoinsMatchClickHouse) {
  WriteSample();
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  EXPECT_EQ(Sorted(Floe("SELECT t.id, c.label FROM t JOIN c ON t.category = c.category")),
            Sorted(ClickHouse("SELECT a.id AS id, b.label AS label FROM {t} AS a JOIN {c} AS b ON "
                              "a.category = b.category",
                              {"id", "label"})));
  EXPECT_EQ(
      Sorted(Floe("SELECT t.id, c.label FROM t LEFT JOIN c ON t.category = c.category")),
      Sorted(ClickHouse("SELECT a.id AS id, b.label AS label FROM {t} AS a LEFT JOIN {c} AS b ON "
                        "a.category = b.category SETTINGS join_use_nulls = 1",
                        {"id", "label"})));
  EXPECT_EQ(
      Sorted(Floe("SELECT t.id, c.label FROM t, c WHERE t.category = c.category AND t.id > 2")),
      Sorted(ClickHouse("SELECT a.id AS id, b.label AS label FROM {t} AS a, {c} AS b WHERE "
                        "a.category = b.category AND a.id > 2",
                        {"id", "label"})));
}

TEST_F(QueryTest, UnionAllMatchesClickHouse) {
  WriteSample();
  if (!testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse peer not installed";
  EXPECT_EQ(Sorted(Floe("SELECT id FROM t WHERE category = 'a' UNION ALL SELECT id FROM t WHERE "
                        "amount >= 50")),
            Sorted(ClickHouse("SELECT id FROM {t} WHERE category = 'a' UNION ALL SELECT id FROM "
                              "{t} WHERE amount >= 50",
                              {"id"})));
}

TEST_F(QueryTest, PushesWhereAndProjectionIntoTheScan) {
  WriteSample();
  FLOE_ASSERT_OK_AND_ASSIGN(StatementResult explain,
                            session_.ExecuteSql("EXPLAIN SELECT id FROM t WHERE amount > 25"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto batch, explain.rows->Next());
  ASSERT_TRUE(batch.has_value());
  std::string plan = FormatCell(batch->column(0), 0);
  EXPECT_NE(plan.find("fields=[id, amount]"), std::string::npos) << plan;
  EXPECT_NE(plan.find("filter=[amount > 25]"), std::string::npos) << plan;
  // The residual filter still runs: the rows are those of the written data with amount > 25.
  EXPECT_NE(plan.find("where=["), std::string::npos) << plan;
  EXPECT_EQ(Sorted(Floe("SELECT id FROM t WHERE amount > 25")),
            (std::vector<std::string>{"3", "4", "5", "6"}));
}

TEST_F(QueryTest, StreamingSelectSeesLaterSnapshotsUntilCancelled) {
  Append("t", {{int64_t{1}, "a", int64_t{10}}});
  Exec("SET 'execution.runtime-mode' = 'streaming'");
  FLOE_ASSERT_OK_AND_ASSIGN(
      StatementResult result,
      session_.ExecuteSql(
          "SELECT id FROM t /*+ OPTIONS('streaming'='true', 'monitor-interval'='100ms') */"));
  EXPECT_TRUE(result.changelog);
  std::vector<int64_t> seen;
  auto read_until = [&](size_t count) {
    while (seen.size() < count) {
      auto next = result.rows->Next();
      ASSERT_TRUE(next.has_value()) << next.error().ToString();
      ASSERT_TRUE(next->has_value()) << "the streaming query ended by itself";
      const RecordBatch& batch = **next;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        EXPECT_EQ(batch.row_kind(r), RowKind::kInsert);
        seen.push_back(GetValue(batch.column(0), r).get<int64_t>());
      }
    }
  };
  read_until(1);
  Append("t", {{int64_t{2}, "b", int64_t{20}}, {int64_t{3}, "b", int64_t{30}}});
  read_until(3);
  EXPECT_EQ(Sorted({std::to_string(seen[0]), std::to_string(seen[1]), std::to_string(seen[2])}),
            (std::vector<std::string>{"1", "2", "3"}));
  result.rows->Cancel();
  auto end = result.rows->Next();
  ASSERT_TRUE(end.has_value()) << end.error().ToString();
  EXPECT_FALSE(end->has_value());
}

TEST_F(QueryTest, MetadataTablesMatchTheTableMetadata) {
  WriteSample();
  FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName resolved, session_.ResolveTable({{"db", "t"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, session_.IcebergCatalog(resolved));
  FLOE_ASSERT_OK_AND_ASSIGN(auto table, table::Table::Load(catalog, resolved.ident()));
  std::vector<std::string> expected;
  for (const auto& snapshot : table->metadata()->snapshots()) {
    expected.push_back(fmt::format("{} | {}", snapshot->snapshot_id, snapshot->operation()));
  }
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(Sorted(Floe("SELECT snapshot_id, operation FROM t$snapshots")), Sorted(expected));
  // WriteSample committed one data file per snapshot of t.
  EXPECT_EQ(Floe("SELECT COUNT(*) FROM t$files"), (std::vector<std::string>{"2"}));
  EXPECT_EQ(Floe("SELECT SUM(record_count) FROM t$files"), (std::vector<std::string>{"6"}));
}

TEST_F(QueryTest, FilesystemConnectorMatchesDuckDB) {
  std::string csv = (tmp_.path() / "events.csv").string();
  {
    std::ofstream out(csv);
    out << "1,a,10\n2,b,20\n3,a,30\n4,,40\n";
  }
  Exec("USE CATALOG default_catalog");
  Exec(
      fmt::format("CREATE TABLE events (id BIGINT, category STRING, amount BIGINT) WITH "
                  "('connector'='filesystem', 'path'='{}', 'format'='csv')",
                  csv));
  std::vector<std::string> rows =
      Sorted(Floe("SELECT category, SUM(amount) FROM events WHERE id > 1 GROUP BY category"));
  if (!testing::PeerInstalled("@duckdb/node-api")) GTEST_SKIP() << "DuckDB peer not installed";
  auto out = testing::RunPeer(
      "duck", {fmt::format("SELECT category, sum(amount) AS s FROM read_csv('{}', header=false, "
                           "columns={{'id': 'BIGINT', 'category': 'VARCHAR', 'amount': "
                           "'BIGINT'}}) WHERE id > 1 GROUP BY category",
                           csv)});
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  std::vector<std::string> expected;
  std::istringstream lines(*out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    FLOE_ASSERT_OK_AND_ASSIGN(Json json, Json::Parse(line));
    const Json* category = json.Find("category");
    const Json* sum = json.Find("s");
    ASSERT_TRUE(category != nullptr && sum != nullptr) << line;
    expected.push_back(
        fmt::format("{} | {}", category->is_null() ? std::string(kNullText) : category->as_string(),
                    sum->is_string() ? sum->as_string() : sum->Dump()));
  }
  EXPECT_EQ(rows, Sorted(expected));
}

// The connector documentation's streaming reads, as written: from the current snapshot on, and
// incrementally from a snapshot id.
TEST_F(QueryTest, ConnectorDocumentationStreamingReads) {
  Append("t", {{int64_t{1}, "a", int64_t{10}}});
  FLOE_ASSERT_OK_AND_ASSIGN(ResolvedName resolved, session_.ResolveTable({{"db", "t"}}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto catalog, session_.IcebergCatalog(resolved));
  FLOE_ASSERT_OK_AND_ASSIGN(auto table, table::Table::Load(catalog, resolved.ident()));
  int64_t first = table->metadata()->current_snapshot()->snapshot_id;
  Exec("SET execution.runtime-mode = streaming");
  Exec("SET table.dynamic-table-options.enabled=true");
  FLOE_ASSERT_OK_AND_ASSIGN(
      StatementResult all,
      session_.ExecuteSql(
          "SELECT * FROM t /*+ OPTIONS('streaming'='true', 'monitor-interval'='1s')*/ ;"));
  FLOE_ASSERT_OK_AND_ASSIGN(
      StatementResult incremental,
      session_.ExecuteSql(fmt::format("SELECT * FROM t /*+ OPTIONS('streaming'='true', "
                                      "'monitor-interval'='1s', 'start-snapshot-id'='{}')*/ ;",
                                      first)));
  Append("t", {{int64_t{2}, "b", int64_t{20}}});
  // Reads until `last` and at least `count` rows have come: when the append lands before the
  // job starts, both rows come from one scan in either order.
  auto ids_until = [](StatementResult& result, int64_t last, size_t count = 1) {
    std::vector<int64_t> ids;
    while (ids.size() < count || std::find(ids.begin(), ids.end(), last) == ids.end()) {
      auto next = result.rows->Next();
      EXPECT_TRUE(next.has_value() && next->has_value());
      if (!next.has_value() || !next->has_value()) break;
      for (int64_t r = 0; r < (*next)->num_rows(); ++r) {
        ids.push_back(GetValue((*next)->column(0), r).get<int64_t>());
      }
    }
    result.rows->Cancel();
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  EXPECT_EQ(ids_until(all, 2, 2), (std::vector<int64_t>{1, 2}));
  // start-snapshot-id is exclusive, also while that snapshot is still the current one.
  EXPECT_EQ(ids_until(incremental, 2), (std::vector<int64_t>{2}));
}

}  // namespace
}  // namespace floe::sql
