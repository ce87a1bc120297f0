#include "floe/cli/result_printer.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "floe/batch/value.h"
#include "floe/util/calendar.h"
#include "floe/util/json.h"

namespace floe::cli {
namespace {

using sql::ResultMode;

struct Column {
  std::string name;
  DataTypePtr type;
  std::vector<Value> values;
};

RecordBatch MakeBatch(const std::vector<Column>& columns, std::vector<RowKind> kinds = {}) {
  std::vector<Field> fields;
  std::vector<Array> arrays;
  for (const Column& column : columns) {
    fields.push_back(Field{.name = column.name, .type = column.type});
    auto array = MakeArray(column.type, column.values);
    EXPECT_TRUE(array.has_value()) << array.error().message();
    arrays.push_back(std::move(*array));
  }
  auto schema = std::make_shared<BatchSchema>(std::move(fields));
  int64_t rows = columns.empty() ? 0 : static_cast<int64_t>(columns[0].values.size());
  std::optional<Buffer> kind_buffer;
  if (!kinds.empty()) {
    kind_buffer = Buffer::CopyOf(kinds.data(), static_cast<int64_t>(kinds.size()));
  }
  auto batch = RecordBatch::Make(schema, std::move(arrays), rows, std::move(kind_buffer));
  EXPECT_TRUE(batch.has_value()) << batch.error().message();
  return std::move(*batch);
}

// Runs the printer over the batches and returns what it wrote.
std::string Print(const std::vector<RecordBatch>& batches, bool changelog, PrintOptions options,
                  bool cancelled = false) {
  char* buffer = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  ResultPrinter printer(out, batches.front().schema(), changelog, options);
  printer.Begin();
  for (const RecordBatch& batch : batches) printer.Add(batch);
  printer.End(cancelled);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

Value Day(int year, int month, int day) {
  return DateValue{static_cast<int32_t>(DaysFromCivil(year, month, day))};
}

// The batch example of Flink's SQL client documentation (docs/dev/table/sqlClient.md, "tableau
// mode ... if you ran the query in batch mode"): widths from the content, cells right-aligned.
TEST(ResultPrinterTest, BatchTableauAsFlinksDocumentationShowsIt) {
  RecordBatch batch = MakeBatch({{"name", DataType::String(), {"Alice", "Bob", "Greg"}},
                                 {"cnt", DataType::Int64(), {Value(1), Value(2), Value(1)}}});
  EXPECT_EQ(Print({batch}, false, {}),
            "+-------+-----+\n"
            "|  name | cnt |\n"
            "+-------+-----+\n"
            "| Alice |   1 |\n"
            "|   Bob |   2 |\n"
            "|  Greg |   1 |\n"
            "+-------+-----+\n"
            "3 rows in set\n");
}

// The streaming example of the same page (Flink 1.13 and later): an `op` column, widths from the
// types (STRING and DOUBLE the maximum 30, INT 11, BOOLEAN its name's 7, DATE 10) and the total.
// Flink's current client prints booleans upper-case (result_format.h), the page's older
// lower-case.
TEST(ResultPrinterTest, StreamingTableauAsFlinksDocumentationShowsIt) {
  RecordBatch first = MakeBatch({{"name", DataType::String(), {"user1"}},
                                 {"age", DataType::Int32(), {Value(20)}},
                                 {"isHappy", DataType::Bool(), {true}},
                                 {"dob", DataType::Date32(), {Day(1995, 12, 3)}},
                                 {"height", DataType::Float64(), {1.7}}});
  RecordBatch second = MakeBatch({{"name", DataType::String(), {"user2"}},
                                  {"age", DataType::Int32(), {Value(30)}},
                                  {"isHappy", DataType::Bool(), {true}},
                                  {"dob", DataType::Date32(), {Day(1972, 8, 2)}},
                                  {"height", DataType::Float64(), {1.89}}});
  const std::string border =
      "+----+--------------------------------+-------------+---------+------------+------------"
      "--------------------+\n";
  EXPECT_EQ(Print({first, second}, true, {}),
            border +
                "| op |                           name |         age | isHappy |        dob |   "
                "                      height |\n" +
                border +
                "| +I |                          user1 |          20 |    TRUE | 1995-12-03 |   "
                "                         1.7 |\n"
                "| +I |                          user2 |          30 |    TRUE | 1972-08-02 |   "
                "                        1.89 |\n" +
                border + "Received a total of 2 rows\n");
}

// Flink's documented truncation (sqlClient.md, the testUserData example): a 36-character UUID in
// a 30-wide column keeps 27 characters and ends in "...".
TEST(ResultPrinterTest, LongCellsAreTruncatedToTheMaximumWidth) {
  RecordBatch batch = MakeBatch(
      {{"name", DataType::String(), {"30b5c1bb-0ac0-43d3-b812-fcbac2d4ee98"}}}, {RowKind::kInsert});
  std::string text = Print({batch}, true, {});
  EXPECT_NE(text.find("| +I | 30b5c1bb-0ac0-43d3-b812-fcb... |\n"), std::string::npos) << text;

  // A narrower maximum applies to bounded results too, header included.
  RecordBatch wide = MakeBatch({{"description", DataType::String(), {"abcdefghij", "abc"}}});
  EXPECT_EQ(Print({wide}, false, {.max_column_width = 8}),
            "+----------+\n"
            "| descr... |\n"
            "+----------+\n"
            "| abcde... |\n"
            "|      abc |\n"
            "+----------+\n"
            "2 rows in set\n");
}

TEST(ResultPrinterTest, WideCharactersTakeTwoColumns) {
  EXPECT_EQ(DisplayWidth("abc"), 3);
  EXPECT_EQ(DisplayWidth("中文"), 4);
  EXPECT_EQ(DisplayWidth("é"), 1);
  RecordBatch batch = MakeBatch({{"s", DataType::String(), {"中文字"}}});
  // Six columns do not fit in five: one wide character and "..." do.
  EXPECT_EQ(Print({batch}, false, {.max_column_width = 5}),
            "+-------+\n"
            "|     s |\n"
            "+-------+\n"
            "| 中... |\n"
            "+-------+\n"
            "1 row in set\n");
}

TEST(ResultPrinterTest, EmptyResults) {
  RecordBatch none = MakeBatch({{"id", DataType::Int64(), {}}});
  EXPECT_EQ(Print({none}, false, {}), "Empty set\n");
  // A change stream shows its header at once and no closing border without rows.
  EXPECT_EQ(Print({none}, true, {}),
            "+----+----------------------+\n"
            "| op |                   id |\n"
            "+----+----------------------+\n"
            "Received a total of 0 row\n");
}

TEST(ResultPrinterTest, CancelledQuerySaysHowManyRowsArrived) {
  RecordBatch batch = MakeBatch({{"id", DataType::Int64(), {Value(1), Value(2)}}},
                                {RowKind::kInsert, RowKind::kInsert});
  std::string text = Print({batch}, true, {}, true);
  EXPECT_TRUE(
      text.ends_with("|                    2 |\nQuery terminated, received a total of 2 rows\n"))
      << text;
}

TEST(ResultPrinterTest, WidthsFromTypesFollowFlinksRules) {
  BatchSchema schema({Field{.name = "a", .type = DataType::Int8()},
                      Field{.name = "b", .type = DataType::Int16()},
                      Field{.name = "c", .type = DataType::Decimal128(10, 2)},
                      Field{.name = "d", .type = DataType::Time64(TimeUnit::kMicro)},
                      Field{.name = "e", .type = DataType::Timestamp(TimeUnit::kMicro, false)},
                      Field{.name = "f", .type = DataType::Timestamp(TimeUnit::kNano, true)},
                      Field{.name = "a_long_column_name", .type = DataType::Bool()}});
  // TINYINT 3 digits + sign (but <NULL> needs 6), SMALLINT 5 + 1, DECIMAL(10, 2) 10 + 2,
  // TIME(6) 8 + 1 + 6, TIMESTAMP(6) 19 + 7, TIMESTAMP(9) 19 + 10, names wider than the type.
  EXPECT_EQ(WidthsFromTypes(schema, 30, true), (std::vector<int>{2, 6, 6, 12, 15, 26, 29, 18}));
}

// A Flink 1.15 SQL client session (streaming mode) as a user posted it: SELECT
// TO_TIMESTAMP('2022-09-05 18:51:44') (a TIMESTAMP(3)) and SELECT TIMESTAMP '2022-09-05 18:51:44'
// (a TIMESTAMP(0)) print three fraction digits and none, in columns 23 and 19 wide.
TEST(ResultPrinterTest, TimestampsShowTheirDeclaredPrecision) {
  const Value when = TimestampValue{1662403904000000, TimeUnit::kMicro, false};
  RecordBatch three = MakeBatch(
      {{"EXPR$0", DataType::Timestamp(TimeUnit::kMicro, false, 3), {when}}}, {RowKind::kInsert});
  EXPECT_EQ(Print({three}, true, {}),
            "+----+-------------------------+\n"
            "| op |                  EXPR$0 |\n"
            "+----+-------------------------+\n"
            "| +I | 2022-09-05 18:51:44.000 |\n"
            "+----+-------------------------+\n"
            "Received a total of 1 row\n");
  RecordBatch none = MakeBatch({{"a", DataType::Timestamp(TimeUnit::kMicro, false, 0), {when}}},
                               {RowKind::kInsert});
  EXPECT_EQ(Print({none}, true, {}),
            "+----+---------------------+\n"
            "| op |                   a |\n"
            "+----+---------------------+\n"
            "| +I | 2022-09-05 18:51:44 |\n"
            "+----+---------------------+\n"
            "Received a total of 1 row\n");
  EXPECT_EQ(Print({three}, true, {.mode = ResultMode::kChangelog}),
            "+I[2022-09-05 18:51:44.000]\n");
  EXPECT_EQ(Print({none}, false, {.mode = ResultMode::kJsonl}),
            "{\"a\":\"2022-09-05T18:51:44\"}\n");
  BatchSchema times({Field{.name = "t", .type = DataType::Time64(TimeUnit::kMicro, 0)},
                     Field{.name = "ts", .type = DataType::Timestamp(TimeUnit::kMicro, true, 3)}});
  // TIME(0) 8 wide, TIMESTAMP_LTZ(3) 19 + 4.
  EXPECT_EQ(WidthsFromTypes(times, 30, false), (std::vector<int>{8, 23}));
}

TEST(ResultPrinterTest, ChangelogModePrintsRowText) {
  RecordBatch batch = MakeBatch({{"name", DataType::String(), {"Bob", "Bob", "Bob"}},
                                 {"cnt", DataType::Int64(), {Value(1), Value(1), Value(2)}}},
                                {RowKind::kInsert, RowKind::kUpdateBefore, RowKind::kUpdateAfter});
  EXPECT_EQ(Print({batch}, true, {.mode = ResultMode::kChangelog}),
            "+I[Bob, 1]\n-U[Bob, 1]\n+U[Bob, 2]\n");
}

// Flink's Row#toString writes a null field as Java's "null": Row.ofKind(RowKind.INSERT, 2, null)
// prints +I[2, null] (RowUtils/StringUtils.arrayAwareToString); only the tableau shows <NULL>.
TEST(ResultPrinterTest, ChangelogRowTextWritesNullsAsJava) {
  RecordBatch batch = MakeBatch(
      {{"id", DataType::Int64(), {Value(int64_t{2})}}, {"data", DataType::String(), {Value()}}},
      {RowKind::kInsert});
  EXPECT_EQ(Print({batch}, true, {.mode = ResultMode::kChangelog}), "+I[2, null]\n");
}

TEST(ResultPrinterTest, JsonlRowsParseBackWithTheirOp) {
  RecordBatch batch = MakeBatch({{"id", DataType::Int64(), {Value(int64_t{9007199254740993})}},
                                 {"data", DataType::String(), {"a \"quoted\" text"}},
                                 {"missing", DataType::Int32(), {Value()}}},
                                {RowKind::kDelete});
  std::string text = Print({batch}, true, {.mode = ResultMode::kJsonl});
  ASSERT_TRUE(text.ends_with("\n"));
  auto json = Json::Parse(text.substr(0, text.size() - 1));
  ASSERT_TRUE(json.has_value()) << text;
  EXPECT_EQ(json->GetString("op").value_or(""), "-D");
  EXPECT_EQ(json->GetInt("id").value_or(0), 9007199254740993);
  EXPECT_EQ(json->GetString("data").value_or(""), "a \"quoted\" text");
  ASSERT_NE(json->Find("missing"), nullptr);
  EXPECT_TRUE(json->Find("missing")->is_null());

  // A bounded result has no "op".
  RecordBatch plain = MakeBatch({{"id", DataType::Int64(), {Value(1)}}});
  EXPECT_EQ(Print({plain}, false, {.mode = ResultMode::kJsonl}), "{\"id\":1}\n");
}

}  // namespace
}  // namespace floe::cli
