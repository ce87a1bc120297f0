#include "floe/format/avro/read_plan.h"

#include <gtest/gtest.h>

#include "floe/format/avro/datum_io.h"
#include "floe/format/avro/datum_json.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

// Encodes datum with the writer schema, reads it back as the reader schema, returns it as JSON.
Result<Json> Resolve(const std::string& writer_json, const Datum& datum,
                     const std::string& reader_json) {
  FLOE_ASSIGN_OR_RETURN(auto writer, Schema::Parse(writer_json));
  FLOE_ASSIGN_OR_RETURN(auto reader, Schema::Parse(reader_json));
  Encoder e;
  FLOE_RETURN_IF_ERROR(WriteDatum(writer->root(), datum, e));
  FLOE_ASSIGN_OR_RETURN(auto resolved, ResolvedSchema::Make(writer, reader));
  Decoder d(std::as_bytes(std::span(e.buffer())));
  Datum out;
  FLOE_RETURN_IF_ERROR(ReadDatum(resolved->root(), d, out));
  if (!d.at_end()) return InternalError("{} bytes left", d.remaining());
  return DatumToJson(reader->root(), out);
}

TEST(ReadPlanTest, Promotions) {
  EXPECT_EQ(Resolve(R"("int")", Datum(-5), R"("long")")->Dump(), "-5");
  EXPECT_EQ(Resolve(R"("int")", Datum(3), R"("float")")->Dump(), "3.0");
  EXPECT_EQ(Resolve(R"("int")", Datum(3), R"("double")")->Dump(), "3.0");
  EXPECT_EQ(Resolve(R"("long")", Datum(int64_t{1} << 40), R"("double")")->Dump(),
            "1099511627776.0");
  EXPECT_EQ(Resolve(R"("float")", Datum(0.5f), R"("double")")->Dump(), "0.5");
  EXPECT_EQ(Resolve(R"("string")", Datum(std::string("ab")), R"("bytes")")->Dump(), "\"6162\"");
  EXPECT_EQ(Resolve(R"("bytes")", Datum(Bytes{"ab"}), R"("string")")->Dump(), "\"ab\"");
  // Not allowed: narrowing, or unrelated types.
  EXPECT_FALSE(Resolve(R"("long")", Datum(int64_t{1}), R"("int")").has_value());
  EXPECT_FALSE(Resolve(R"("double")", Datum(1.0), R"("float")").has_value());
  EXPECT_FALSE(Resolve(R"("string")", Datum(std::string("x")), R"("int")").has_value());
  EXPECT_FALSE(Resolve(R"({"type":"fixed","name":"f","size":2})", Datum(Bytes{"ab"}),
                       R"({"type":"fixed","name":"f","size":3})")
                   .has_value());
}

TEST(ReadPlanTest, RecordsByNameAliasesAndDefaults) {
  std::string writer = R"({"type":"record","name":"r","fields":[
      {"name":"a","type":"int"},{"name":"dropped","type":{"type":"array","items":"string"}},
      {"name":"old_name","type":"string"}]})";
  Datum datum(Record{{Datum(1), Datum(Array{{Datum(std::string("x"))}}), Datum(std::string("v"))}});
  std::string reader = R"({"type":"record","name":"r","fields":[
      {"name":"new_name","type":"string","aliases":["old_name"]},
      {"name":"a","type":"long"},
      {"name":"added","type":"int","default":42},
      {"name":"opt","type":["null","string"]},
      {"name":"rec","type":{"type":"record","name":"in","fields":[{"name":"z","type":"boolean"}]},"default":{"z":true}}]})";
  FLOE_ASSERT_OK_AND_ASSIGN(Json out, Resolve(writer, datum, reader));
  EXPECT_EQ(out.Dump(), R"({"new_name":"v","a":1,"added":42,"opt":null,"rec":{"z":true}})");
  // A reader field with neither a writer field nor a default cannot be read.
  EXPECT_FALSE(Resolve(writer, datum,
                       R"({"type":"record","name":"r","fields":[{"name":"missing","type":"int"}]})")
                   .has_value());
}

TEST(ReadPlanTest, IcebergFieldIdsWinOverNames) {
  // The column was renamed from "a" to "b" and a new "a" added: ids tell them apart.
  std::string writer = R"({"type":"record","name":"r","fields":[
      {"name":"a","type":"int","field-id":1},{"name":"c","type":"string","field-id":2}]})";
  std::string reader = R"({"type":"record","name":"r","fields":[
      {"name":"b","type":"int","field-id":1},{"name":"a","type":["null","int"],"field-id":3},
      {"name":"c","type":"string","field-id":2}]})";
  FLOE_ASSERT_OK_AND_ASSIGN(
      Json out, Resolve(writer, Datum(Record{{Datum(7), Datum(std::string("s"))}}), reader));
  EXPECT_EQ(out.Dump(), R"({"b":7,"a":null,"c":"s"})");
}

TEST(ReadPlanTest, Unions) {
  // Writer union to reader union, with the branches reordered and one promoted.
  FLOE_ASSERT_OK_AND_ASSIGN(
      Json a, Resolve(R"(["null","int"])", Datum(Union(1, Datum(5))), R"(["long","null"])"));
  EXPECT_EQ(a.Dump(), "5");
  // Writer plain type into a reader union.
  FLOE_ASSERT_OK_AND_ASSIGN(
      Json b, Resolve(R"("string")", Datum(std::string("s")), R"(["null","string"])"));
  EXPECT_EQ(b.Dump(), "\"s\"");
  // Writer union into a reader plain type: fine for the branch that matches, an error for the
  // other.
  FLOE_ASSERT_OK_AND_ASSIGN(Json c,
                            Resolve(R"(["null","int"])", Datum(Union(1, Datum(9))), R"("int")"));
  EXPECT_EQ(c.Dump(), "9");
  auto d = Resolve(R"(["null","int"])", Datum(Union(0, Datum())), R"("int")");
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.error().message().find("does not match the reader"), std::string::npos);
}

TEST(ReadPlanTest, EnumsBySymbolWithReaderDefault) {
  std::string writer = R"({"type":"enum","name":"e","symbols":["A","B","C"]})";
  std::string reader =
      R"({"type":"enum","name":"e","symbols":["C","A","UNKNOWN"],"default":"UNKNOWN"})";
  EXPECT_EQ(Resolve(writer, Datum(EnumValue{0}), reader)->Dump(), "\"A\"");
  EXPECT_EQ(Resolve(writer, Datum(EnumValue{1}), reader)->Dump(), "\"UNKNOWN\"");
  EXPECT_EQ(Resolve(writer, Datum(EnumValue{2}), reader)->Dump(), "\"C\"");
  std::string strict = R"({"type":"enum","name":"e","symbols":["A"]})";
  EXPECT_FALSE(Resolve(writer, Datum(EnumValue{1}), strict).has_value());
}

TEST(ReadPlanTest, RecursiveSchemas) {
  std::string schema = R"({"type":"record","name":"Node","fields":[
      {"name":"v","type":"int"},{"name":"next","type":["null","Node"]}]})";
  Datum list(
      Record{{Datum(1), Datum(Union(1, Datum(Record{{Datum(2), Datum(Union(0, Datum()))}})))}});
  FLOE_ASSERT_OK_AND_ASSIGN(Json out, Resolve(schema, list, schema));
  EXPECT_EQ(out.Dump(), R"({"v":1,"next":{"v":2,"next":null}})");
}

TEST(ReadPlanTest, HostileCountsAndNesting) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto nulls, Schema::Parse(R"({"type":"array","items":"null"})"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto resolved, ResolvedSchema::Make(nulls, nullptr));
  // An array claiming 2^62 null items: rejected by the item budget, not by running out of memory.
  Encoder e;
  e.WriteLong(int64_t{1} << 62);
  Decoder d(std::as_bytes(std::span(e.buffer())));
  Datum out;
  EXPECT_FALSE(ReadDatum(resolved->root(), d, out).has_value());
  // An array of longs claiming more items than there are bytes.
  FLOE_ASSERT_OK_AND_ASSIGN(auto longs, Schema::Parse(R"({"type":"array","items":"long"})"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto resolved_longs, ResolvedSchema::Make(longs, nullptr));
  Encoder f;
  f.WriteLong(1000);
  f.WriteLong(1);
  Decoder g(std::as_bytes(std::span(f.buffer())));
  auto status = ReadDatum(resolved_longs->root(), g, out);
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("count 1000"), std::string::npos);
  // A recursive type nested far deeper than any real data.
  FLOE_ASSERT_OK_AND_ASSIGN(auto deep, Schema::Parse(R"({"type":"record","name":"N","fields":[
      {"name":"next","type":["null","N"]}]})"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto resolved_deep, ResolvedSchema::Make(deep, nullptr));
  std::string bytes(100000, '\x02');
  Decoder h(std::as_bytes(std::span(bytes)));
  status = ReadDatum(resolved_deep->root(), h, out);
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("nested deeper"), std::string::npos);
}

TEST(ReadPlanTest, DefaultsOfEveryType) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"b","type":"bytes","default":"\u00ff\u0001"},
      {"name":"f","type":{"type":"fixed","name":"F","size":2},"default":"ab"},
      {"name":"m","type":{"type":"map","values":"long"},"default":{"k":1}},
      {"name":"a","type":{"type":"array","items":"double"},"default":[1.5]},
      {"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]},"default":"Y"},
      {"name":"u","type":["null","int"],"default":null}]})"));
  const Node& root = schema->root();
  std::vector<std::string> expected = {"\"ff01\"", "\"6162\"", R"([{"key":"k","value":1}])",
                                       "[1.5]",    "\"Y\"",    "null"};
  for (size_t i = 0; i < root.fields.size(); ++i) {
    FLOE_ASSERT_OK_AND_ASSIGN(Datum d,
                              DefaultToDatum(*root.fields[i].type, *root.fields[i].default_value));
    EXPECT_EQ(DatumToJson(*root.fields[i].type, d).Dump(), expected[i]) << root.fields[i].name;
  }
  EXPECT_FALSE(DefaultToDatum(*root.fields[1].type, Json("abc")).has_value());
  EXPECT_FALSE(DefaultToDatum(*root.fields[4].type, Json("Z")).has_value());
}

}  // namespace
}  // namespace floe::avro
