#include "floe/format/avro/batch_encoder.h"

#include <gtest/gtest.h>

#include "floe/batch/builder.h"
#include "floe/format/avro/batch_decoder.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/read_plan.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

constexpr const char* kSchema = R"({"type":"record","name":"row","fields":[
  {"name":"i","type":"int"},
  {"name":"l","type":["null","long"]},
  {"name":"s","type":["string","null"]},
  {"name":"b","type":"bytes"},
  {"name":"f","type":{"type":"fixed","name":"f3","size":3}},
  {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
  {"name":"decf","type":["null",{"type":"fixed","name":"d8","size":8,"logicalType":"decimal",
                                 "precision":18,"scale":3}]},
  {"name":"ints","type":{"type":"array","items":["null","int"]}},
  {"name":"m","type":{"type":"map","values":"double"}},
  {"name":"kv","type":{"type":"array","logicalType":"map","items":{"type":"record","name":"kv",
     "fields":[{"name":"key","type":"int"},{"name":"value","type":["null","string"]}]}}},
  {"name":"r","type":["null",{"type":"record","name":"inner","fields":[
     {"name":"x","type":"float"},{"name":"ok","type":"boolean"}]}]},
  {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false}},
  {"name":"day","type":{"type":"int","logicalType":"date"}}]})";

// Rows as Avro JSON values (bytes as one code point per byte), made into Datums by the same rules
// as schema defaults.
std::vector<std::string> kRows = {
    R"({"i":1,"l":null,"s":"a","b":"","f":"abc","dec":"\u0001\u00e2","decf":null,"ints":[],
        "m":{},"kv":[],"r":null,"ts":0,"day":0})",
    R"({"i":-2147483648,"l":9223372036854775807,"s":null,"b":"\u0000\u00ff","f":"\u0000\u0001\u0002",
        "dec":"\u00ff\u0038","decf":"\u0000\u0000\u0000\u0000\u0000\u0000\u0030\u0039",
        "ints":[1,null,3],"m":{"x":1.5,"y":-0.25},"kv":[{"key":7,"value":"seven"},
        {"key":-1,"value":null}],"r":{"x":2.5,"ok":true},"ts":-1,"day":-719162})",
    R"({"i":2147483647,"l":-9223372036854775808,"s":"h\u00e9","b":"xyz","f":"zzz","dec":"\u0000",
        "decf":"\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u0085","ints":[null],"m":{"k":0.5},
        "kv":[{"key":0,"value":""}],"r":{"x":-0.5,"ok":false},"ts":1700000000000000,
        "day":2932896})"};

std::string WriteFile(const std::shared_ptr<const Schema>& schema,
                      const std::function<Status(ContainerWriter&)>& body) {
  std::string out;
  ContainerWriteOptions options;
  options.codec = AvroCodec::kNull;
  options.sync = std::array<std::byte, kSyncSize>{};
  auto writer = ContainerWriter::Open(
      schema,
      [&out](std::span<const std::byte> b) {
        out.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      options);
  EXPECT_TRUE(writer.has_value());
  Status s = body(**writer);
  EXPECT_TRUE(s.has_value()) << s.error().ToString();
  EXPECT_TRUE((*writer)->Close().has_value());
  return out;
}

// Records written one Datum at a time, decoded into a batch and encoded back column by column,
// give the same file byte for byte.
TEST(BatchEncoderTest, EncodesWhatTheGenericWriterEncodes) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(kSchema));
  std::vector<Datum> datums;
  for (const std::string& row : kRows) {
    FLOE_ASSERT_OK_AND_ASSIGN(Json json, Json::Parse(row));
    FLOE_ASSERT_OK_AND_ASSIGN(Datum d, DefaultToDatum(schema->root(), json));
    datums.push_back(std::move(d));
  }
  std::string generic = WriteFile(schema, [&](ContainerWriter& w) -> Status {
    for (const Datum& d : datums) FLOE_RETURN_IF_ERROR(w.Append(d));
    return Ok();
  });

  FLOE_ASSERT_OK_AND_ASSIGN(auto reader,
                            ContainerReader::Open(std::as_bytes(std::span(generic)), "generic"));
  FLOE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, ToBatchType(schema->root()));
  auto builder = MakeBuilder(type);
  FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->NextBlock());
  ASSERT_TRUE(more);
  Decoder d(reader->block_data());
  FLOE_ASSERT_OK(DecodeToBuilder(reader->resolved().root(), d, reader->block_count(), *builder));
  FLOE_ASSERT_OK_AND_ASSIGN(floe::Array rows, builder->Finish());
  std::vector<floe::Array> columns;
  for (int c = 0; c < rows.num_children(); ++c) columns.push_back(rows.field(c));
  auto batch_schema = std::make_shared<const BatchSchema>(type->fields());
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(batch_schema, columns));

  FLOE_ASSERT_OK_AND_ASSIGN(auto encoder, BatchEncoder::Make(schema->root(), *batch_schema));
  std::string columnar = WriteFile(schema, [&](ContainerWriter& w) -> Status {
    // Twice the same rows through one encoder, in two slices.
    FLOE_RETURN_IF_ERROR(encoder->Write(batch.Slice(0, 1), w));
    return encoder->Write(batch.Slice(1, 2), w);
  });
  EXPECT_EQ(columnar, generic);
}

TEST(BatchEncoderTest, RejectsColumnsThatDoNotFit) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"a","type":"long"},{"name":"b","type":"string"}]})"));
  BatchSchema wrong_type(
      {{.name = "a", .type = DataType::Int32()}, {.name = "b", .type = DataType::String()}});
  auto made = BatchEncoder::Make(schema->root(), wrong_type);
  ASSERT_FALSE(made.has_value());
  EXPECT_NE(made.error().message().find("a: a int32 column"), std::string::npos)
      << made.error().message();
  BatchSchema too_few({{.name = "a", .type = DataType::Int64()}});
  EXPECT_FALSE(BatchEncoder::Make(schema->root(), too_few).has_value());

  // A null where the Avro type has no null branch fails and drops only that row.
  auto fits = std::make_shared<const BatchSchema>(std::vector<floe::Field>{
      {.name = "a", .type = DataType::Int64()}, {.name = "b", .type = DataType::String()}});
  Int64Builder a;
  a.Append(1);
  a.AppendNull();
  StringBuilder b(DataType::String());
  b.Append("x");
  b.Append("y");
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(fits, {*a.Finish(), *b.Finish()}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto encoder, BatchEncoder::Make(schema->root(), *fits));
  int64_t records = 0;
  std::string out = WriteFile(schema, [&](ContainerWriter& w) -> Status {
    Status s = encoder->Write(batch, w);
    EXPECT_FALSE(s.has_value());
    if (!s.has_value()) {
      EXPECT_NE(s.error().message().find("row 1"), std::string::npos) << s.error().message();
    }
    records = w.records_written();
    return Ok();
  });
  EXPECT_EQ(records, 1);
}

}  // namespace
}  // namespace floe::avro
