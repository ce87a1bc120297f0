// Avro data files: the Iceberg <-> Avro schema mapping against spec Appendix A, and round trips of
// every Iceberg type through files read back by floe and by an independent reader (avsc).

#include "floe/manifest/avro_data_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "floe/batch/builder.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/schema.h"
#include "floe/io/local_file_io.h"
#include "floe/manifest/avro_data_schema.h"
#include "floe/manifest/manifest_schema.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/calendar.h"

namespace floe::manifest {
namespace {

using namespace floe::types;

// Values in a plain form the tests build rows from and compare with: integers of every width as
// JSON integers, decimals as their unscaled value in decimal digits, fixed/binary/uuid as hex,
// structs as objects by field name, lists as arrays, maps as arrays of [key, value].
using Row = Json;

std::string Hex(std::string_view bytes) {
  std::string out;
  AppendHex(out, bytes);
  return out;
}

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

__int128 ParseInt128(const std::string& digits) {
  bool negative = !digits.empty() && digits[0] == '-';
  __int128 v = 0;
  for (size_t i = negative ? 1 : 0; i < digits.size(); ++i) v = v * 10 + (digits[i] - '0');
  return negative ? -v : v;
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  auto u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string out;
  while (u > 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + out : out;
}

void Append(const Type& type, const Json& v, ArrayBuilder& b) {
  if (v.is_null()) {
    b.AppendNull();
    return;
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      static_cast<BooleanBuilder&>(b).Append(v.as_bool());
      return;
    case TypeId::kInt:
    case TypeId::kDate:
      static_cast<Int32Builder&>(b).Append(static_cast<int32_t>(v.as_int()));
      return;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      static_cast<Int64Builder&>(b).Append(v.as_int());
      return;
    case TypeId::kFloat:
      static_cast<Float32Builder&>(b).Append(static_cast<float>(v.as_double()));
      return;
    case TypeId::kDouble:
      static_cast<Float64Builder&>(b).Append(v.as_double());
      return;
    case TypeId::kDecimal:
      static_cast<Decimal128Builder&>(b).Append(ParseInt128(v.as_string()));
      return;
    case TypeId::kString:
      static_cast<StringBuilder&>(b).Append(v.as_string());
      return;
    case TypeId::kBinary:
      static_cast<StringBuilder&>(b).Append(Unhex(v.as_string()));
      return;
    case TypeId::kUuid:
    case TypeId::kFixed:
      static_cast<FixedSizeBinaryBuilder&>(b).Append(Unhex(v.as_string()));
      return;
    case TypeId::kStruct: {
      auto& sb = static_cast<StructBuilder&>(b);
      const auto& fields = static_cast<const StructType&>(type).fields();
      for (size_t i = 0; i < fields.size(); ++i) {
        const Json* f = v.Find(fields[i].name);
        Append(*fields[i].type, f ? *f : Json(), *sb.field_builder(static_cast<int>(i)));
      }
      sb.Append();
      return;
    }
    case TypeId::kList: {
      auto& lb = static_cast<ListBuilder&>(b);
      lb.Append();
      for (const Json& item : v.as_array()) {
        Append(*static_cast<const ListType&>(type).element().type, item, *lb.value_builder());
      }
      return;
    }
    case TypeId::kMap: {
      auto& mb = static_cast<MapBuilder&>(b);
      const auto& map = static_cast<const MapType&>(type);
      mb.Append();
      for (const Json& kv : v.as_array()) {
        Append(*map.key().type, kv.as_array()[0], *mb.key_builder());
        Append(*map.value().type, kv.as_array()[1], *mb.item_builder());
      }
      return;
    }
    default:
      FAIL() << "no test form for " << type.ToString();
  }
}

Json Render(const Type& type, const floe::Array& a, int64_t i) {
  if (a.IsNull(i)) return Json();
  switch (type.id()) {
    case TypeId::kBoolean:
      return Json(a.GetBool(i));
    case TypeId::kInt:
    case TypeId::kDate:
      return Json(int64_t{a.Value<int32_t>(i)});
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Json(a.Value<int64_t>(i));
    case TypeId::kFloat:
      return Json(static_cast<double>(a.Value<float>(i)));
    case TypeId::kDouble:
      return Json(a.Value<double>(i));
    case TypeId::kDecimal:
      return Json(Int128ToString(a.GetDecimal(i)));
    case TypeId::kString:
      return Json(std::string(a.GetView(i)));
    case TypeId::kBinary:
    case TypeId::kUuid:
    case TypeId::kFixed:
      return Json(Hex(a.GetView(i)));
    case TypeId::kStruct: {
      Json out = Json::MakeObject();
      const auto& fields = static_cast<const StructType&>(type).fields();
      for (size_t f = 0; f < fields.size(); ++f) {
        out.Set(fields[f].name, Render(*fields[f].type, a.field(static_cast<int>(f)), i));
      }
      return out;
    }
    case TypeId::kList: {
      Json out = Json::MakeArray();
      for (int64_t k = a.ValueOffset(i); k < a.ValueOffset(i + 1); ++k) {
        out.Push(Render(*static_cast<const ListType&>(type).element().type, a.list_values(), k));
      }
      return out;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      Json out = Json::MakeArray();
      for (int64_t k = a.ValueOffset(i); k < a.ValueOffset(i + 1); ++k) {
        Json kv = Json::MakeArray();
        kv.Push(Render(*map.key().type, a.list_values().child(0), k));
        kv.Push(Render(*map.value().type, a.list_values().child(1), k));
        out.Push(std::move(kv));
      }
      return out;
    }
    default:
      return Json("?");
  }
}

// The test form as avro-cat prints the Avro value: plain longs as strings (avro-cat keeps 64 bits
// only for the "long" spelling, so longs with a logical type are JS numbers), fixed and bytes as
// hex (decimals as the big-endian bytes of their fixed), unions unwrapped, string-keyed maps as
// objects and other maps as arrays of {"key", "value"} records, fields by their Avro names.
Json PeerForm(const Type& type, const Json& v) {
  if (v.is_null()) return v;
  switch (type.id()) {
    case TypeId::kLong:
      return Json(std::to_string(v.as_int()));
    case TypeId::kDecimal: {
      int size = DecimalBytes(static_cast<const PrimitiveType&>(type).precision());
      auto u = static_cast<unsigned __int128>(ParseInt128(v.as_string()));
      std::string bytes(static_cast<size_t>(size), '\0');
      for (int k = size - 1; k >= 0; --k, u >>= 8) {
        bytes[static_cast<size_t>(k)] = static_cast<char>(static_cast<uint8_t>(u & 0xFF));
      }
      return Json(Hex(bytes));
    }
    case TypeId::kStruct: {
      Json out = Json::MakeObject();
      for (const NestedField& f : static_cast<const StructType&>(type).fields()) {
        const Json* x = v.Find(f.name);
        std::string name = f.name == "my col" ? "my_x20col" : f.name;
        out.Set(name, PeerForm(*f.type, x ? *x : Json()));
      }
      return out;
    }
    case TypeId::kList: {
      Json out = Json::MakeArray();
      for (const Json& item : v.as_array()) {
        out.Push(PeerForm(*static_cast<const ListType&>(type).element().type, item));
      }
      return out;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      bool string_keys = map.key().type->id() == TypeId::kString;
      Json out = string_keys ? Json::MakeObject() : Json::MakeArray();
      for (const Json& kv : v.as_array()) {
        Json value = PeerForm(*map.value().type, kv.as_array()[1]);
        if (string_keys) {
          out.Set(kv.as_array()[0].as_string(), std::move(value));
        } else {
          Json entry = Json::MakeObject();
          entry.Set("key", PeerForm(*map.key().type, kv.as_array()[0]));
          entry.Set("value", std::move(value));
          out.Push(std::move(entry));
        }
      }
      return out;
    }
    default:
      return v;
  }
}

SchemaPtr EveryTypeSchema() {
  auto point = StructType::Make({Required(20, "x", Double()), Optional(21, "label", String())});
  auto entry = StructType::Make({Required(36, "x", Double()), Optional(37, "label", String())});
  return *Schema::Make({
      Required(1, "id", Long()),
      Optional(2, "flag", Boolean()),
      Optional(3, "small", Int()),
      Optional(4, "ratio", Float()),
      Optional(5, "amount", Double()),
      Optional(6, "price", Decimal(9, 2)),
      Required(7, "big", Decimal(18, 6)),
      Optional(8, "huge", Decimal(38, 10)),
      Optional(9, "day", Date()),
      Optional(10, "clock", Time()),
      Optional(11, "ts", Timestamp()),
      Optional(12, "tstz", TimestampTz()),
      Optional(13, "ts_ns", TimestampNs()),
      Optional(14, "tstz_ns", TimestampTzNs()),
      Optional(15, "name", String()),
      Optional(16, "uid", Uuid()),
      Optional(17, "code", Fixed(3)),
      Optional(18, "blob", Binary()),
      Optional(19, "point", point),
      Optional(23, "tags", ListType::Make(24, String(), true)),
      Optional(25, "props", MapType::Make(26, String(), 27, Long(), true)),
      Optional(28, "by_id", MapType::Make(29, Int(), 30, entry, false)),
      Optional(31, "my col", Int()),
      Optional(32, "price2", Decimal(9, 2)),
      Required(33, "matrix", ListType::Make(34, ListType::Make(35, Int(), false), false)),
  });
}

// Row r of the every-type table; optional values are null on every 5th row.
Json EveryTypeRow(int r) {
  bool null = r % 5 == 4;
  auto opt = [null](Json v) { return null ? Json() : v; };
  Json row = Json::MakeObject();
  row.Set("id", Json(int64_t{-4611686018427387904} + r * int64_t{1000000007}));
  row.Set("flag", opt(Json(r % 2 == 0)));
  row.Set("small", opt(Json(int64_t{r % 3 == 0 ? INT32_MIN + r : INT32_MAX - r})));
  row.Set("ratio", opt(Json(r + 0.25)));
  row.Set("amount", opt(Json(-1e300 / (r + 1) + 0.5)));
  row.Set("price", opt(Json(std::to_string(r % 2 ? -999999999 + r : 12345 * r))));
  row.Set("big", Json(std::string(r % 2 ? "-" : "") + "99999999999" + std::to_string(1000000 + r)));
  row.Set("huge", opt(Json(std::string(r % 3 ? "-" : "") + "9999999999999999999999999999" +
                           std::to_string(1000000000 + r))));
  row.Set("day", opt(Json(int64_t{r % 2 ? -719162 + r : 2932896 - r})));
  row.Set("clock", opt(Json(int64_t{86399999999} - r)));
  row.Set("ts", opt(Json(int64_t{1700000000000000} + r)));
  row.Set("tstz", opt(Json(int64_t{-62135596800000000} + r)));
  row.Set("ts_ns", opt(Json(int64_t{INT64_MAX} - r)));
  row.Set("tstz_ns", opt(Json(int64_t{INT64_MIN} + r)));
  row.Set("name",
          opt(Json(r % 3 ? "row " + std::to_string(r) : std::string("h\xC3\xA9llo \"q\""))));
  row.Set("uid", opt(Json(fmt::format("{:032x}", 0x0123456789abcdefULL * (r + 1)))));
  row.Set("code", opt(Json(fmt::format("{:06x}", (r * 977) & 0xFFFFFF))));
  row.Set("blob", opt(Json(r % 4 ? fmt::format("00ff{:02x}", r & 0xFF) : std::string())));
  Json point = Json::MakeObject();
  point.Set("x", Json(r * 1.5));
  point.Set("label", r % 3 ? Json(fmt::format("p{}", r)) : Json());
  row.Set("point", opt(point));
  Json tags = Json::MakeArray();
  for (int k = 0; k < r % 4; ++k) tags.Push(Json(fmt::format("t{}", k)));
  row.Set("tags", opt(tags));
  Json props = Json::MakeArray();
  for (int k = 0; k < r % 3; ++k) {
    Json kv = Json::MakeArray();
    kv.Push(Json(fmt::format("k{}", k)));
    kv.Push(Json(int64_t{1} << (40 + k)));
    props.Push(std::move(kv));
  }
  row.Set("props", opt(props));
  Json by_id = Json::MakeArray();
  for (int k = 0; k < r % 3; ++k) {
    Json kv = Json::MakeArray();
    kv.Push(Json(int64_t{k - 1}));
    kv.Push(k == 1 ? Json() : point);
    by_id.Push(std::move(kv));
  }
  row.Set("by_id", opt(by_id));
  row.Set("my col", opt(Json(int64_t{r})));
  row.Set("price2", opt(Json(std::to_string(r * 100 + 1))));
  Json matrix = Json::MakeArray();
  for (int k = 0; k < r % 3; ++k) {
    Json inner = Json::MakeArray();
    for (int j = 0; j <= k; ++j) inner.Push(j == 1 ? Json() : Json(int64_t{j + r}));
    matrix.Push(k == 2 ? Json() : inner);
  }
  row.Set("matrix", matrix);
  return row;
}

RecordBatch MakeBatch(const Schema& schema, const std::vector<Json>& rows) {
  auto batch_schema = *AvroBatchSchema(schema);
  std::vector<floe::Array> columns;
  for (int c = 0; c < batch_schema->num_fields(); ++c) {
    auto builder = MakeBuilder(batch_schema->field(c).type);
    const NestedField& f = schema.fields()[static_cast<size_t>(c)];
    for (const Json& row : rows) {
      const Json* v = row.Find(f.name);
      Append(*f.type, v ? *v : Json(), *builder);
    }
    columns.push_back(*builder->Finish());
  }
  return *RecordBatch::Make(batch_schema, std::move(columns), static_cast<int64_t>(rows.size()));
}

std::vector<Json> RenderRows(const Schema& schema, const RecordBatch& batch) {
  std::vector<Json> out;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    Json row = Json::MakeObject();
    for (size_t c = 0; c < schema.fields().size(); ++c) {
      const NestedField& f = schema.fields()[c];
      row.Set(f.name, Render(*f.type, batch.column(static_cast<int>(c)), r));
    }
    out.push_back(std::move(row));
  }
  return out;
}

Result<std::vector<Json>> ReadAll(const std::string& path, SchemaPtr projection) {
  io::LocalFileIO fio;
  FLOE_ASSIGN_OR_RETURN(auto in, fio.NewInputFile(path));
  FLOE_ASSIGN_OR_RETURN(auto reader, AvroDataReader::Open(*in, projection));
  std::vector<Json> rows;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    for (Json& row : RenderRows(*projection, *batch)) rows.push_back(std::move(row));
  }
  return rows;
}

Result<AvroDataFileMetrics> WriteFile(const std::string& path, SchemaPtr schema,
                                      const std::vector<std::vector<Json>>& batches,
                                      AvroDataWriterOptions options = {}) {
  io::LocalFileIO fio;
  FLOE_ASSIGN_OR_RETURN(auto out, fio.NewOutputFile(path));
  FLOE_ASSIGN_OR_RETURN(auto writer, AvroDataWriter::Open(*out, schema, options));
  for (const auto& rows : batches) FLOE_RETURN_IF_ERROR(writer->Write(MakeBatch(*schema, rows)));
  return writer->Close();
}

const Json* FindField(const Json& record, std::string_view name) {
  for (const Json& f : record.Find("fields")->as_array()) {
    if (f.Find("name")->as_string() == name) return &f;
  }
  return nullptr;
}

TEST(AvroDataSchema, FollowsAppendixA) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto avro, ToAvroDataSchema(*EveryTypeSchema()));
  Json root = avro->ToJson();
  EXPECT_EQ(root.Find("name")->as_string(), "table");
  auto type_of = [&](std::string_view name) { return FindField(root, name)->Find("type")->Dump(); };
  // Required fields are bare types, optional ones ["null", T] with a null default.
  EXPECT_EQ(type_of("id"), R"("long")");
  EXPECT_EQ(FindField(root, "id")->Find("field-id")->as_int(), 1);
  EXPECT_EQ(type_of("flag"), R"(["null","boolean"])");
  EXPECT_TRUE(FindField(root, "flag")->Find("default")->is_null());
  // Decimals as fixed of minBytesRequired(P): 4 bytes for 9 digits, 8 for 18, 16 for 38.
  EXPECT_EQ(
      type_of("price"),
      R"(["null",{"type":"fixed","name":"decimal_9_2","size":4,"logicalType":"decimal","precision":9,"scale":2}])");
  EXPECT_EQ(
      type_of("big"),
      R"({"type":"fixed","name":"decimal_18_6","size":8,"logicalType":"decimal","precision":18,"scale":6})");
  EXPECT_NE(type_of("huge").find(R"("size":16)"), std::string::npos);
  // A second decimal(9, 2) refers to the named type defined by the first.
  EXPECT_EQ(type_of("price2"), R"(["null","decimal_9_2"])");
  EXPECT_EQ(type_of("day"), R"(["null",{"type":"int","logicalType":"date"}])");
  EXPECT_EQ(type_of("clock"), R"(["null",{"type":"long","logicalType":"time-micros"}])");
  EXPECT_EQ(type_of("ts"),
            R"(["null",{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false}])");
  EXPECT_EQ(type_of("tstz"),
            R"(["null",{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true}])");
  EXPECT_EQ(type_of("ts_ns"),
            R"(["null",{"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":false}])");
  EXPECT_EQ(type_of("tstz_ns"),
            R"(["null",{"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":true}])");
  EXPECT_EQ(type_of("uid"),
            R"(["null",{"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"}])");
  EXPECT_EQ(type_of("code"), R"(["null",{"type":"fixed","name":"fixed_3","size":3}])");
  EXPECT_EQ(type_of("blob"), R"(["null","bytes"])");
  EXPECT_EQ(
      type_of("point"),
      R"(["null",{"type":"record","name":"r19","fields":[{"name":"x","type":"double","field-id":20},{"name":"label","type":["null","string"],"default":null,"field-id":21}]}])");
  EXPECT_EQ(type_of("tags"), R"(["null",{"type":"array","items":"string","element-id":24}])");
  EXPECT_EQ(type_of("props"),
            R"(["null",{"type":"map","values":"long","key-id":26,"value-id":27}])");
  // A map with int keys: an array of k<key>_v<value> records, logicalType map; the value is
  // optional, so a union, and its record is named for the value's id.
  EXPECT_EQ(
      type_of("by_id"),
      R"(["null",{"type":"array","items":{"type":"record","name":"k29_v30","fields":[{"name":"key","type":"int","field-id":29},{"name":"value","type":["null",{"type":"record","name":"r30","fields":[{"name":"x","type":"double","field-id":36},{"name":"label","type":["null","string"],"default":null,"field-id":37}]}],"field-id":30}]},"logicalType":"map"}])");
  // Names Avro does not allow are rewritten, the original kept.
  const Json* col = FindField(root, "my_x20col");
  ASSERT_NE(col, nullptr);
  EXPECT_EQ(col->Find("iceberg-field-name")->as_string(), "my col");
  EXPECT_EQ(
      type_of("matrix"),
      R"({"type":"array","items":["null",{"type":"array","items":["null","int"],"element-id":35}],"element-id":34})");
}

TEST(AvroDataSchema, RoundTripsThroughAvro) {
  SchemaPtr schema = EveryTypeSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(auto avro, ToAvroDataSchema(*schema));
  // Through the JSON text as a file carries it.
  FLOE_ASSERT_OK_AND_ASSIGN(auto parsed, avro::Schema::Parse(avro->ToString()));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr back, FromAvroDataSchema(*parsed));
  EXPECT_TRUE(back->SameSchema(*schema)) << back->ToString() << "\nvs\n" << schema->ToString();
}

TEST(AvroDataSchema, DefaultsBecomeAvroDefaults) {
  auto with_defaults = *Schema::Make({
      NestedField{.id = 1,
                  .name = "n",
                  .type = Int(),
                  .required = true,
                  .initial_default = Json(int64_t{7})},
      NestedField{.id = 2,
                  .name = "d",
                  .type = Decimal(9, 2),
                  .required = false,
                  .initial_default = Json("-1.00")},
      NestedField{.id = 3,
                  .name = "t",
                  .type = TimestampTz(),
                  .required = false,
                  .initial_default = Json("1970-01-01T00:00:01+00:00")},
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto avro, ToAvroDataSchema(*with_defaults));
  Json root = avro->ToJson();
  EXPECT_EQ(FindField(root, "n")->Find("default")->as_int(), 7);
  // A non-null default on an optional field puts the value branch first, as Avro requires.
  EXPECT_EQ(FindField(root, "d")->Find("type")->as_array()[1].as_string(), "null");
  // -100 in 4 bytes of two's complement: ff ff ff 9c, one code point per byte.
  EXPECT_EQ(FindField(root, "d")->Find("default")->as_string(), "\xC3\xBF\xC3\xBF\xC3\xBF\xC2\x9C");
  EXPECT_EQ(FindField(root, "t")->Find("default")->as_int(), 1000000);
}

class AvroDataFileTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) { return (dir_.path() / name).string(); }
  testing::TempDir dir_;
};

TEST_F(AvroDataFileTest, EveryTypeRoundTripsInEveryCodec) {
  SchemaPtr schema = EveryTypeSchema();
  std::vector<Json> rows;
  for (int r = 0; r < 300; ++r) rows.push_back(EveryTypeRow(r));
  std::vector<std::vector<Json>> batches = {
      {rows.begin(), rows.begin() + 7}, {}, {rows.begin() + 7, rows.end()}};
  for (auto codec : {avro::AvroCodec::kNull, avro::AvroCodec::kDeflate, avro::AvroCodec::kSnappy,
                     avro::AvroCodec::kZstandard}) {
    SCOPED_TRACE(avro::AvroCodecName(codec));
    std::string path = Path(std::string(avro::AvroCodecName(codec)) + ".avro");
    AvroDataWriterOptions options;
    options.codec = codec;
    options.block_size = 4096;  // several blocks
    FLOE_ASSERT_OK_AND_ASSIGN(auto metrics, WriteFile(path, schema, batches, options));
    EXPECT_EQ(metrics.record_count, 300);
    EXPECT_EQ(metrics.file_size_in_bytes, static_cast<int64_t>(std::filesystem::file_size(path)));
    FLOE_ASSERT_OK_AND_ASSIGN(auto back, ReadAll(path, schema));
    ASSERT_EQ(back.size(), rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      ASSERT_EQ(back[r], rows[r]) << "row " << r << "\n"
                                  << back[r].Dump() << "\n"
                                  << rows[r].Dump();
    }
  }
}

TEST_F(AvroDataFileTest, AvscReadsWhatFloeWrites) {
  if (!testing::PeerInstalled("avsc")) GTEST_SKIP() << "avsc peer not installed";
  SchemaPtr schema = EveryTypeSchema();
  std::vector<Json> rows;
  for (int r = 0; r < 120; ++r) {
    Json row = EveryTypeRow(r);
    // Within 2^53, where avro-cat reads longs with a logical type exactly.
    for (const char* name : {"clock", "ts", "tstz", "ts_ns", "tstz_ns"}) {
      if (!row.Find(name)->is_null()) row.Set(name, Json((int64_t{1} << 52) - r * 7));
    }
    rows.push_back(std::move(row));
  }
  // avro-cat reads the null and deflate codecs.
  for (auto codec : {avro::AvroCodec::kNull, avro::AvroCodec::kDeflate}) {
    std::string path = Path(fmt::format("peer_{}.avro", avro::AvroCodecName(codec)));
    AvroDataWriterOptions options;
    options.codec = codec;
    options.block_size = 2048;
    FLOE_ASSERT_OK(WriteFile(path, schema, {rows}, options));
    FLOE_ASSERT_OK_AND_ASSIGN(std::string out, testing::RunPeer("avro-cat", {path}));
    std::istringstream lines(out);
    std::string line;
    size_t r = 0;
    while (std::getline(lines, line)) {
      FLOE_ASSERT_OK_AND_ASSIGN(Json got, Json::Parse(line));
      ASSERT_LT(r, rows.size());
      EXPECT_EQ(got, PeerForm(*schema->as_struct(), rows[r])) << "row " << r;
      ++r;
    }
    EXPECT_EQ(r, rows.size());
  }
}

TEST_F(AvroDataFileTest, ReadsAProjectionByFieldId) {
  auto written = *Schema::Make({
      Required(1, "id", Int()),
      Optional(2, "score", Float()),
      Optional(3, "price", Decimal(9, 2)),
      Optional(4, "dropped", String()),
      Optional(5, "s", StructType::Make({Optional(6, "a", Int()), Optional(7, "b", Int())})),
  });
  std::vector<Json> rows;
  for (int r = 0; r < 20; ++r) {
    Json row = Json::MakeObject();
    row.Set("id", Json(int64_t{r}));
    row.Set("score", r % 4 ? Json(r + 0.5) : Json());
    row.Set("price", Json(std::to_string(-r * 101)));
    row.Set("dropped", Json("x"));
    Json s = Json::MakeObject();
    s.Set("a", Json(int64_t{r}));
    s.Set("b", Json(int64_t{-r}));
    row.Set("s", s);
    rows.push_back(std::move(row));
  }
  std::string path = Path("projection.avro");
  FLOE_ASSERT_OK(WriteFile(path, written, {rows}));

  // Renamed, reordered, promoted (int->long, float->double, decimal(9,2)->decimal(20,2)), a
  // dropped column, a nested field dropped, and added columns with and without initial defaults.
  auto projection = *Schema::Make({
      Optional(3, "cost", Decimal(20, 2)),
      Required(1, "key", Long()),
      Optional(2, "score", Double()),
      Optional(5, "s", StructType::Make({Optional(7, "b", Long())})),
      Optional(8, "added", String()),
      NestedField{.id = 9,
                  .name = "filled",
                  .type = Long(),
                  .required = true,
                  .initial_default = Json(int64_t{42})},
      NestedField{.id = 10,
                  .name = "label",
                  .type = String(),
                  .required = false,
                  .initial_default = Json("none")},
      NestedField{.id = 11,
                  .name = "amount",
                  .type = Decimal(9, 2),
                  .required = false,
                  .initial_default = Json("3.25")},
  });
  FLOE_ASSERT_OK_AND_ASSIGN(auto back, ReadAll(path, projection));
  ASSERT_EQ(back.size(), rows.size());
  for (int r = 0; r < 20; ++r) {
    const Json& row = back[static_cast<size_t>(r)];
    EXPECT_EQ(*row.Find("key"), Json(int64_t{r}));
    EXPECT_EQ(*row.Find("cost"), Json(std::to_string(-r * 101)));
    EXPECT_EQ(*row.Find("score"), r % 4 ? Json(r + 0.5) : Json());
    EXPECT_EQ(row.Find("s")->Find("b")->as_int(), -r);
    EXPECT_TRUE(row.Find("added")->is_null());
    EXPECT_EQ(row.Find("filled")->as_int(), 42);
    EXPECT_EQ(row.Find("label")->as_string(), "none");
    EXPECT_EQ(row.Find("amount")->as_string(), "325");
  }

  // The file's own schema comes back from its metadata.
  io::LocalFileIO fio;
  FLOE_ASSERT_OK_AND_ASSIGN(auto in, fio.NewInputFile(path));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, AvroDataReader::Open(*in, projection));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr file_schema, reader->FileSchema());
  EXPECT_TRUE(file_schema->SameSchema(*written));

  // A required column the file lacks, without a default, cannot be read.
  auto missing = *Schema::Make({Required(12, "must", Int())});
  auto failed = ReadAll(path, missing);
  ASSERT_FALSE(failed.has_value());
  EXPECT_NE(failed.error().message().find("must"), std::string::npos) << failed.error().message();
}

TEST_F(AvroDataFileTest, CountsValuesNullsAndNaNs) {
  auto schema = *Schema::Make({
      Optional(1, "x", Double()),
      Optional(2, "s", StructType::Make({Optional(3, "a", Int())})),
      Optional(4, "l", ListType::Make(5, Float(), false)),
  });
  std::vector<Json> rows;
  for (int r = 0; r < 10; ++r) {
    Json row = Json::MakeObject();
    row.Set("x", r % 3 == 0 ? Json() : Json(r % 3 == 1 ? std::nan("") : r + 0.5));
    Json s = Json::MakeObject();
    s.Set("a", r % 2 ? Json(int64_t{r}) : Json());
    row.Set("s", r == 9 ? Json() : s);
    Json l = Json::MakeArray();
    for (int k = 0; k < r % 3; ++k) l.Push(k == 1 ? Json() : Json(k == 0 ? std::nan("") : 1.5));
    row.Set("l", l);
    rows.push_back(std::move(row));
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto metrics, WriteFile(Path("metrics.avro"), schema, {rows}));
  EXPECT_EQ(metrics.record_count, 10);
  // x: rows 0, 3, 6, 9 null; rows 1, 4, 7 NaN.
  EXPECT_EQ(*Find(metrics.value_counts, 1), 10);
  EXPECT_EQ(*Find(metrics.null_value_counts, 1), 4);
  EXPECT_EQ(*Find(metrics.nan_value_counts, 1), 3);
  // s.a: null in the even rows, and in row 9 where s itself is null.
  EXPECT_EQ(*Find(metrics.value_counts, 3), 10);
  EXPECT_EQ(*Find(metrics.null_value_counts, 3), 6);
  // l.element: rows with r % 3 == 1 have one element (NaN), r % 3 == 2 two (NaN, null).
  EXPECT_EQ(*Find(metrics.value_counts, 5), 3 + 3 * 2);
  EXPECT_EQ(*Find(metrics.null_value_counts, 5), 3);
  EXPECT_EQ(*Find(metrics.nan_value_counts, 5), 6);
  EXPECT_EQ(Find(metrics.nan_value_counts, 3), nullptr);
}

TEST_F(AvroDataFileTest, RejectsNullsInRequiredColumns) {
  auto schema = *Schema::Make({Required(1, "id", Long())});
  Json row = Json::MakeObject();
  row.Set("id", Json());
  // The batch's own schema says nullable, so only the writer can catch it.
  auto loose = *Schema::Make({Optional(1, "id", Long())});
  io::LocalFileIO fio;
  FLOE_ASSERT_OK_AND_ASSIGN(auto out, fio.NewOutputFile(Path("required.avro")));
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, AvroDataWriter::Open(*out, schema));
  Status s = writer->Write(MakeBatch(*loose, {row}));
  ASSERT_FALSE(s.has_value());
  EXPECT_NE(s.error().message().find("id"), std::string::npos) << s.error().message();
}

TEST(AvroDataWriterOptions, ReadsTableProperties) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto defaults, AvroDataWriterOptions::FromProperties({}));
  EXPECT_EQ(defaults.codec, avro::AvroCodec::kDeflate);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto zstd, AvroDataWriterOptions::FromProperties({{"write.avro.compression-codec", "ZSTD"},
                                                        {"write.avro.compression-level", "9"}}));
  EXPECT_EQ(zstd.codec, avro::AvroCodec::kZstandard);
  EXPECT_EQ(zstd.level, 9);
  EXPECT_FALSE(
      AvroDataWriterOptions::FromProperties({{"write.avro.compression-codec", "lzo"}}).has_value());
  EXPECT_FALSE(
      AvroDataWriterOptions::FromProperties({{"write.avro.compression-level", "x"}}).has_value());
}

}  // namespace
}  // namespace floe::manifest
