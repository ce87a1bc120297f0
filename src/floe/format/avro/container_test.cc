#include "floe/format/avro/container.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "floe/format/avro/datum_io.h"
#include "floe/format/avro/datum_json.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

namespace fs = std::filesystem;
using floe::testing::ReadFileOrDie;
using floe::testing::TestDataDir;

std::span<const std::byte> AsBytes(const std::string& s) { return std::as_bytes(std::span(s)); }

Result<std::vector<Json>> ReadAllAsJson(const std::string& bytes, const std::string& name,
                                        ContainerReadOptions options = {}) {
  FLOE_ASSIGN_OR_RETURN(auto reader,
                        ContainerReader::Open(AsBytes(bytes), name, std::move(options)));
  std::vector<Json> out;
  Datum datum;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(datum));
    if (!more) break;
    out.push_back(DatumToJson(reader->resolved().reader().root(), datum));
  }
  return out;
}

std::vector<Json> JsonLines(const fs::path& path) {
  std::istringstream in(ReadFileOrDie(path));
  std::vector<Json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto json = Json::Parse(line);
    EXPECT_TRUE(json.has_value()) << line;
    if (json) out.push_back(*json);
  }
  return out;
}

fs::path AvroData() { return TestDataDir() / "avro/share/test/data"; }

// weather.json holds the records every weather*.avro file (one per codec, and a sorted copy) holds.
TEST(ContainerReaderTest, WeatherFilesInEveryCodecMatchTheirJson) {
  std::vector<Json> expected = JsonLines(AvroData() / "weather.json");
  ASSERT_EQ(expected.size(), 5u);
  std::map<std::string, AvroCodec> codecs = {{"weather.avro", AvroCodec::kNull},
                                             {"weather-deflate.avro", AvroCodec::kDeflate},
                                             {"weather-snappy.avro", AvroCodec::kSnappy},
                                             {"weather-zstd.avro", AvroCodec::kZstandard}};
  for (const auto& [file, codec] : codecs) {
    std::string bytes = ReadFileOrDie(AvroData() / file);
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ContainerReader::Open(AsBytes(bytes), file));
    EXPECT_EQ(reader->codec(), codec) << file;
    FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> records, ReadAllAsJson(bytes, file));
    EXPECT_EQ(records, expected) << file;
  }
  // The sorted copy holds the same records in another order.
  FLOE_ASSERT_OK_AND_ASSIGN(
      std::vector<Json> sorted,
      ReadAllAsJson(ReadFileOrDie(AvroData() / "weather-sorted.avro"), "sorted"));
  auto key = [](const Json& a) { return a.Dump(); };
  std::vector<std::string> a;
  std::vector<std::string> b;
  for (const Json& j : sorted) a.push_back(key(j));
  for (const Json& j : expected) b.push_back(key(j));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

// Files the specification allows, with what an independent decoder (avsc) prints for them.
TEST(ContainerReaderTest, ValidAvroFilesFromOtherImplementationsDecode) {
  struct Case {
    std::string path;
    size_t records;
    std::string first;
  };
  std::vector<Case> cases = {
      {"avro/share/test/data/syncInMeta.avro", 0, ""},
      {"avro/share/test/data/schemas/simple/data.avro", 3, R"({"text":"hello"})"},
      {"avro/share/test/data/schemas/withUnion/data.avro", 0,
       R"({"data1":"textValue","data2":null})"},
      {"avro/share/test/interop/rpc/echo/foo/request.avro", 1,
       R"({"record":{"name":"Foo","kind":"FOO","hash":"30313233343536373839303132333435"}})"},
      {"avro/lang/c/tests/avro-1237-good.avro", 2, "null"},
      {"avro/lang/c/tests/avro-1238-good.avro", 2, "null"},
      {"avro/lang/c/tests/avro-1279-codec.avro", 0,
       R"({"booleanField":true,"intField":0,"longField":0,"floatField":0.0,"doubleField":0.0,)"
       R"("bytesField":"44454641554c542056414c554553","stringField":"DEFAULT VALUES"})"},
      {"avro/lang/c/tests/avro-1279-no-codec.avro", 0, ""},
      {"avro/lang/js/test/dat/person-10.avro", 10,
       R"({"name":"r","age":906,"gender":"MALE","address":{"zipcode":631}})"},
      {"avro/lang/java/mapred/src/test/resources/org/apache/avro/mapreduce/"
       "mapreduce-test-input.avro/"
       "part-r-00000.avro",
       3, R"({"name":"apple","count":3})"},
  };
  for (const Case& c : cases) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> records,
                              ReadAllAsJson(ReadFileOrDie(TestDataDir() / c.path), c.path));
    if (c.records > 0) {
      EXPECT_EQ(records.size(), c.records) << c.path;
    }
    EXPECT_FALSE(records.empty()) << c.path;
    if (!c.first.empty() && !records.empty()) {
      FLOE_ASSERT_OK_AND_ASSIGN(Json first, Json::Parse(c.first));
      EXPECT_EQ(records[0], first) << c.path << ": " << records[0].Dump();
    }
  }
  // The codec and no-codec copies of the same data agree.
  auto with =
      ReadAllAsJson(ReadFileOrDie(TestDataDir() / "avro/lang/c/tests/avro-1279-codec.avro"), "a");
  auto without = ReadAllAsJson(
      ReadFileOrDie(TestDataDir() / "avro/lang/c/tests/avro-1279-no-codec.avro"), "b");
  ASSERT_TRUE(with && without);
  EXPECT_EQ(*with, *without);
}

void ExpectRejected(const std::string& bytes, const std::string& name, std::string_view needle) {
  auto records = ReadAllAsJson(bytes, name);
  ASSERT_FALSE(records.has_value()) << name;
  EXPECT_NE(records.error().message().find(name), std::string::npos) << records.error().message();
  EXPECT_NE(records.error().message().find(needle), std::string::npos) << records.error().message();
}

TEST(ContainerReaderTest, BadFilesFromOtherImplementationsAreRejected) {
  std::string c_tests = (TestDataDir() / "avro/lang/c/tests").string();
  ExpectRejected(ReadFileOrDie(c_tests + "/avro-1238-truncated.avro"), "avro-1238-truncated.avro",
                 "past the end of the file");
  ExpectRejected(ReadFileOrDie(c_tests + "/avro-1237-bad-union-discriminant.avro"),
                 "avro-1237-bad-union-discriminant.avro", "union branch 2 out of range");
  // A copy of person-10.avro saved with a newline appended: the stray byte reads as the start of a
  // block whose header never ends.
  ExpectRejected(ReadFileOrDie(TestDataDir() / "avro/lang/js/test/dat/person-10.no-codec.avro"),
                 "person-10.no-codec.avro", "block at offset 494: truncated varint at offset 495");
  // Avro 1.2's container format (magic "Obj\0") predates the specification's.
  ExpectRejected(ReadFileOrDie(AvroData() / "test.avro12"), "test.avro12", "bad magic");
}

// ---- writing

struct Sample {
  std::string schema;
  std::vector<std::string> json;  // the expected DatumToJson of each datum
  std::vector<Datum> datums;
};

std::vector<Sample> Samples() {
  std::vector<Sample> samples;
  samples.push_back({R"("null")", {"null"}, {Datum()}});
  samples.push_back({R"("boolean")", {"true", "false"}, {Datum(true), Datum(false)}});
  samples.push_back({R"("int")",
                     {"0", "-2147483648", "2147483647"},
                     {Datum(0), Datum(INT32_MIN), Datum(INT32_MAX)}});
  samples.push_back({R"("long")",
                     {"-9223372036854775808", "9223372036854775807", "-1"},
                     {Datum(INT64_MIN), Datum(INT64_MAX), Datum(int64_t{-1})}});
  samples.push_back({R"("float")",
                     {"1.5", "\"NaN\"", "\"-Infinity\""},
                     {Datum(1.5f), Datum(std::nanf("")), Datum(-INFINITY)}});
  samples.push_back({R"("double")", {"0.1", "-2.5e+300"}, {Datum(0.1), Datum(-2.5e300)}});
  samples.push_back({R"("bytes")",
                     {"\"\"", "\"00ff10\""},
                     {Datum(Bytes{""}), Datum(Bytes{std::string("\x00\xff\x10", 3)})}});
  samples.push_back({R"("string")",
                     {"\"\"", "\"h\\u00e9llo\""},
                     {Datum(std::string()), Datum(std::string("h\xc3\xa9llo"))}});
  samples.push_back({R"({"type":"enum","name":"E","symbols":["A","B","C"]})",
                     {"\"A\"", "\"C\""},
                     {Datum(EnumValue{0}), Datum(EnumValue{2})}});
  samples.push_back(
      {R"({"type":"fixed","name":"F","size":3})", {"\"616263\""}, {Datum(Bytes{"abc"})}});
  samples.push_back(
      {R"({"type":"array","items":"long"})",
       {"[]", "[1,2,3]"},
       {Datum(Array{}), Datum(Array{{Datum(int64_t{1}), Datum(int64_t{2}), Datum(int64_t{3})}})}});
  samples.push_back({R"({"type":"map","values":"string"})",
                     {"[]", R"([{"key":"k","value":"v"}])"},
                     {Datum(Map{}), Datum(Map{{{"k", Datum(std::string("v"))}}})}});
  samples.push_back(
      {R"(["null","string",{"type":"record","name":"R","fields":[{"name":"x","type":"int"}]}])",
       {"null", "\"s\"", R"({"x":7})"},
       {Datum(Union(0, Datum())), Datum(Union(1, Datum(std::string("s")))),
        Datum(Union(2, Datum(Record{{Datum(7)}})))}});
  // Logical types print in their readable forms.
  samples.push_back({R"({"type":"int","logicalType":"date"})",
                     {"\"1970-01-01\"", "\"2024-02-29\"", "\"1969-12-31\""},
                     {Datum(0), Datum(19782), Datum(-1)}});
  samples.push_back(
      {R"({"type":"long","logicalType":"timestamp-micros"})",
       {"\"2024-02-29T13:45:00.123456+00:00\"", "\"1969-12-31T23:59:59.999999+00:00\""},
       {Datum(int64_t{1709214300123456}), Datum(int64_t{-1})}});
  samples.push_back({R"({"type":"long","logicalType":"local-timestamp-millis"})",
                     {"\"2024-02-29T13:45:00.123\""},
                     {Datum(int64_t{1709214300123})}});
  samples.push_back({R"({"type":"long","logicalType":"timestamp-nanos"})",
                     {"\"2024-02-29T13:45:00.123456789+00:00\""},
                     {Datum(int64_t{1709214300123456789})}});
  samples.push_back({R"({"type":"long","logicalType":"time-micros"})",
                     {"\"13:45:00.000001\""},
                     {Datum(int64_t{49500000001})}});
  samples.push_back(
      {R"({"type":"bytes","logicalType":"decimal","precision":9,"scale":2})",
       {"\"-1.23\"", "\"0.05\"", "\"12345.00\""},
       {Datum(Bytes{std::string("\xff\x85", 2)}), Datum(Bytes{std::string("\x05", 1)}),
        Datum(Bytes{std::string("\x12\xd6\x44", 3)})}});
  samples.push_back(
      {R"({"type":"fixed","name":"d","size":16,"logicalType":"decimal","precision":38,"scale":0})",
       {"\"-1\""},
       {Datum(Bytes{std::string(16, '\xff')})}});
  samples.push_back(
      {R"({"type":"fixed","name":"u","size":16,"logicalType":"uuid"})",
       {"\"00112233-4455-6677-8899-aabbccddeeff\""},
       {Datum(Bytes{
           std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16)})}});
  return samples;
}

class RoundTripTest : public ::testing::TestWithParam<AvroCodec> {};

TEST_P(RoundTripTest, EveryTypeSurvivesWriteAndRead) {
  for (const Sample& sample : Samples()) {
    SCOPED_TRACE(sample.schema);
    FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(sample.schema));
    std::string file;
    ContainerWriteOptions options;
    options.codec = GetParam();
    options.block_size = 1;  // one block per record: exercises block boundaries
    options.metadata = {{"iceberg.schema", "{}"}};
    FLOE_ASSERT_OK_AND_ASSIGN(auto writer,
                              ContainerWriter::Open(
                                  schema,
                                  [&](std::span<const std::byte> b) {
                                    file.append(reinterpret_cast<const char*>(b.data()), b.size());
                                    return Ok();
                                  },
                                  options));
    for (const Datum& d : sample.datums) FLOE_ASSERT_OK(writer->Append(d));
    FLOE_ASSERT_OK(writer->Close());
    EXPECT_EQ(writer->bytes_written(), file.size());

    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ContainerReader::Open(AsBytes(file), "roundtrip"));
    EXPECT_EQ(reader->codec(), GetParam());
    EXPECT_EQ(reader->Metadata("iceberg.schema"), "{}");
    EXPECT_EQ(reader->writer_schema()->CanonicalForm(), schema->CanonicalForm());
    std::vector<Datum> back;
    Datum d;
    while (true) {
      FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->Next(d));
      if (!more) break;
      back.push_back(d);
    }
    ASSERT_EQ(back.size(), sample.datums.size());
    for (size_t i = 0; i < back.size(); ++i) {
      FLOE_ASSERT_OK_AND_ASSIGN(Json expected, Json::Parse(sample.json[i]));
      Json got = DatumToJson(schema->root(), back[i]);
      EXPECT_EQ(got, expected) << got.Dump();
      // NaN never equals itself; everything else compares exactly.
      if (got != Json("NaN")) {
        EXPECT_TRUE(back[i] == sample.datums[i]) << got.Dump();
      }
    }
  }
}

TEST_P(RoundTripTest, ManyRecordsInLargeBlocks) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"id","type":"long"},{"name":"name","type":["null","string"]},
      {"name":"tags","type":{"type":"array","items":"string"}}]})"));
  std::string file;
  ContainerWriteOptions options;
  options.codec = GetParam();
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer, ContainerWriter::Open(
                                             schema,
                                             [&](std::span<const std::byte> b) {
                                               file.append(reinterpret_cast<const char*>(b.data()),
                                                           b.size());
                                               return Ok();
                                             },
                                             options));
  std::vector<Datum> written;
  for (int64_t i = 0; i < 20000; ++i) {
    Datum name =
        i % 3 == 0 ? Datum(Union(0, Datum())) : Datum(Union(1, Datum(fmt::format("name-{}", i))));
    Array tags;
    for (int64_t t = 0; t < i % 4; ++t) tags.items.push_back(Datum(fmt::format("t{}", t)));
    written.push_back(Datum(Record{{Datum(i * 7919), name, Datum(tags)}}));
    FLOE_ASSERT_OK(writer->Append(written.back()));
  }
  FLOE_ASSERT_OK(writer->Close());
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ContainerReader::Open(AsBytes(file), "many"));
  int blocks = 0;
  int64_t count = 0;
  while (true) {
    FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->NextBlock());
    if (!more) break;
    ++blocks;
    count += reader->block_count();
  }
  EXPECT_GT(blocks, 1);
  EXPECT_EQ(count, 20000);
  FLOE_ASSERT_OK_AND_ASSIGN(auto again, ContainerReader::Open(AsBytes(file), "many"));
  Datum d;
  for (const Datum& expected : written) {
    FLOE_ASSERT_OK_AND_ASSIGN(bool more, again->Next(d));
    ASSERT_TRUE(more);
    ASSERT_TRUE(d == expected);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(bool more, again->Next(d));
  EXPECT_FALSE(more);
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTripTest,
                         ::testing::Values(AvroCodec::kNull, AvroCodec::kDeflate,
                                           AvroCodec::kSnappy, AvroCodec::kZstandard),
                         [](const auto& info) { return std::string(AvroCodecName(info.param)); });

TEST(ContainerWriterTest, RejectsDatumsOfTheWrongShape) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"a","type":"int"},{"name":"f","type":{"type":"fixed","name":"F","size":2}}]})"));
  std::string file;
  FLOE_ASSERT_OK_AND_ASSIGN(auto writer,
                            ContainerWriter::Open(schema, [&](std::span<const std::byte> b) {
                              file.append(reinterpret_cast<const char*>(b.data()), b.size());
                              return Ok();
                            }));
  EXPECT_FALSE(
      writer->Append(Datum(Record{{Datum(std::string("x")), Datum(Bytes{"ab"})}})).has_value());
  EXPECT_FALSE(writer->Append(Datum(Record{{Datum(1), Datum(Bytes{"abc"})}})).has_value());
  EXPECT_FALSE(writer->Append(Datum(Record{{Datum(1)}})).has_value());
  FLOE_ASSERT_OK(writer->Append(Datum(Record{{Datum(1), Datum(Bytes{"ab"})}})));
  FLOE_ASSERT_OK(writer->Close());
  // The failed appends left nothing behind.
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> records, ReadAllAsJson(file, "w"));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].Dump(), R"({"a":1,"f":"6162"})");
}

// ---- damaged files

std::string WriteSample(AvroCodec codec, int records = 50) {
  auto schema = Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"id","type":"long"},{"name":"s","type":"string"}]})");
  std::string file;
  ContainerWriteOptions options;
  options.codec = codec;
  options.block_size = 200;
  auto writer = ContainerWriter::Open(
      *schema,
      [&](std::span<const std::byte> b) {
        file.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      options);
  for (int i = 0; i < records; ++i) {
    EXPECT_TRUE(
        (*writer)->Append(Datum(Record{{Datum(int64_t{i}), Datum(std::string(i % 17, 'x'))}})));
  }
  EXPECT_TRUE((*writer)->Close());
  return file;
}

TEST(ContainerReaderTest, EveryTruncationFailsCleanly) {
  for (AvroCodec codec :
       {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard}) {
    std::string file = WriteSample(codec);
    FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> all, ReadAllAsJson(file, "whole"));
    ASSERT_EQ(all.size(), 50u);
    for (size_t keep = 0; keep < file.size(); ++keep) {
      auto records = ReadAllAsJson(file.substr(0, keep), "cut.avro");
      // Cutting exactly at a block boundary leaves a valid, shorter file; anywhere else is an
      // error.
      if (records) {
        EXPECT_LT(records->size(), 50u);
      } else {
        EXPECT_NE(records.error().message().find("cut.avro"), std::string::npos);
      }
    }
  }
}

TEST(ContainerReaderTest, DamagedHeadersAndBlocks) {
  std::string file = WriteSample(AvroCodec::kNull);
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ContainerReader::Open(AsBytes(file), "x"));
  size_t header = reader->header_size();

  std::string bad_magic = file;
  bad_magic[3] = '\x02';
  ExpectRejected(bad_magic, "magic.avro", "bad magic at offset 0");

  std::string bad_sync = file;
  bad_sync[header - 1] ^= 0x55;  // the header's copy of the marker no longer matches the blocks'
  ExpectRejected(bad_sync, "sync.avro", "sync marker mismatch");

  // A negative record count (zig-zag 0x01 = -1) and a huge block size.
  std::string negative = file;
  negative[header] = '\x01';
  ExpectRejected(negative, "negative.avro", "negative record count -1");
  std::string huge = file;
  huge.replace(header + 1, 1, std::string("\xfe\xff\xff\xff\xff\xff\xff\xff\x7f", 9));
  ExpectRejected(huge, "huge.avro", "block at offset");

  // An unknown codec and an invalid schema in the metadata.
  std::string codec = file;
  size_t at = codec.find("null", codec.find("avro.codec"));
  codec.replace(at, 4, "lzma");
  ExpectRejected(codec, "codec.avro", "unknown Avro codec 'lzma'");
  std::string schema = file;
  at = schema.find("\"long\"");
  schema.replace(at, 6, "\"lang\"");
  ExpectRejected(schema, "schema.avro", "unknown type 'lang'");
}

TEST(ContainerReaderTest, RandomDamageNeverCrashes) {
  std::mt19937 rng(42);
  for (AvroCodec codec :
       {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard}) {
    std::string file = WriteSample(codec, 200);
    for (int trial = 0; trial < 300; ++trial) {
      std::string damaged = file;
      for (int i = 0; i < 3; ++i) damaged[rng() % damaged.size()] = static_cast<char>(rng() & 0xFF);
      (void)ReadAllAsJson(damaged, "random.avro");
    }
  }
}

TEST(ContainerReaderTest, ReadsThroughACallback) {
  std::string file = WriteSample(AvroCodec::kDeflate, 500);
  int calls = 0;
  ContainerReader::ReadAt read = [&](uint64_t offset, std::span<std::byte> out) -> Result<size_t> {
    ++calls;
    size_t n = std::min<size_t>(out.size(), file.size() - offset);
    std::memcpy(out.data(), file.data() + offset, n);
    return n;
  };
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ContainerReader::Open(read, file.size(), "cb.avro"));
  Datum d;
  int64_t n = 0;
  while (true) {
    FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->Next(d));
    if (!more) break;
    EXPECT_EQ(d.as<Record>().fields[0].as<int64_t>(), n);
    ++n;
  }
  EXPECT_EQ(n, 500);
  EXPECT_GT(calls, 2);
  // A file that claims to be longer than the callback can deliver is truncated, not a crash.
  Status drained = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto longer, ContainerReader::Open(read, file.size() + 100, "cb.avro"));
    while (true) {
      FLOE_ASSIGN_OR_RETURN(bool more, longer->Next(d));
      if (!more) return Ok();
    }
  }();
  ASSERT_FALSE(drained.has_value());
  EXPECT_NE(drained.error().message().find("could be read"), std::string::npos)
      << drained.error().message();
}

// ---- Iceberg metadata written by other engines

TEST(ContainerReaderTest, EveryIcebergManifestAndManifestListReads) {
  int files = 0;
  int entries = 0;
  for (const auto& entry : fs::recursive_directory_iterator(TestDataDir())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".avro") continue;
    std::string path = entry.path().string();
    if (path.find("/testdata/avro/") != std::string::npos) continue;  // Avro's own suite, above
    std::string bytes = ReadFileOrDie(entry.path());
    if (path.find("encrypted") != std::string::npos) {
      // AES-GCM encrypted metadata is not an Avro file until decrypted.
      EXPECT_FALSE(ContainerReader::Open(AsBytes(bytes), path).has_value()) << path;
      continue;
    }
    auto records = ReadAllAsJson(bytes, path);
    ASSERT_TRUE(records.has_value()) << records.error().ToString();
    ++files;
    entries += static_cast<int>(records->size());
  }
  EXPECT_GT(files, 300);
  EXPECT_GT(entries, files);
}

}  // namespace
}  // namespace floe::avro
