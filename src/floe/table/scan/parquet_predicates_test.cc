// Filter push-down into the Parquet reader: a scan with push-down returns exactly the rows of the
// same scan without it (which reads every row and applies the filter afterwards), for every type
// and comparison, edge literals, and a table schema evolved after the file was written; and where
// statistics prove that no row of a row group or page matches, the reader skips it.

#include "floe/table/scan/parquet_predicates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "floe/batch/value.h"
#include "floe/expr/parser.h"
#include "floe/io/local_file_io.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/write/file_appender.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/write_properties.h"
#include "floe/table/write/write_test_support.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

constexpr int kRows = 3000;

// The schema the file is written with.
SchemaPtr FileSchema() {
  return std::make_shared<const Schema>(
      std::vector<NestedField>{
          types::Required(1, "i", types::Int()), types::Optional(2, "l", types::Long()),
          types::Optional(3, "f", types::Float()), types::Optional(4, "d", types::Double()),
          types::Optional(5, "s", types::String()), types::Optional(6, "bin", types::Binary()),
          types::Optional(7, "dt", types::Date()), types::Optional(8, "ts", types::Timestamp()),
          types::Optional(9, "tsn", types::TimestampNs()),
          types::Optional(10, "dec", types::Decimal(9, 2)),
          types::Optional(11, "dec18", types::Decimal(18, 4)),
          types::Optional(12, "bo", types::Boolean())},
      0);
}

// The table's schema now: i int -> long, f float -> double, dec widened, two columns added.
SchemaPtr TableSchema() {
  return std::make_shared<const Schema>(
      std::vector<NestedField>{
          types::Required(1, "i", types::Long()), types::Optional(2, "l", types::Long()),
          types::Optional(3, "f", types::Double()), types::Optional(4, "d", types::Double()),
          types::Optional(5, "s", types::String()), types::Optional(6, "bin", types::Binary()),
          types::Optional(7, "dt", types::Date()), types::Optional(8, "ts", types::Timestamp()),
          types::Optional(9, "tsn", types::TimestampNs()),
          types::Optional(10, "dec", types::Decimal(12, 2)),
          types::Optional(11, "dec18", types::Decimal(18, 4)),
          types::Optional(12, "bo", types::Boolean()), types::Optional(13, "added", types::Int()),
          types::Optional(14, "added_s", types::String())},
      1);
}

// Row r's values: mostly increasing with r (so that statistics can rule row groups and pages
// out), with nulls, NaNs, signed zeros, negative numbers and non-ASCII strings among them.
std::vector<std::vector<Value>> Columns() {
  std::vector<std::vector<Value>> c(12);
  for (int r = 0; r < kRows; ++r) {
    c[0].emplace_back(r);
    c[1].push_back(r % 11 == 3 ? Value() : Value(int64_t{1000000000000} - int64_t{r} * 3));
    if (r % 13 == 0) {
      c[2].push_back(Value());
    } else if (r % 97 == 5) {
      c[2].emplace_back(std::numeric_limits<float>::quiet_NaN());
    } else {
      c[2].emplace_back(static_cast<float>(r - 1500) * 0.25f);
    }
    c[3].emplace_back(r % 500 == 250 ? -0.0 : (r - 1500) * 0.5);
    if (r % 50 == 0) {
      c[4].push_back(Value());
    } else if (r % 300 == 1) {
      c[4].emplace_back(fmt::format("z\xc3\xa9{:05d}", r));
    } else {
      c[4].emplace_back(fmt::format("k{:05d}", r));
    }
    c[5].emplace_back(
        BinaryValue{std::string{static_cast<char>(r / 256), static_cast<char>(r % 256)}});
    c[6].emplace_back(DateValue{r - 1500});
    c[7].emplace_back(TimestampValue{int64_t{-1000000000} + int64_t{r} * 1000003});
    c[8].emplace_back(
        TimestampValue{int64_t{r} * 1000000007 - int64_t{5000000000000}, TimeUnit::kNano});
    c[9].emplace_back(DecimalValue{(r - 1500) * 3, 9, 2});
    c[10].push_back(r % 7 == 0 ? Value() : Value(DecimalValue{int64_t{r - 1500} * 100003, 18, 4}));
    c[11].push_back(r % 17 == 0 ? Value() : Value(r % 3 == 0));
  }
  return c;
}

class ParquetPredicatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const SchemaPtr schema = FileSchema();
    auto fields = ToBatchFields(*schema);
    ASSERT_TRUE(fields) << fields.error().ToString();
    auto batch_schema = std::make_shared<const BatchSchema>(std::move(*fields));
    std::vector<Array> arrays;
    const auto columns = Columns();
    for (size_t i = 0; i < columns.size(); ++i) {
      auto array = MakeArray(batch_schema->field(static_cast<int>(i)).type, columns[i]);
      ASSERT_TRUE(array) << array.error().ToString();
      arrays.push_back(std::move(*array));
    }
    auto batch = RecordBatch::Make(batch_schema, std::move(arrays));
    ASSERT_TRUE(batch) << batch.error().ToString();
    // Small row groups and pages, as the table properties ask.
    const std::map<std::string, std::string> properties = {
        {"write.parquet.row-group-size-bytes", "16384"},
        {"write.parquet.page-row-limit", "100"},
        {"write.parquet.bloom-filter-enabled.column.s", "true"},
        {"write.parquet.bloom-filter-enabled.column.l", "true"}};
    auto write = WriteProperties::Parse(properties);
    ASSERT_TRUE(write) << write.error().ToString();
    write_ = *write;
    auto metrics = MetricsConfig::Make(properties, *schema);
    ASSERT_TRUE(metrics) << metrics.error().ToString();
    const std::string path = (dir_.path() / "data.parquet").string();
    auto out = io_->NewOutputFile(path);
    ASSERT_TRUE(out);
    auto file = (*out)->Create();
    ASSERT_TRUE(file);
    auto appender = MakeFileAppender(FileFormat::kParquet, std::move(*file),
                                     AppenderSpec{schema, batch_schema, *metrics, &write_});
    ASSERT_TRUE(appender) << appender.error().ToString();
    // Several batches: the writer closes row groups between them.
    for (int64_t at = 0; at < kRows; at += 500) {
      auto status = (*appender)->Write(batch->Slice(at, std::min<int64_t>(500, kRows - at)));
      ASSERT_TRUE(status) << status.error().ToString();
    }
    auto result = (*appender)->Close();
    ASSERT_TRUE(result) << result.error().ToString();
    auto data = std::make_shared<manifest::DataFile>();
    data->file_path = path;
    data->file_format = "parquet";
    data->record_count = result->record_count;
    data->file_size_in_bytes = result->file_size;
    data->split_offsets = result->split_offsets;
    std::move(result->metrics).MoveInto(*data);
    data_ = data;
    ASSERT_GT(data_->split_offsets.size(), 3u) << "expected several row groups";
  }

  struct Scan {
    std::vector<std::string> rows;
    ScanSkipMetrics skipped;
  };

  Scan Read(const expr::ExprPtr& bound, bool push_down) {
    const SchemaPtr schema = TableSchema();
    TaskReadOptions options;
    options.batch_rows = 128;
    options.push_down_filter = push_down;
    TaskReader reader(io_, schema, schema, options);
    FileScanTask task;
    task.data_file = data_;
    task.length = data_->file_size_in_bytes;
    task.residual = bound;
    Scan scan;
    auto status = reader.Read(task, [&](RecordBatch batch) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        scan.rows.push_back(RowView(batch, i).ToJson());
      }
      return Ok();
    });
    EXPECT_TRUE(status) << status.error().ToString();
    scan.skipped = reader.skip_metrics();
    return scan;
  }

  expr::ExprPtr Bound(const expr::ExprPtr& unbound) {
    auto bound = expr::Bind(unbound, *TableSchema());
    EXPECT_TRUE(bound) << bound.error().ToString();
    return bound ? *bound : expr::True();
  }

  expr::ExprPtr Parse(const std::string& text) {
    auto parsed = expr::ParseFilter(text);
    EXPECT_TRUE(parsed) << text << ": " << parsed.error().ToString();
    return parsed ? Bound(*parsed) : expr::True();
  }

  // Push-down returns the rows the unfiltered scan filtered afterwards does; the skip counts.
  ScanSkipMetrics Check(const expr::ExprPtr& bound) {
    const Scan with = Read(bound, true);
    const Scan without = Read(bound, false);
    EXPECT_EQ(with.rows, without.rows) << bound->ToString();
    EXPECT_EQ(without.skipped.row_groups_skipped, 0);
    EXPECT_EQ(without.skipped.rows_skipped_by_page_index, 0);
    return with.skipped;
  }

  ScanSkipMetrics Check(const std::string& text) {
    SCOPED_TRACE(text);
    return Check(Parse(text));
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<io::FileIO> io_ = std::make_shared<io::LocalFileIO>();
  WriteProperties write_;
  DataFilePtr data_;
};

int64_t Skipped(const ScanSkipMetrics& m) {
  return m.row_groups_skipped + m.rows_skipped_by_page_index;
}

TEST_F(ParquetPredicatesTest, EveryComparisonOfEveryTypeMatchesFilteringAfterwards) {
  // Literals at the column's minimum and maximum, between two values, beyond both ends, and
  // in the middle; ops < <= > >= = != in, on every column.
  const std::vector<std::pair<std::string, std::vector<std::string>>> literals = {
      {"i", {"0", "2999", "1500", "-1", "3000", "1234"}},
      {"l", {"999999991003", "1000000000000", "999999995500", "999999995501", "0"}},
      {"f", {"-375.0", "374.75", "0.0", "-0.0", "12.3", "100.25", "1e9"}},
      {"d", {"-750.0", "749.5", "0.0", "-0.0", "0.25", "-100.5", "-1e9"}},
      {"s", {"'k00001'", "'k02999'", "'k01500'", "'k015'", "'z'", "'zé01201'", "''"}},
      {"dt", {"'1965-11-22'", "'1974-02-08'", "'1970-01-01'", "'1969-12-31'", "'1900-01-01'"}},
      {"ts",
       {"'1969-12-31T23:43:20'", "'1970-01-01T00:33:19.008997'", "'1970-01-01T00:00:00.000003'",
        "'1970-01-01T00:16:40.001'"}},
      {"tsn",
       {"'1969-12-31T22:36:40'", "'1969-12-31T23:26:39.000020993'",
        "'1969-12-31T22:36:41.000000007'", "'1970-02-01T00:00:00'"}},
      {"dec", {"-45.00", "44.97", "0.00", "-0.03", "-12.34", "12.36", "1000.00"}},
      {"dec18", {"-15000.4500", "14990.4497", "0.0000", "-10.0003", "10.0004"}},
      {"bo", {"true", "false"}},
      {"added", {"5", "0"}},
      {"added_s", {"'a'"}}};
  for (const auto& [column, values] : literals) {
    for (const std::string& v : values) {
      for (const char* op : {"<", "<=", ">", ">=", "=", "!="}) {
        Check(fmt::format("{} {} {}", column, op, v));
      }
    }
    const auto& v = values;
    Check(fmt::format("{} in ({}, {})", column, v.front(), v.back()));
    Check(fmt::format("{} in ({})", column, v[v.size() / 2]));
    Check(fmt::format("{} not in ({}, {})", column, v.front(), v.back()));
    Check(fmt::format("{} is null", column));
    Check(fmt::format("{} is not null", column));
  }
  for (const char* prefix : {"k00", "k", "z", "zé", "k0299", "\xff", "a"}) {
    Check(fmt::format("s like '{}%'", prefix));
    Check(fmt::format("s not like '{}%'", prefix));
  }
  Check("f is nan");
  Check("f is not nan");
  Check("d is not nan");
}

TEST_F(ParquetPredicatesTest, BinaryLiterals) {
  for (int r : {0, 1, 255, 256, 1500, 2999, 3000}) {
    const Literal v =
        Literal::Binary(std::string{static_cast<char>(r / 256), static_cast<char>(r % 256)});
    Check(Bound(expr::LessThan("bin", v)));
    Check(Bound(expr::GreaterThanOrEqual("bin", v)));
    Check(Bound(expr::Equal("bin", v)));
  }
}

TEST_F(ParquetPredicatesTest, ConjunctionsPushTheirMappableParts) {
  Check("i >= 1000 and i < 1100 and s is not null");
  Check("i > 2500 and (s = 'k02600' or bo = true)");
  Check("i < 10 or i > 2990");
  Check("not (i < 2990)");
  Check("dt >= '1973-01-01' and dec < 0.00");
  Check("f < 0.0 and d > -1.0 and added is null");
  Check("l = 999999997000 and i = 1000");
}

TEST_F(ParquetPredicatesTest, SkipsWhereStatisticsProveNoMatch) {
  // i grows with the row: most row groups and pages hold no row below 150.
  EXPECT_GT(Check("i < 150").row_groups_skipped, 0);
  EXPECT_GT(Skipped(Check("i = 1777")), 0);
  // Through promotion (file int, table long) and the added column, which proves nothing.
  EXPECT_GT(Skipped(Check("i >= 2900 and added is null")), 0);
  EXPECT_GT(Skipped(Check("dt < '1966-01-01'")), 0);
  EXPECT_GT(Skipped(Check("ts > '1970-01-01T00:32:00'")), 0);
  EXPECT_GT(Skipped(Check("tsn < '1969-12-31T22:37:00'")), 0);
  EXPECT_GT(Skipped(Check("dec <= -44.00")), 0);
  EXPECT_GT(Skipped(Check("dec18 > 14000.0000")), 0);
  EXPECT_GT(Skipped(Check("s like 'k029%'")), 0);
  EXPECT_GT(Skipped(Check("s = 'k00042'")), 0);
  EXPECT_GT(Skipped(Check("l in (999999999001, 999999998998)")), 0);
  // d has no NaN (the file's metrics say so): > may skip. f has NaNs: only < may.
  EXPECT_GT(Skipped(Check("d > 700.0")), 0);
  EXPECT_GT(Skipped(Check("f < -300.0")), 0);
  EXPECT_EQ(Skipped(Check("f > 300.0")), 0);
  // Not a conjunction of mappable predicates: nothing to skip by.
  EXPECT_EQ(Skipped(Check("i < 10 or s = 'x'")), 0);
  EXPECT_EQ(Skipped(Check("added = 5")), 0);
}

// DuckDB reads the same file and applies the same condition on its own (NaN above every number,
// as in Iceberg, written out where DuckDB would differ): the ids floe's pushed-down scan returns
// are the ones DuckDB selects.
TEST_F(ParquetPredicatesTest, FilteredRowsEqualDuckDBs) {
  if (!floe::testing::PeerInstalled("@duckdb")) GTEST_SKIP() << "DuckDB peer not installed";
  const std::vector<std::pair<std::string, std::string>> filters = {
      {"i >= 1000 and i < 1100", "i >= 1000 AND i < 1100"},
      // DuckDB's own row group pruning drops NaN rows for f > 300.0, so NaN is spelled out.
      {"f > 300.0", "isnan(f) OR f > 300.0"},
      {"f <= -370.0 or f is nan", "f <= -370.0 OR isnan(f)"},
      {"s like 'k029%'", "s LIKE 'k029%'"},
      {"s >= 'z'", "s >= 'z'"},
      {"dec <= -44.00", "dec <= -44.00"},
      {"dec18 > 14000.0000 and bo = true", "dec18 > 14000.0000 AND bo = true"},
      {"dt < '1966-01-01'", "dt < DATE '1966-01-01'"},
      {"ts > '1970-01-01T00:32:00'", "ts > TIMESTAMP '1970-01-01 00:32:00'"},
      {"tsn < '1969-12-31T22:37:00'", "tsn < TIMESTAMP_NS '1969-12-31 22:37:00'"},
      {"l in (999999999001, 999999998998, 5)", "l IN (999999999001, 999999998998, 5)"},
      {"l is null and i > 2900", "l IS NULL AND i > 2900"}};
  for (const auto& [floe_filter, duck_filter] : filters) {
    SCOPED_TRACE(floe_filter);
    const Scan scan = Read(Parse(floe_filter), true);
    std::vector<int64_t> floe_ids;
    for (const std::string& row : scan.rows)
      floe_ids.push_back(Json::Parse(row)->Find("i")->as_int());
    auto duck = test::Duck(fmt::format("SELECT i FROM read_parquet('{}') WHERE {} ORDER BY i",
                                       data_->file_path, duck_filter));
    ASSERT_TRUE(duck) << duck.error().ToString();
    std::vector<int64_t> duck_ids;
    for (const Json& row : *duck) duck_ids.push_back(test::Int(row, "i"));
    EXPECT_FALSE(duck_ids.empty());
    EXPECT_EQ(floe_ids, duck_ids);
  }
}

TEST(ParquetPredicatesMapping, ConvertsLiteralsToTheFileRepresentation) {
  std::unordered_map<int32_t, ParquetColumn> columns;
  columns[1] = {"ts_ms", std::nullopt, parquet::LeafConversion::kInt64Millis,
                DataType::Timestamp(TimeUnit::kMicro, false), false};
  columns[2] = {"ts_int96", 2, parquet::LeafConversion::kInt96ToMicros,
                DataType::Timestamp(TimeUnit::kMicro, false), false};
  columns[3] = {"dec_s3", 3, parquet::LeafConversion::kInt64Decimal, DataType::Decimal128(18, 3),
                false};
  const Schema schema({types::Optional(1, "ts_ms", types::Timestamp()),
                       types::Optional(2, "ts_int96", types::Timestamp()),
                       types::Optional(3, "dec_s3", types::Decimal(18, 2))},
                      0);
  auto map = [&](const std::string& text) {
    auto bound = expr::Bind(*expr::ParseFilter(text), schema);
    EXPECT_TRUE(bound) << bound.error().ToString();
    return ToParquetPredicates(**bound, columns);
  };
  using Op = parquet::ColumnPredicate::Op;
  // 1500 microseconds: millis below it are <= 1, above it >= 2; equality holds for no millis.
  auto lt = map("ts_ms < '1970-01-01T00:00:00.0015'");
  ASSERT_EQ(lt.size(), 1u);
  EXPECT_EQ(lt[0].column, "ts_ms");
  EXPECT_FALSE(lt[0].field_id);
  EXPECT_EQ(lt[0].op, Op::kLt);
  EXPECT_EQ(std::get<int64_t>(lt[0].value), 2);
  auto le = map("ts_ms <= '1969-12-31T23:59:59.9985'");
  ASSERT_EQ(le.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(le[0].value), -2);
  EXPECT_TRUE(map("ts_ms = '1970-01-01T00:00:00.0015'").empty());
  auto eq = map("ts_ms = '1970-01-01T00:00:00.002'");
  ASSERT_EQ(eq.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(eq[0].value), 2);
  // INT96 timestamps and decimals of another scale are left to the residual.
  EXPECT_TRUE(map("ts_int96 < '1970-01-01T00:00:00'").empty());
  EXPECT_TRUE(map("dec_s3 < 1.25").empty());
  EXPECT_EQ(map("dec_s3 is null").size(), 1u);
}

}  // namespace
}  // namespace floe::table
