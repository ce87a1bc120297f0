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

using L = Literal;
using expr::And;
using expr::Equal;
using expr::GreaterThan;
using expr::GreaterThanOrEqual;
using expr::In;
using expr::IsNan;
using expr::IsNull;
using expr::LessThan;
using expr::LessThanOrEqual;
using expr::Not;
using expr::NotIn;
using expr::NotNan;
using expr::NotNull;
using expr::NotStartsWith;
using expr::Op;
using expr::Or;
using expr::Predicate;
using expr::StartsWith;

constexpr int kRows = 3000;

// A number written with a decimal point (12.50), as SQL and Iceberg read it: a decimal of that
// scale, converted to the column's type when the filter is bound.
Literal Dec(int128_t unscaled, int scale) { return Literal::Decimal(unscaled, 38, scale); }

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

  // Push-down returns the rows the unfiltered scan filtered afterwards does; the skip counts.
  ScanSkipMetrics Check(const expr::ExprPtr& bound) {
    const Scan with = Read(bound, true);
    const Scan without = Read(bound, false);
    EXPECT_EQ(with.rows, without.rows) << bound->ToString();
    EXPECT_EQ(without.skipped.row_groups_skipped, 0);
    EXPECT_EQ(without.skipped.rows_skipped_by_page_index, 0);
    return with.skipped;
  }

  ScanSkipMetrics CheckFilter(const expr::ExprPtr& unbound) {
    SCOPED_TRACE(unbound->ToString());
    return Check(Bound(unbound));
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
  // Dates and timestamps are strings, converted when the filter is bound.
  const std::vector<std::pair<std::string, std::vector<Literal>>> literals = {
      {"i", {L::Long(0), L::Long(2999), L::Long(1500), L::Long(-1), L::Long(3000), L::Long(1234)}},
      {"l",
       {L::Long(999999991003), L::Long(1000000000000), L::Long(999999995500), L::Long(999999995501),
        L::Long(0)}},
      {"f",
       {Dec(-3750, 1), Dec(37475, 2), Dec(0, 1), L::Double(-0.0), Dec(123, 1), Dec(10025, 2),
        L::Double(1e9)}},
      {"d",
       {Dec(-7500, 1), Dec(7495, 1), Dec(0, 1), L::Double(-0.0), Dec(25, 2), Dec(-1005, 1),
        L::Double(-1e9)}},
      {"s",
       {L::String("k00001"), L::String("k02999"), L::String("k01500"), L::String("k015"),
        L::String("z"), L::String("zé01201"), L::String("")}},
      {"dt",
       {L::String("1965-11-22"), L::String("1974-02-08"), L::String("1970-01-01"),
        L::String("1969-12-31"), L::String("1900-01-01")}},
      {"ts",
       {L::String("1969-12-31T23:43:20"), L::String("1970-01-01T00:33:19.008997"),
        L::String("1970-01-01T00:00:00.000003"), L::String("1970-01-01T00:16:40.001")}},
      {"tsn",
       {L::String("1969-12-31T22:36:40"), L::String("1969-12-31T23:26:39.000020993"),
        L::String("1969-12-31T22:36:41.000000007"), L::String("1970-02-01T00:00:00")}},
      {"dec",
       {Dec(-4500, 2), Dec(4497, 2), Dec(0, 2), Dec(-3, 2), Dec(-1234, 2), Dec(1236, 2),
        Dec(100000, 2)}},
      {"dec18",
       {Dec(-150004500, 4), Dec(149904497, 4), Dec(0, 4), Dec(-100003, 4), Dec(100004, 4)}},
      {"bo", {L::Boolean(true), L::Boolean(false)}},
      {"added", {L::Long(5), L::Long(0)}},
      {"added_s", {L::String("a")}}};
  for (const auto& [column, values] : literals) {
    for (const Literal& v : values) {
      for (Op op : {Op::kLt, Op::kLtEq, Op::kGt, Op::kGtEq, Op::kEq, Op::kNotEq}) {
        CheckFilter(Predicate(op, column, {v}));
      }
    }
    const auto& v = values;
    CheckFilter(In(column, {v.front(), v.back()}));
    CheckFilter(In(column, {v[v.size() / 2]}));
    CheckFilter(NotIn(column, {v.front(), v.back()}));
    CheckFilter(IsNull(column));
    CheckFilter(NotNull(column));
  }
  for (const char* prefix : {"k00", "k", "z", "zé", "k0299", "\xff", "a"}) {
    CheckFilter(StartsWith("s", prefix));
    CheckFilter(NotStartsWith("s", prefix));
  }
  CheckFilter(IsNan("f"));
  CheckFilter(NotNan("f"));
  CheckFilter(NotNan("d"));
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
  CheckFilter(
      And(And(GreaterThanOrEqual("i", L::Long(1000)), LessThan("i", L::Long(1100))), NotNull("s")));
  CheckFilter(And(GreaterThan("i", L::Long(2500)),
                  Or(Equal("s", L::String("k02600")), Equal("bo", L::Boolean(true)))));
  CheckFilter(Or(LessThan("i", L::Long(10)), GreaterThan("i", L::Long(2990))));
  CheckFilter(Not(LessThan("i", L::Long(2990))));
  CheckFilter(And(GreaterThanOrEqual("dt", L::String("1973-01-01")), LessThan("dec", Dec(0, 2))));
  CheckFilter(And(And(LessThan("f", Dec(0, 1)), GreaterThan("d", Dec(-10, 1))), IsNull("added")));
  CheckFilter(And(Equal("l", L::Long(999999997000)), Equal("i", L::Long(1000))));
}

TEST_F(ParquetPredicatesTest, SkipsWhereStatisticsProveNoMatch) {
  // i grows with the row: most row groups and pages hold no row below 150.
  EXPECT_GT(CheckFilter(LessThan("i", L::Long(150))).row_groups_skipped, 0);
  EXPECT_GT(Skipped(CheckFilter(Equal("i", L::Long(1777)))), 0);
  // Through promotion (file int, table long) and the added column, which proves nothing.
  EXPECT_GT(Skipped(CheckFilter(And(GreaterThanOrEqual("i", L::Long(2900)), IsNull("added")))), 0);
  EXPECT_GT(Skipped(CheckFilter(LessThan("dt", L::String("1966-01-01")))), 0);
  EXPECT_GT(Skipped(CheckFilter(GreaterThan("ts", L::String("1970-01-01T00:32:00")))), 0);
  EXPECT_GT(Skipped(CheckFilter(LessThan("tsn", L::String("1969-12-31T22:37:00")))), 0);
  EXPECT_GT(Skipped(CheckFilter(LessThanOrEqual("dec", Dec(-4400, 2)))), 0);
  EXPECT_GT(Skipped(CheckFilter(GreaterThan("dec18", Dec(140000000, 4)))), 0);
  EXPECT_GT(Skipped(CheckFilter(StartsWith("s", "k029"))), 0);
  EXPECT_GT(Skipped(CheckFilter(Equal("s", L::String("k00042")))), 0);
  EXPECT_GT(Skipped(CheckFilter(In("l", {L::Long(999999999001), L::Long(999999998998)}))), 0);
  // d has no NaN (the file's metrics say so): > may skip. f has NaNs: only < may.
  EXPECT_GT(Skipped(CheckFilter(GreaterThan("d", Dec(7000, 1)))), 0);
  EXPECT_GT(Skipped(CheckFilter(LessThan("f", Dec(-3000, 1)))), 0);
  EXPECT_EQ(Skipped(CheckFilter(GreaterThan("f", Dec(3000, 1)))), 0);
  // Not a conjunction of mappable predicates: nothing to skip by.
  EXPECT_EQ(Skipped(CheckFilter(Or(LessThan("i", L::Long(10)), Equal("s", L::String("x"))))), 0);
  EXPECT_EQ(Skipped(CheckFilter(Equal("added", L::Long(5)))), 0);
}

// DuckDB reads the same file and applies the same condition on its own (NaN above every number,
// as in Iceberg, written out where DuckDB would differ): the ids floe's pushed-down scan returns
// are the ones DuckDB selects.
TEST_F(ParquetPredicatesTest, FilteredRowsEqualDuckDBs) {
  if (!floe::testing::PeerInstalled("@duckdb")) GTEST_SKIP() << "DuckDB peer not installed";
  const std::vector<std::pair<expr::ExprPtr, std::string>> filters = {
      {And(GreaterThanOrEqual("i", L::Long(1000)), LessThan("i", L::Long(1100))),
       "i >= 1000 AND i < 1100"},
      // DuckDB's own row group pruning drops NaN rows for f > 300.0, so NaN is spelled out.
      {GreaterThan("f", Dec(3000, 1)), "isnan(f) OR f > 300.0"},
      {Or(LessThanOrEqual("f", Dec(-3700, 1)), IsNan("f")), "f <= -370.0 OR isnan(f)"},
      {StartsWith("s", "k029"), "s LIKE 'k029%'"},
      {GreaterThanOrEqual("s", L::String("z")), "s >= 'z'"},
      {LessThanOrEqual("dec", Dec(-4400, 2)), "dec <= -44.00"},
      {And(GreaterThan("dec18", Dec(140000000, 4)), Equal("bo", L::Boolean(true))),
       "dec18 > 14000.0000 AND bo = true"},
      {LessThan("dt", L::String("1966-01-01")), "dt < DATE '1966-01-01'"},
      {GreaterThan("ts", L::String("1970-01-01T00:32:00")), "ts > TIMESTAMP '1970-01-01 00:32:00'"},
      {LessThan("tsn", L::String("1969-12-31T22:37:00")),
       "tsn < TIMESTAMP_NS '1969-12-31 22:37:00'"},
      {In("l", {L::Long(999999999001), L::Long(999999998998), L::Long(5)}),
       "l IN (999999999001, 999999998998, 5)"},
      {And(IsNull("l"), GreaterThan("i", L::Long(2900))), "l IS NULL AND i > 2900"}};
  for (const auto& [floe_filter, duck_filter] : filters) {
    SCOPED_TRACE(floe_filter->ToString());
    const Scan scan = Read(Bound(floe_filter), true);
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
  auto map = [&](const expr::ExprPtr& unbound) {
    auto bound = expr::Bind(unbound, schema);
    EXPECT_TRUE(bound) << bound.error().ToString();
    return ToParquetPredicates(**bound, columns);
  };
  using Op = parquet::ColumnPredicate::Op;
  // 1500 microseconds: millis below it are <= 1, above it >= 2; equality holds for no millis.
  auto lt = map(LessThan("ts_ms", L::String("1970-01-01T00:00:00.0015")));
  ASSERT_EQ(lt.size(), 1u);
  EXPECT_EQ(lt[0].column, "ts_ms");
  EXPECT_FALSE(lt[0].field_id);
  EXPECT_EQ(lt[0].op, Op::kLt);
  EXPECT_EQ(std::get<int64_t>(lt[0].value), 2);
  auto le = map(LessThanOrEqual("ts_ms", L::String("1969-12-31T23:59:59.9985")));
  ASSERT_EQ(le.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(le[0].value), -2);
  EXPECT_TRUE(map(Equal("ts_ms", L::String("1970-01-01T00:00:00.0015"))).empty());
  auto eq = map(Equal("ts_ms", L::String("1970-01-01T00:00:00.002")));
  ASSERT_EQ(eq.size(), 1u);
  EXPECT_EQ(std::get<int64_t>(eq[0].value), 2);
  // INT96 timestamps and decimals of another scale are left to the residual.
  EXPECT_TRUE(map(LessThan("ts_int96", L::String("1970-01-01T00:00:00"))).empty());
  EXPECT_TRUE(map(LessThan("dec_s3", Dec(125, 2))).empty());
  EXPECT_EQ(map(IsNull("dec_s3")).size(), 1u);
}

}  // namespace
}  // namespace floe::table
