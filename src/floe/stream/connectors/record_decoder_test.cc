#include "floe/stream/connectors/record_decoder.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

BatchSchemaPtr Schema() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false},
      {"name", DataType::String()},
      {"at", DataType::Timestamp(TimeUnit::kMicro, false)},
  });
}

// Each row as "<kind> <json cells>", the kinds spelt +I, -U, +U, -D.
std::vector<std::string> Rows(RecordDecoder& decoder) {
  std::vector<std::string> rows;
  auto batch = decoder.Finish();
  EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
  if (!batch || !*batch) return rows;
  for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
    std::string text(RowKindSymbol((*batch)->row_kind(r)));
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      text += c == 0 ? " " : ",";
      AppendJson((*batch)->column(c), r, text);
    }
    rows.push_back(std::move(text));
  }
  return rows;
}

std::unique_ptr<RecordDecoder> Make(std::string_view format,
                                    std::map<std::string, std::string> options = {},
                                    BatchSchemaPtr schema = Schema()) {
  auto decoder = RecordDecoder::Make(format, std::move(schema), options);
  EXPECT_TRUE(decoder.has_value()) << decoder.error().ToString();
  return decoder ? std::move(*decoder) : nullptr;
}

TEST(RecordDecoderTest, JsonTakesMembersByNameInEitherTimestampStandard) {
  auto decoder = Make("json");
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(R"({"name": "a", "id": 1, "at": "2024-03-01 10:00:00", "x": 7})"));
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 2, "at": "2024-03-01T10:00:01.5"})"));
  FLOE_ASSERT_OK(decoder->Decode(std::nullopt));  // a tombstone: no row
  EXPECT_EQ(decoder->rows(), 2);
  EXPECT_EQ(Rows(*decoder),
            (std::vector<std::string>{R"(+I 1,"a","2024-03-01T10:00:00.000000")",
                                      R"(+I 2,null,"2024-03-01T10:00:01.500000")"}));
}

TEST(RecordDecoderTest, JsonFailsOnMalformedRecordsUnlessIgnoring) {
  auto strict = Make("json");
  ASSERT_TRUE(strict);
  EXPECT_FALSE(strict->Decode("{\"id\": 1,"));
  EXPECT_FALSE(strict->Decode("[1, 2]"));
  auto bad_cell = strict->Decode(R"({"id": "one"})");
  ASSERT_FALSE(bad_cell);
  EXPECT_NE(bad_cell.error().message().find("column id"), std::string::npos)
      << bad_cell.error().message();
  auto null_key = strict->Decode(R"({"name": "no id"})");
  ASSERT_FALSE(null_key);
  EXPECT_NE(null_key.error().message().find("not nullable"), std::string::npos);
  // The failed rows left nothing behind.
  FLOE_ASSERT_OK(strict->Decode(R"({"id": 3})"));
  EXPECT_EQ(Rows(*strict), (std::vector<std::string>{"+I 3,null,null"}));

  auto lenient = Make("json", {{"json.ignore-parse-errors", "true"}});
  ASSERT_TRUE(lenient);
  FLOE_ASSERT_OK(lenient->Decode("{\"id\": 1,"));
  FLOE_ASSERT_OK(lenient->Decode(R"({"id": 2, "name": "b"})"));
  FLOE_ASSERT_OK(lenient->Decode(R"({"id": "two", "name": "c"})"));
  FLOE_ASSERT_OK(lenient->Decode(R"({"name": "d"})"));
  EXPECT_EQ(lenient->skipped(), 3);
  EXPECT_EQ(Rows(*lenient), (std::vector<std::string>{R"(+I 2,"b",null)"}));
}

TEST(RecordDecoderTest, JsonFailOnMissingField) {
  auto decoder = Make("json", {{"json.fail-on-missing-field", "true"}});
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 1, "name": null, "at": null})"));
  auto missing = decoder->Decode(R"({"id": 2, "name": "x"})");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("field 'at' is missing"), std::string::npos)
      << missing.error().message();
  EXPECT_FALSE(RecordDecoder::Make(
      "json", Schema(),
      {{"json.fail-on-missing-field", "true"}, {"json.ignore-parse-errors", "true"}}));
}

TEST(RecordDecoderTest, CsvByPositionWithDelimiterAndQuotes) {
  auto decoder = Make("csv", {{"csv.field-delimiter", "|"}});
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode("1|\"a|b\"|2024-03-01 10:00:00\n"));
  FLOE_ASSERT_OK(decoder->Decode("2||"));
  EXPECT_FALSE(decoder->Decode("3|x"));
  EXPECT_FALSE(decoder->Decode("4|\"open|"));
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{R"(+I 1,"a|b","2024-03-01T10:00:00.000000")",
                                                      "+I 2,null,null"}));
  auto lenient = Make("csv", {{"csv.ignore-parse-errors", "true"}});
  ASSERT_TRUE(lenient);
  FLOE_ASSERT_OK(lenient->Decode("x,y,z"));
  FLOE_ASSERT_OK(lenient->Decode("5,e,"));
  EXPECT_EQ(lenient->skipped(), 1);
  EXPECT_EQ(Rows(*lenient), (std::vector<std::string>{R"(+I 5,"e",null)"}));
}

TEST(RecordDecoderTest, RawIsTheRecordAsItsOneColumn) {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{{"line", DataType::String()}});
  auto decoder = Make("raw", {}, schema);
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode("not {json}, not csv"));
  FLOE_ASSERT_OK(decoder->Decode(std::nullopt));
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{R"(+I "not {json}, not csv")", "+I null"}));
  EXPECT_FALSE(RecordDecoder::Make("raw", Schema(), {}));
}

// Records encoded by hand from the Avro specification's binary encoding: longs as zig-zag varints
// (1 is 0x02, -2 is 0x03), a union as its branch index (0: null, 1: the value) then the value,
// a string as its length then its bytes.
std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

TEST(RecordDecoderTest, AvroIsTheTablesRecordInPlainBinary) {
  auto decoder = Make("avro");
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(Bytes({0x02, 0x02, 0x02, 'a', 0x00})));
  FLOE_ASSERT_OK(decoder->Decode(Bytes({0x03, 0x00, 0x02, 0x02})));
  FLOE_ASSERT_OK(decoder->Decode(std::nullopt));  // a tombstone: no row
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{
                                R"(+I 1,"a",null)", R"(+I -2,null,"1970-01-01T00:00:00.000001")"}));
}

TEST(RecordDecoderTest, AvroFailsOnMalformedRecordsUnlessIgnoring) {
  const std::string good = Bytes({0x02, 0x02, 0x02, 'a', 0x00});
  const std::vector<std::string> bad = {
      Bytes({0x02, 0x04}),                  // union branch 2 of 2
      Bytes({0x02, 0x02, 0x10, 'a'}),       // a string of 8 bytes, 1 there
      good + Bytes({0x00}),                 // a byte after the record
      Bytes({0x02, 0x02, 0x02, 'a', 0x02})  // cut in the timestamp
  };
  auto strict = Make("avro");
  ASSERT_TRUE(strict);
  for (const std::string& record : bad) EXPECT_FALSE(strict->Decode(record));

  auto lenient = Make("avro", {{"avro.ignore-parse-errors", "true"}});
  ASSERT_TRUE(lenient);
  FLOE_ASSERT_OK(lenient->Decode(good));
  for (const std::string& record : bad) FLOE_ASSERT_OK(lenient->Decode(record));
  FLOE_ASSERT_OK(lenient->Decode(Bytes({0x03, 0x00, 0x00})));
  EXPECT_EQ(lenient->skipped(), 4);
  EXPECT_EQ(Rows(*lenient), (std::vector<std::string>{R"(+I 1,"a",null)", R"(+I -2,null,null)"}));
}

TEST(RecordDecoderTest, AvroRefusesColumnsWithoutAnAvroForm) {
  for (const DataTypePtr& type :
       {DataType::Int16(), DataType::Timestamp(TimeUnit::kMicro, false, 3)}) {
    auto schema = std::make_shared<BatchSchema>(std::vector<Field>{{"c", type}});
    auto decoder = RecordDecoder::Make("avro", schema, {});
    ASSERT_FALSE(decoder) << type->ToString();
    EXPECT_NE(decoder.error().message().find("column c"), std::string::npos)
        << decoder.error().message();
  }
}

TEST(RecordDecoderTest, DebeziumJsonGivesChanges) {
  auto decoder = Make("debezium-json");
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(
      decoder->Decode(R"({"before": null, "after": {"id": 1, "name": "a"}, "op": "c"})"));
  FLOE_ASSERT_OK(
      decoder->Decode(R"({"before": null, "after": {"id": 2, "name": "b"}, "op": "r"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"before": {"id": 1, "name": "a"}, "after": {"id": 1, "name": "A"}, "op": "u"})"));
  FLOE_ASSERT_OK(
      decoder->Decode(R"({"before": {"id": 2, "name": "b"}, "after": null, "op": "d"})"));
  FLOE_ASSERT_OK(decoder->Decode(std::nullopt));  // Debezium's tombstone after a delete
  EXPECT_EQ(Rows(*decoder),
            (std::vector<std::string>{R"(+I 1,"a",null)", R"(+I 2,"b",null)", R"(-U 1,"a",null)",
                                      R"(+U 1,"A",null)", R"(-D 2,"b",null)"}));
  auto no_before = decoder->Decode(R"({"before": null, "after": {"id": 1}, "op": "u"})");
  ASSERT_FALSE(no_before);
  EXPECT_NE(no_before.error().message().find("REPLICA IDENTITY FULL"), std::string::npos);
  EXPECT_FALSE(decoder->Decode(R"({"after": {"id": 1}, "op": "x"})"));
  EXPECT_FALSE(decoder->Decode(R"({"after": {"id": 1}})"));
}

TEST(RecordDecoderTest, DebeziumUpdateIsBothRowsOrNeither) {
  auto decoder = Make("debezium-json", {{"debezium-json.ignore-parse-errors", "true"},
                                        {"debezium-json.schema-include", "true"}});
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"schema": {}, "payload": {"before": {"id": 1}, "after": {"id": "x"}, "op": "u"}})"));
  FLOE_ASSERT_OK(decoder->Decode(R"({"before": null, "after": {"id": 5}, "op": "c"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"schema": {}, "payload": {"before": {"id": 3}, "after": {"id": 4}, "op": "u"}})"));
  EXPECT_EQ(decoder->skipped(), 2);
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{"-U 3,null,null", "+U 4,null,null"}));
}

BatchSchemaPtr Products() {
  return std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64(), false},
      {"name", DataType::String()},
      {"weight", DataType::String()},
  });
}

// The UPDATE event of Flink's canal-json page (values as strings, "old" with the changed member
// only), and an INSERT of two rows and a DELETE in the same shape.
TEST(RecordDecoderTest, CanalJsonGivesChanges) {
  auto decoder = Make("canal-json", {}, Products());
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"111","name":"scooter","weight":"5.15"},{"id":"112","name":"car","weight":"8.1"}],)"
      R"("database":"inventory","es":1589373515000,"id":3,"isDdl":false,"old":null,)"
      R"("pkNames":["id"],"table":"products","ts":1589373515477,"type":"INSERT"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"111","name":"scooter","weight":"5.18"}],"database":"inventory",)"
      R"("es":1589373560000,"id":9,"isDdl":false,"old":[{"weight":"5.15"}],"pkNames":["id"],)"
      R"("sql":"","table":"products","ts":1589373560798,"type":"UPDATE"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"112","name":"car","weight":"8.1"}],"database":"inventory","isDdl":false,)"
      R"("old":null,"table":"products","type":"DELETE"})"));
  // A schema change carries no rows.
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":null,"database":"inventory","isDdl":true,"sql":"CREATE TABLE x AS a",)"
      R"("table":"x","type":"CREATE"})"));
  EXPECT_EQ(Rows(*decoder),
            (std::vector<std::string>{R"(+I 111,"scooter","5.15")", R"(+I 112,"car","8.1")",
                                      R"(-U 111,"scooter","5.15")", R"(+U 111,"scooter","5.18")",
                                      R"(-D 112,"car","8.1")"}));
  auto no_old = decoder->Decode(R"({"data":[{"id":"1"}],"old":null,"type":"UPDATE"})");
  ASSERT_FALSE(no_old);
  EXPECT_NE(no_old.error().message().find("\"old\""), std::string::npos);
  EXPECT_FALSE(decoder->Decode(R"({"data":[{"id":"1"}]})"));
  EXPECT_FALSE(decoder->Decode(R"({"data":[{"id":"1"}],"type":"TRUNCATE"})"));
  EXPECT_FALSE(decoder->Decode(R"({"data":{"id":"1"},"type":"INSERT"})"));
}

TEST(RecordDecoderTest, CanalJsonFiltersAndSkipsWholeRecords) {
  auto decoder = Make("canal-json",
                      {{"canal-json.ignore-parse-errors", "true"},
                       {"canal-json.database.include", "inv.*"},
                       {"canal-json.table.include", "products"}},
                      Products());
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"1"}],"database":"other","table":"products","type":"INSERT"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"2"}],"database":"inventory","table":"orders","type":"INSERT"})"));
  // The second item fails: the record gives no row at all.
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"3"},{"id":"x"}],"database":"inventory","table":"products","type":"INSERT"})"));
  FLOE_ASSERT_OK(decoder->Decode(
      R"({"data":[{"id":"4"}],"database":"inventory","table":"products","type":"INSERT"})"));
  EXPECT_EQ(decoder->skipped(), 1);
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{"+I 4,null,null"}));
  EXPECT_FALSE(RecordDecoder::Make("canal-json", Products(), {{"canal-json.table.include", "("}}));
}

// floe_record_decoder_fuzz's finding (fuzz/record_decoder/regressions/): names of 100000
// characters overflowed the stack of std::regex's default matcher. The patterns must still
// match them: only the record with an "inv..." database and a "products" table gives a row.
TEST(RecordDecoderTest, CanalJsonPatternsMatchLongNames) {
  std::string input = testing::ReadFileOrDie(
      "src/floe/stream/connectors/fuzz/record_decoder/regressions/canal_long_names.jsonl");
  auto decoder = Make("canal-json",
                      {{"canal-json.ignore-parse-errors", "true"},
                       {"canal-json.database.include", "inv.*"},
                       {"canal-json.table.include", "prod(ucts)?|orders"}},
                      Products());
  ASSERT_TRUE(decoder);
  // Byte 0 picks the fuzz target's format; each line after it is one record.
  std::istringstream lines(input.substr(1));
  int records = 0;
  for (std::string line; std::getline(lines, line); ++records) {
    FLOE_ASSERT_OK(decoder->Decode(line));
  }
  EXPECT_EQ(records, 3);
  EXPECT_EQ(decoder->skipped(), 0);
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{"+I 1,null,null"}));
  // The breadth-first matcher has no back-references: such a pattern is refused when made.
  EXPECT_FALSE(
      RecordDecoder::Make("canal-json", Products(), {{"canal-json.table.include", "(a)\\1"}}));
}

TEST(RecordDecoderTest, LeaveOutFromDropsTheLastRows) {
  auto decoder = Make("json");
  ASSERT_TRUE(decoder);
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 1})"));
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 2})"));
  decoder->LeaveOutFrom(1);
  EXPECT_EQ(decoder->rows(), 1);
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 3})"));
  EXPECT_EQ(Rows(*decoder), (std::vector<std::string>{"+I 1,null,null", "+I 3,null,null"}));
  FLOE_ASSERT_OK(decoder->Decode(R"({"id": 4})"));
  decoder->LeaveOutFrom(0);
  EXPECT_EQ(Rows(*decoder), std::vector<std::string>{});
}

TEST(RecordDecoderTest, RefusesUnknownFormatsAndOptions) {
  EXPECT_FALSE(RecordDecoder::Make("avro-confluent", Schema(), {}));
  auto unknown = RecordDecoder::Make("json", Schema(), {{"json.no-such-option", "1"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("json.no-such-option"), std::string::npos);
  EXPECT_FALSE(RecordDecoder::Make("json", Schema(), {{"json.ignore-parse-errors", "yes"}}));
  EXPECT_FALSE(RecordDecoder::Make("json", Schema(), {{"json.timestamp-format.standard", "X"}}));
  EXPECT_FALSE(RecordDecoder::Make("csv", Schema(), {{"csv.field-delimiter", ",,"}}));
  // Options of other formats are not this one's business.
  EXPECT_TRUE(RecordDecoder::Make("csv", Schema(), {{"json.ignore-parse-errors", "yes"}}));
}

}  // namespace
}  // namespace floe::stream
