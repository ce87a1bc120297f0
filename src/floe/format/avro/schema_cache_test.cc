#include "floe/format/avro/schema_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"
#include "floe/format/compression/inflater.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

using floe::testing::ReadFileOrDie;
using floe::testing::TestDataDir;

constexpr const char* kRecord =
    R"({"type": "record", "name": "r", "fields": [{"name": "a", "type": "long"}]})";

TEST(SchemaCacheTest, OneParsePerDistinctText) {
  SchemaCache cache;
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, cache.Get(kRecord));
  FLOE_ASSERT_OK_AND_ASSIGN(auto again, cache.Get(std::string(kRecord)));
  EXPECT_EQ(first.get(), again.get());
  EXPECT_EQ(first->writer->root().type, Type::kRecord);
  EXPECT_EQ(first->min_record_size, 1u);
  FLOE_ASSERT_OK_AND_ASSIGN(auto other, cache.Get(R"("string")"));
  EXPECT_NE(other.get(), first.get());
  EXPECT_EQ(other->writer->root().type, Type::kString);
}

TEST(SchemaCacheTest, ErrorsAreReturnedNotKept) {
  SchemaCache cache;
  EXPECT_FALSE(cache.Get(R"({"type": "nope"})").has_value());
  EXPECT_FALSE(cache.Get(R"({"type": "nope"})").has_value());
  EXPECT_TRUE(cache.Get(kRecord).has_value());
}

TEST(SchemaCacheTest, SchemasBeyondTheLimitAreParsedButNotKept) {
  SchemaCache cache;
  std::vector<std::shared_ptr<const ParsedSchema>> parsed;
  for (size_t i = 0; i < SchemaCache::kMaxEntries + 5; ++i) {
    std::string json = R"({"type": "fixed", "name": "f", "size": )" + std::to_string(i + 1) + "}";
    FLOE_ASSERT_OK_AND_ASSIGN(auto p, cache.Get(json));
    EXPECT_EQ(p->writer->root().fixed_size, static_cast<int64_t>(i + 1));
    FLOE_ASSERT_OK_AND_ASSIGN(auto again, cache.Get(json));
    // Kept ones come back as they are; later ones are parsed anew each time.
    EXPECT_EQ(again.get() == p.get(), i < SchemaCache::kMaxEntries) << i;
  }
}

// Readers that share a schema cache and a decompressor, one after another, read every file as a
// reader of their own does: the weather records in each codec, deflate files in between.
TEST(SchemaCacheTest, ContainerReadersSharingItAndAnInflaterReadEachFileAsAlone) {
  const auto dir = TestDataDir() / "avro/share/test/data";
  SchemaCache cache;
  compression::Inflater inflater;
  for (const char* file :
       {"weather-deflate.avro", "weather.avro", "weather-deflate.avro", "weather-snappy.avro",
        "weather-zstd.avro", "weather-sorted.avro", "weather-deflate.avro"}) {
    std::string bytes = ReadFileOrDie(dir / file);
    auto read = [&](ContainerReadOptions options) {
      std::vector<std::string> out;
      auto reader = ContainerReader::Open(std::as_bytes(std::span(bytes)), file, options);
      EXPECT_TRUE(reader.has_value()) << file;
      if (!reader) return out;
      Datum datum;
      while (true) {
        auto more = (*reader)->Next(datum);
        EXPECT_TRUE(more.has_value()) << file;
        if (!more || !*more) break;
        out.push_back(DatumToJson((*reader)->resolved().reader().root(), datum).Dump());
      }
      return out;
    };
    std::vector<std::string> alone = read({});
    EXPECT_EQ(alone.size(), 5u) << file;
    EXPECT_EQ(read({.schemas = &cache, .inflater = &inflater}), alone) << file;
  }
}

// A cache resolves against its own reader schema; a reader that asks for another ignores it.
TEST(SchemaCacheTest, UsedOnlyForItsReaderSchema) {
  const auto dir = TestDataDir() / "avro/share/test/data";
  std::string bytes = ReadFileOrDie(dir / "weather.avro");
  SchemaCache cache;
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader_schema, Schema::Parse(R"({"type": "record",
      "name": "Weather", "namespace": "test", "fields": [{"name": "station", "type": "string"}]})"));
  ContainerReadOptions options{.reader_schema = reader_schema, .schemas = &cache};
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader,
                            ContainerReader::Open(std::as_bytes(std::span(bytes)), "w", options));
  EXPECT_EQ(reader->resolved().reader_ptr(), reader_schema);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto plain, ContainerReader::Open(std::as_bytes(std::span(bytes)), "w", {.schemas = &cache}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto cached, cache.Get(*plain->Metadata("avro.schema")));
  EXPECT_EQ(plain->writer_schema(), cached->writer);
  EXPECT_EQ(&plain->resolved(), cached->resolved.get());
}

}  // namespace
}  // namespace floe::avro
