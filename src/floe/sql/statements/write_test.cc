// INSERT, INSERT OVERWRITE, upsert, CREATE TABLE AS, streaming INSERT jobs, SHOW JOBS and STOP JOB
// through a session, on tables of a hadoop catalog that ClickHouse (icebergLocal) reads back. The
// rows come from datagen connector tables, whose rows are a pure function of their options: the
// expected values are recomputed with DatagenSource::GenerateRows, or are plain arithmetic.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <numeric>
#include <thread>

#include "floe/catalog/catalog.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/sql/scalar/result_format.h"
#include "floe/sql/session.h"
#include "floe/sql/statements/jobs.h"
#include "floe/sql/statements/write_statements.h"
#include "floe/sql/syntax/parser.h"
#include "floe/stream/connectors/datagen_source.h"
#include "floe/table/table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::sql {
namespace {

struct SourceSpec {
  int64_t first_id = 0;
  int64_t rows = 100;  // ids first_id .. first_id + rows - 1; 0: unbounded
  int seed = 0;
  int category_min = 0;
  int category_max = 2;
  int rows_per_second = 0;
};

std::map<std::string, std::string> DatagenOptions(const SourceSpec& spec) {
  const int64_t end = spec.rows > 0 ? spec.first_id + spec.rows - 1 : int64_t{1} << 40;
  return {{"fields.id.kind", "sequence"},
          {"fields.id.start", std::to_string(spec.first_id)},
          {"fields.id.end", std::to_string(end)},
          {"fields.data.length", "6"},
          {"fields.category.min", std::to_string(spec.category_min)},
          {"fields.category.max", std::to_string(spec.category_max)},
          {"seed", std::to_string(spec.seed)},
          {"rows-per-second", std::to_string(spec.rows_per_second)},
          {"batch-size", "50"}};
}

BatchSchemaPtr SourceSchema() {
  return std::make_shared<BatchSchema>(
      std::vector<Field>{Field{.name = "id", .type = ::floe::DataType::Int64()},
                         Field{.name = "data", .type = ::floe::DataType::String()},
                         Field{.name = "category", .type = ::floe::DataType::Int32()}});
}

struct Row {
  int64_t id;
  std::string data;
  int64_t category;
  friend auto operator<=>(const Row&, const Row&) = default;
  friend void PrintTo(const Row& row, std::ostream* out) {
    *out << "(" << row.id << ", " << row.data << ", " << row.category << ")";
  }
};

// The rows a bounded datagen source of `spec` generates; or the first `count` of any source.
std::vector<Row> ExpectedRows(const SourceSpec& spec, int64_t count = -1) {
  auto source = stream::DatagenSource::Make(SourceSchema(), DatagenOptions(spec)).value();
  std::vector<int64_t> indices(count >= 0 ? count : spec.rows);
  std::iota(indices.begin(), indices.end(), 0);
  RecordBatch batch = source->GenerateRows(indices).value();
  std::vector<Row> rows;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    rows.push_back(Row{batch.column(0).Value<int64_t>(r), std::string(batch.column(1).GetString(r)),
                       batch.column(2).Value<int32_t>(r)});
  }
  return rows;
}

// A member as an integer: ClickHouse prints 64-bit integers as strings in JSON.
int64_t JsonInt(const Json& row, std::string_view key) {
  const Json* v = row.Find(key);
  if (v == nullptr) return -1;
  return v->is_string() ? std::stoll(v->as_string()) : v->as_int();
}

class WriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = (dir_.path() / "warehouse").string();
    session_ = std::make_unique<Session>(SessionOptions{
        .embedded_warehouse = "", .checkpoint_root = (dir_.path() / "checkpoints").string()});
    StringMap properties{
        {"type", "iceberg"}, {"catalog-type", "hadoop"}, {"warehouse", warehouse_}};
    catalog_ = catalog::CreateCatalog("lake", properties).value();
    ASSERT_TRUE(catalog_->CreateNamespace(catalog::Namespace{{"db"}}, {}).has_value());
    FLOE_ASSERT_OK(session_->AddCatalog(SessionCatalog{
        .name = "lake", .catalog = catalog_, .properties = properties, .current_database = "db"}));
    FLOE_ASSERT_OK(session_->UseCatalog("lake"));
    FLOE_ASSERT_OK(Sql("SET 'execution.runtime-mode' = 'batch'"));
  }

  Result<StatementResult> Sql(const std::string& text) { return session_->ExecuteSql(text); }

  // The message of a statement that must succeed.
  std::string Ok(const std::string& text) {
    auto result = Sql(text);
    EXPECT_TRUE(result.has_value()) << text << ": " << result.error().ToString();
    return result.has_value() ? result->message : "";
  }

  // The error of a statement that must fail.
  std::string Fails(const std::string& text) {
    auto result = Sql(text);
    EXPECT_FALSE(result.has_value()) << text << " succeeded";
    return result.has_value() ? "" : result.error().message();
  }

  // id long (required; the identifier field when `keyed`), data string, category int.
  void MakeTable(const std::string& name, bool partitioned, int format_version = 2,
                 bool keyed = false, StringMap properties = {}) {
    using namespace floe::types;
    catalog::CreateTableRequest request;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "data", String()),
                                 Optional(3, "category", Int())},
        0, keyed ? std::vector<int32_t>{1} : std::vector<int32_t>{});
    if (partitioned) {
      request.spec = std::make_shared<PartitionSpec>(
          0, std::vector<::floe::PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
    }
    properties["format-version"] = std::to_string(format_version);
    request.properties = std::move(properties);
    auto created = catalog_->CreateTable({catalog::Namespace{{"db"}}, name}, request);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
  }

  // A datagen table `default_catalog.default_database.<name>`.
  void AddSource(const std::string& name, const SourceSpec& spec) {
    ConnectorTable table;
    table.columns = {ColumnDef{.name = "id", .type = {.kind = SqlTypeKind::kBigInt}},
                     ColumnDef{.name = "data", .type = {.kind = SqlTypeKind::kString}},
                     ColumnDef{.name = "category", .type = {.kind = SqlTypeKind::kInt}}};
    table.options.emplace_back("connector", "datagen");
    auto options = DatagenOptions(spec);
    for (const auto& [key, value] : options) table.options.emplace_back(key, value);
    session_->connector_tables()["default_database." + name] = std::move(table);
  }

  std::string Location(const std::string& table) const { return warehouse_ + "/db/" + table; }

  // ClickHouse's rows of the table, by id.
  std::vector<Row> ClickHouseRows(const std::string& table) {
    auto out =
        floe::testing::RunPeer("ch", {"SELECT id, data, category FROM icebergLocal('" +
                                      Location(table) + "') ORDER BY id FORMAT JSONEachRow"});
    EXPECT_TRUE(out.has_value()) << out.error().ToString();
    std::vector<Row> rows;
    if (!out) return rows;
    std::istringstream lines(*out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      auto json = Json::Parse(line);
      EXPECT_TRUE(json.has_value()) << line;
      if (!json) continue;
      rows.push_back(Row{JsonInt(*json, "id"), json->GetString("data").value_or("<null>"),
                         JsonInt(*json, "category")});
    }
    return rows;
  }

  std::shared_ptr<table::Table> LoadTable(const std::string& name) {
    return table::Table::Load(catalog_, {catalog::Namespace{{"db"}}, name}).value();
  }

  static void SkipWithoutClickHouse() {
    if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) not installed";
  }

  floe::testing::TempDir dir_;
  std::string warehouse_;
  std::shared_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<Session> session_;
};

std::vector<Row> Sorted(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST_F(WriteTest, BatchInsertAppendsAndClickHouseReadsTheRows) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/true);
  AddSource("src", {.first_id = 0, .rows = 100});
  AddSource("more", {.first_id = 100, .rows = 30, .seed = 7});
  std::string message = Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.src");
  EXPECT_NE(message.find("Inserted 100 rows into lake.db.t (snapshot "), std::string::npos)
      << message;
  Ok("INSERT INTO lake.db.t SELECT * FROM default_catalog.default_database.more");
  std::vector<Row> expected = ExpectedRows({.first_id = 0, .rows = 100});
  for (const Row& row : ExpectedRows({.first_id = 100, .rows = 30, .seed = 7})) {
    expected.push_back(row);
  }
  EXPECT_EQ(ClickHouseRows("t"), Sorted(expected));
  EXPECT_EQ(LoadTable("t")->metadata()->snapshots().size(), 2U);
}

TEST_F(WriteTest, InsertOverwriteReplacesOnlyThePartitionsItWrites) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/true);
  AddSource("src", {.first_id = 0, .rows = 100});
  AddSource("ones",
            {.first_id = 1000, .rows = 10, .seed = 3, .category_min = 1, .category_max = 1});
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.src");
  std::string message =
      Ok("INSERT OVERWRITE t SELECT * FROM default_catalog.default_database.ones");
  EXPECT_NE(message.find("[INFO] Overwrote lake.db.t with 10 rows (snapshot "), std::string::npos)
      << message;
  std::vector<Row> expected;
  for (const Row& row : ExpectedRows({.first_id = 0, .rows = 100})) {
    if (row.category != 1) expected.push_back(row);
  }
  for (const Row& row : ExpectedRows(
           {.first_id = 1000, .rows = 10, .seed = 3, .category_min = 1, .category_max = 1})) {
    expected.push_back(row);
  }
  EXPECT_EQ(ClickHouseRows("t"), Sorted(expected));
  // The overwrite is one snapshot of operation "overwrite".
  auto snapshot = LoadTable("t")->metadata()->current_snapshot();
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->summary.at("operation"), "overwrite");
}

TEST_F(WriteTest, InsertOverwriteOfAStaticPartitionReplacesOnlyThatPartition) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/true);
  AddSource("src", {.first_id = 0, .rows = 90});
  AddSource("fresh", {.first_id = 2000, .rows = 12, .seed = 5});
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.src");
  // The query gives id and data; category is the constant 1 (an INT literal into an INT column).
  std::string message =
      Ok("INSERT OVERWRITE t PARTITION (category = 1) SELECT id, data FROM "
         "default_catalog.default_database.fresh");
  EXPECT_NE(message.find("[INFO] Overwrote lake.db.t with 12 rows (snapshot "), std::string::npos)
      << message;
  std::vector<Row> expected;
  for (const Row& row : ExpectedRows({.first_id = 0, .rows = 90})) {
    if (row.category != 1) expected.push_back(row);
  }
  for (Row row : ExpectedRows({.first_id = 2000, .rows = 12, .seed = 5})) {
    row.category = 1;
    expected.push_back(row);
  }
  EXPECT_EQ(ClickHouseRows("t"), Sorted(expected));
}

TEST_F(WriteTest, InsertOverwriteOfAnUnpartitionedTableReplacesEverything) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/false);
  AddSource("src", {.first_id = 0, .rows = 100});
  AddSource("few", {.first_id = 500, .rows = 5, .seed = 9});
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.src");
  Ok("INSERT OVERWRITE t SELECT * FROM default_catalog.default_database.few");
  EXPECT_EQ(ClickHouseRows("t"), Sorted(ExpectedRows({.first_id = 500, .rows = 5, .seed = 9})));
}

TEST_F(WriteTest, UpsertByTablePropertyKeepsTheLatestRowPerKey) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/false, 2, /*keyed=*/true, {{"write.upsert.enabled", "true"}});
  AddSource("first", {.first_id = 0, .rows = 50, .seed = 1});
  AddSource("second", {.first_id = 30, .rows = 40, .seed = 2});
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.first");
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.second");
  std::map<int64_t, Row> latest;
  for (const Row& row : ExpectedRows({.first_id = 0, .rows = 50, .seed = 1})) latest[row.id] = row;
  for (const Row& row : ExpectedRows({.first_id = 30, .rows = 40, .seed = 2})) latest[row.id] = row;
  std::vector<Row> expected;
  for (const auto& [id, row] : latest) expected.push_back(row);
  EXPECT_EQ(ClickHouseRows("t"), expected);
}

TEST_F(WriteTest, UpsertByHintKeepsTheLatestRowPerKey) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/false, 2, /*keyed=*/true);
  AddSource("first", {.first_id = 0, .rows = 20, .seed = 1});
  AddSource("second", {.first_id = 10, .rows = 20, .seed = 2});
  Ok("INSERT INTO t SELECT * FROM default_catalog.default_database.first");
  Ok("INSERT INTO t /*+ OPTIONS('upsert-enabled'='true') */ "
     "SELECT * FROM default_catalog.default_database.second");
  std::map<int64_t, Row> latest;
  for (const Row& row : ExpectedRows({.first_id = 0, .rows = 20, .seed = 1})) latest[row.id] = row;
  for (const Row& row : ExpectedRows({.first_id = 10, .rows = 20, .seed = 2})) latest[row.id] = row;
  std::vector<Row> expected;
  for (const auto& [id, row] : latest) expected.push_back(row);
  EXPECT_EQ(ClickHouseRows("t"), expected);
}

TEST_F(WriteTest, WriteOptionsAsHints) {
  MakeTable("t", /*partitioned=*/false);
  AddSource("src", {.first_id = 0, .rows = 10});
  Ok("INSERT INTO t /*+ OPTIONS('write-format'='avro', 'target-file-size-bytes'='1048576', "
     "'distribution-mode'='none', 'write-parallelism'='1') */ "
     "SELECT * FROM default_catalog.default_database.src");
  auto snapshot = LoadTable("t")->metadata()->current_snapshot();
  ASSERT_NE(snapshot, nullptr);
  int avro_files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(Location("t") + "/data")) {
    avro_files += entry.path().extension() == ".avro";
  }
  EXPECT_GE(avro_files, 1);
}

// DuckDB reads the Parquet footers of the written files: the codec is the hint's, not the
// table's default (zstd).
TEST_F(WriteTest, CompressionCodecHintReachesTheParquetFiles) {
  MakeTable("t", /*partitioned=*/false);
  AddSource("src", {.first_id = 0, .rows = 40});
  Ok("INSERT INTO t /*+ OPTIONS('write-format'='parquet', 'compression-codec'='gzip') */ "
     "SELECT * FROM default_catalog.default_database.src");
  auto codecs =
      floe::testing::RunPeer("duck", {"SELECT DISTINCT compression FROM parquet_metadata('" +
                                      Location("t") + "/data/*.parquet')"});
  if (!codecs.has_value()) GTEST_SKIP() << "DuckDB peer: " << codecs.error().ToString();
  EXPECT_EQ(*codecs, "{\"compression\":\"GZIP\"}\n");
}

TEST_F(WriteTest, CreateTableAsSelectTakesTheQuerysColumns) {
  SkipWithoutClickHouse();
  AddSource("src", {.first_id = 0, .rows = 60});
  FLOE_ASSERT_OK_AND_ASSIGN(
      Statement statement,
      ParseStatement("CREATE TABLE lake.db.c PARTITIONED BY (category) WITH ('format-version'='2',"
                     " 'write.format.default'='parquet') AS SELECT * FROM "
                     "default_catalog.default_database.src"));
  auto result = ExecuteCreateTableAs(*session_, std::get<sql::CreateTable>(statement.body));
  ASSERT_TRUE(result.has_value()) << result.error().ToString();
  auto table = LoadTable("c");
  EXPECT_EQ(table->metadata()->format_version(), 2);
  const Schema& schema = *table->metadata()->current_schema();
  ASSERT_EQ(schema.fields().size(), 3U);
  EXPECT_EQ(schema.fields()[0].name, "id");
  EXPECT_EQ(schema.fields()[0].type->ToString(), "long");
  EXPECT_EQ(schema.fields()[2].type->ToString(), "int");
  ASSERT_EQ(table->metadata()->default_spec()->fields().size(), 1U);
  EXPECT_EQ(table->metadata()->default_spec()->fields()[0].name, "category");
  EXPECT_EQ(ClickHouseRows("c"), Sorted(ExpectedRows({.first_id = 0, .rows = 60})));
  // Again: the table exists.
  auto again = ExecuteCreateTableAs(*session_, std::get<sql::CreateTable>(statement.body));
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);
}

TEST_F(WriteTest, StreamingInsertRunsAsAJobUntilStoppedWithASavepoint) {
  SkipWithoutClickHouse();
  MakeTable("t", /*partitioned=*/false);
  AddSource("endless", {.first_id = 0, .rows = 0, .rows_per_second = 400});
  Ok("SET 'execution.runtime-mode' = 'streaming'");
  Ok("SET 'execution.checkpointing.interval' = '200ms'");
  auto started = Sql("INSERT INTO t SELECT * FROM default_catalog.default_database.endless");
  ASSERT_TRUE(started.has_value()) << started.error().ToString();
  ASSERT_EQ(started->kind, StatementResult::Kind::kJob);
  const std::string id = started->job_id;

  auto shown = Sql("SHOW JOBS");
  ASSERT_TRUE(shown.has_value());
  auto batch = shown->rows->Next().value();
  ASSERT_TRUE(batch.has_value());
  ASSERT_EQ(batch->num_rows(), 1);
  EXPECT_EQ(shown->schema->field(0).name, "job id");
  EXPECT_EQ(shown->schema->field(3).name, "start time");
  EXPECT_EQ(FormatCell(batch->column(0), 0), id);
  EXPECT_EQ(FormatCell(batch->column(1), 0), "insert-into_lake.db.t");
  EXPECT_EQ(FormatCell(batch->column(2), 0), "RUNNING");

  // Checkpoints commit while the job runs.
  auto table = LoadTable("t");
  while (table->metadata()->snapshots().size() < 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    FLOE_ASSERT_OK(table->Refresh());
  }
  auto stopped = Sql("STOP JOB '" + id + "' WITH SAVEPOINT");
  ASSERT_TRUE(stopped.has_value()) << stopped.error().ToString();
  EXPECT_EQ(stopped->schema->field(0).name, "savepoint path");
  auto path = stopped->rows->Next().value();
  ASSERT_TRUE(path.has_value());
  EXPECT_TRUE(std::filesystem::is_directory(FormatCell(path->column(0), 0)));
  EXPECT_EQ(session_->jobs().Get(id)->state, JobState::kFinished);

  // Committed rows are a prefix of the ids, each once.
  std::vector<Row> rows = ClickHouseRows("t");
  ASSERT_FALSE(rows.empty());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(rows[i].id, static_cast<int64_t>(i));
  EXPECT_NE(Fails("STOP JOB '" + id + "'").find("is not running"), std::string::npos);
}

// The unbounded form of a dynamic sink (write_statements_dynamic_internal.h): a streaming INSERT
// from an endless datagen fans out to one table per category, committing on checkpoints until the
// job is stopped; then each table holds exactly its rows of a prefix of the ids, each once, as
// ClickHouse reads them.
TEST_F(WriteTest, StreamingInsertIntoADynamicSinkFansOutUntilStopped) {
  SkipWithoutClickHouse();
  const SourceSpec spec{.first_id = 0, .rows = 0, .rows_per_second = 400};
  AddSource("endless", spec);
  Ok("CREATE TABLE default_catalog.default_database.fan (id BIGINT, data STRING, category INT) "
     "WITH ('connector'='iceberg', 'use-dynamic-sink'='true', 'catalog-name'='hc', "
     "'catalog-type'='hadoop', 'warehouse'='" +
     warehouse_ + "', 'table'='db.fan_{category}')");
  Ok("SET 'execution.runtime-mode' = 'streaming'");
  Ok("SET 'execution.checkpointing.interval' = '200ms'");
  auto started =
      Sql("INSERT INTO default_catalog.default_database.fan "
          "SELECT * FROM default_catalog.default_database.endless");
  ASSERT_TRUE(started.has_value()) << started.error().ToString();
  ASSERT_EQ(started->kind, StatementResult::Kind::kJob);
  const std::string id = started->job_id;

  // Checkpoints commit while the job runs: wait for two snapshots in every table.
  const std::vector<std::string> tables = {"fan_0", "fan_1", "fan_2"};
  for (const std::string& name : tables) {
    std::shared_ptr<table::Table> table;
    while (true) {
      ASSERT_EQ(session_->jobs().Get(id)->state, JobState::kRunning);
      if (!table) {
        auto loaded = table::Table::Load(catalog_, {catalog::Namespace{{"db"}}, name});
        if (loaded) table = *loaded;
      } else {
        FLOE_ASSERT_OK(table->Refresh());  // a load may be answered from the catalog's cache
      }
      if (table && table->metadata()->snapshots().size() >= 2) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  auto stopped = Sql("STOP JOB '" + id + "' WITH SAVEPOINT");
  ASSERT_TRUE(stopped.has_value()) << stopped.error().ToString();
  EXPECT_EQ(session_->jobs().Get(id)->state, JobState::kFinished);

  // Every table has only rows of its category; together they are a prefix of the ids, each once,
  // with the values the source generates for them.
  std::vector<Row> all;
  for (size_t category = 0; category < tables.size(); ++category) {
    std::vector<Row> rows = ClickHouseRows(tables[category]);
    EXPECT_FALSE(rows.empty()) << tables[category];
    for (const Row& row : rows) {
      EXPECT_EQ(row.category, static_cast<int64_t>(category)) << tables[category];
      all.push_back(row);
    }
  }
  all = Sorted(std::move(all));
  EXPECT_EQ(all, ExpectedRows(spec, static_cast<int64_t>(all.size())));
}

TEST_F(WriteTest, ErrorsNameWhatIsWrong) {
  MakeTable("t", /*partitioned=*/true);
  MakeTable("plain_v2", /*partitioned=*/false, 2, /*keyed=*/false);
  MakeTable("keyed_v1", /*partitioned=*/false, 1, /*keyed=*/true);
  MakeTable("keyed", /*partitioned=*/false, 2, /*keyed=*/true);
  AddSource("src", {.first_id = 0, .rows = 10});
  const std::string from = " SELECT * FROM default_catalog.default_database.src";

  EXPECT_NE(Fails("INSERT INTO nope" + from).find("'lake.db.nope' does not exist"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO `t$snapshots`" + from).find("metadata table"), std::string::npos);
  EXPECT_NE(Fails("INSERT INTO t /*+ OPTIONS('no-such-option'='1') */" + from)
                .find("unknown write option 'no-such-option'"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO plain_v2 /*+ OPTIONS('upsert-enabled'='true') */" + from)
                .find("upsert needs equality fields"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO keyed_v1 /*+ OPTIONS('upsert-enabled'='true') */" + from)
                .find("format version 2"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT OVERWRITE keyed /*+ OPTIONS('upsert-enabled'='true') */" + from)
                .find("cannot be set together"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO t (id, nope, category)" + from)
                .find("target column 'nope' is not a column"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO t (id, data)" + from).find("the query gives 3 columns"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO t PARTITION (data = 'x')" + from)
                .find("'data' is not an identity partition column"),
            std::string::npos);
  EXPECT_NE(Fails("INSERT INTO plain_v2 PARTITION (category = 1)" + from).find("not partitioned"),
            std::string::npos);

  Ok("SET 'table.dynamic-table-options.enabled' = 'false'");
  EXPECT_NE(Fails("INSERT INTO t /*+ OPTIONS('write-format'='avro') */" + from)
                .find("table.dynamic-table-options.enabled"),
            std::string::npos);
  Ok("SET 'execution.runtime-mode' = 'streaming'");
  EXPECT_NE(Fails("INSERT OVERWRITE t" + from).find("not supported in streaming mode"),
            std::string::npos);
  // Nothing was written by any of them.
  EXPECT_TRUE(LoadTable("t")->metadata()->snapshots().empty());
}

}  // namespace
}  // namespace floe::sql
