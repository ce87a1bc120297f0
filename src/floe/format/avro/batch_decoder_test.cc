#include "floe/format/avro/batch_decoder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "floe/batch/value.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

namespace fs = std::filesystem;

// Every record of a file decoded through the columnar path, one JSON text per row.
Result<std::vector<std::string>> DecodeFileToRows(const std::string& bytes,
                                                  const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ContainerReader::Open(std::as_bytes(std::span(bytes)), name));
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(reader->resolved().reader().root()));
  std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->NextBlock());
    if (!more) break;
    Decoder d(reader->block_data());
    FLOE_RETURN_IF_ERROR(
        DecodeToBuilder(reader->resolved().root(), d, reader->block_count(), *builder));
    if (!d.at_end()) return CorruptData("{}: {} bytes left in a block", name, d.remaining());
  }
  FLOE_ASSIGN_OR_RETURN(floe::Array array, builder->Finish());
  std::vector<std::string> rows;
  for (int64_t i = 0; i < array.length(); ++i) {
    std::string row;
    AppendJson(array, i, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

TEST(BatchDecoderTest, WeatherInEveryCodecMatchesItsJson) {
  fs::path dir = floe::testing::TestDataDir() / "avro/share/test/data";
  std::istringstream expected_lines(floe::testing::ReadFileOrDie(dir / "weather.json"));
  std::vector<Json> expected;
  std::string line;
  while (std::getline(expected_lines, line)) expected.push_back(*Json::Parse(line));
  for (const char* file :
       {"weather.avro", "weather-deflate.avro", "weather-snappy.avro", "weather-zstd.avro"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto rows,
                              DecodeFileToRows(floe::testing::ReadFileOrDie(dir / file), file));
    ASSERT_EQ(rows.size(), expected.size()) << file;
    for (size_t i = 0; i < rows.size(); ++i) {
      FLOE_ASSERT_OK_AND_ASSIGN(Json row, Json::Parse(rows[i]));
      EXPECT_EQ(row, expected[i]) << file << ": " << rows[i];
    }
  }
}

TEST(BatchDecoderTest, TypesMapToBatchTypes) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"r","fields":[
      {"name":"id","type":"long","field-id":1},
      {"name":"name","type":["null","string"],"field-id":2},
      {"name":"day","type":{"type":"int","logicalType":"date"},"field-id":3},
      {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"},"field-id":4},
      {"name":"price","type":{"type":"fixed","name":"d","size":8,"logicalType":"decimal","precision":10,"scale":2},"field-id":5},
      {"name":"tags","type":{"type":"array","items":"string"},"field-id":6},
      {"name":"kind","type":{"type":"enum","name":"K","symbols":["A","B"]},"field-id":7}]})"));
  FLOE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, ToBatchType(schema->root()));
  EXPECT_EQ(type->ToString(),
            DataType::Struct({{"id", DataType::Int64(), false, 1},
                              {"name", DataType::String(), true, 2},
                              {"day", DataType::Date32(), false, 3},
                              {"ts", DataType::Timestamp(TimeUnit::kMicro, true), false, 4},
                              {"price", DataType::Decimal128(10, 2), false, 5},
                              {"tags", DataType::List(DataType::String(), false), false, 6},
                              {"kind", DataType::String(), false, 7}})
                ->ToString());
  FLOE_ASSERT_OK_AND_ASSIGN(auto multi, Schema::Parse(R"(["int","string"])"));
  EXPECT_FALSE(ToBatchType(multi->root()).has_value());
}

// Every Iceberg manifest and manifest list in the test data decodes through the columnar path, to
// the same values the generic Datum path gives (compared where both print alike: no maps involved
// in the comparison since the two paths print maps differently).
TEST(BatchDecoderTest, IcebergMetadataDecodesLikeTheGenericPath) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(floe::testing::TestDataDir())) {
    std::string path = entry.path().string();
    if (!entry.is_regular_file() || entry.path().extension() != ".avro" ||
        path.find("/testdata/avro/") != std::string::npos ||
        path.find("encrypted") != std::string::npos) {
      continue;
    }
    std::string bytes = floe::testing::ReadFileOrDie(entry.path());
    FLOE_ASSERT_OK_AND_ASSIGN(auto rows, DecodeFileToRows(bytes, path));
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader,
                              ContainerReader::Open(std::as_bytes(std::span(bytes)), path));
    Datum d;
    size_t n = 0;
    const Node& root = reader->writer_schema()->root();
    while (true) {
      FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->Next(d));
      if (!more) break;
      ASSERT_LT(n, rows.size());
      FLOE_ASSERT_OK_AND_ASSIGN(Json batch_row, Json::Parse(rows[n]));
      Json generic = DatumToJson(root, d);
      // Compare the scalar top-level and nested-record members both print the same way.
      for (const auto& [key, value] : generic.as_object()) {
        if (value.is_string() || value.is_int() || value.is_bool()) {
          const Json* other = batch_row.Find(key);
          ASSERT_NE(other, nullptr) << path << " " << key;
          EXPECT_EQ(*other, value) << path << " " << key;
        }
      }
      ++n;
    }
    EXPECT_EQ(n, rows.size()) << path;
    ++files;
  }
  EXPECT_GT(files, 300);
}

}  // namespace
}  // namespace floe::avro
