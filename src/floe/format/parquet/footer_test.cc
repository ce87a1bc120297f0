#include "floe/format/parquet/footer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

// The corpus MANIFEST describes each Parquet file as another tool read its footer:
//   "parquet: rows=8 rg=1 codec=UNCOMPRESSED enc=PLAIN+PLAIN_DICTIONARY+RLE created_by=..."

std::map<std::string, std::string> LoadManifest() {
  std::map<std::string, std::string> entries;
  std::ifstream in(testing::TestDataDir() / "MANIFEST.txt");
  std::string line;
  while (std::getline(in, line)) {
    auto bar = line.find(" | ");
    if (bar == std::string::npos) continue;
    auto second = line.find(" | ", bar + 3);
    if (second == std::string::npos) continue;
    entries[line.substr(0, bar)] = line.substr(second + 3);
  }
  return entries;
}

std::string Attribute(const std::string& description, const std::string& key) {
  auto start = description.find(" " + key + "=");
  if (start == std::string::npos) return "<absent>";
  start += key.size() + 2;
  auto end = description.find(' ', start);
  return description.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::vector<fs::path> CorpusFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(testing::TestDataDir())) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (name.ends_with(".parquet") || name.ends_with(".parquet.encrypted")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "+") + n;
  return out;
}

std::string CodecLabel(Codec codec) {
  std::string name = CodecName(codec);
  return name.starts_with("UNKNOWN") ? std::to_string(static_cast<int32_t>(codec)) : name;
}

TEST(FooterTest, EveryCorpusFooterMatchesTheManifest) {
  auto manifest = LoadManifest();
  auto files = CorpusFiles();
  ASSERT_GT(files.size(), 500u);
  int parsed = 0, encrypted = 0, malformed = 0;
  for (const auto& path : files) {
    std::string rel = fs::relative(path, testing::TestDataDir()).string();
    SCOPED_TRACE(rel);
    auto source = OpenLocalFile(path);
    ASSERT_TRUE(source.has_value()) << source.error().ToString();
    auto footer = ReadFooter(**source);
    if (rel.ends_with(".encrypted")) {
      ASSERT_FALSE(footer.has_value());
      EXPECT_EQ(footer.error().kind(), ErrorKind::kUnsupported);
      EXPECT_NE(footer.error().message().find("encrypted, unsupported"), std::string::npos);
      EXPECT_NE(footer.error().message().find(path.filename().string()), std::string::npos);
      ++encrypted;
      continue;
    }
    auto it = manifest.find(rel);
    ASSERT_NE(it, manifest.end()) << "not in MANIFEST";
    const std::string& description = it->second;
    if (!description.starts_with("parquet: ") || Attribute(description, "rows") == "None") {
      ASSERT_FALSE(footer.has_value()) << "the manifest calls it malformed: " << description;
      EXPECT_EQ(footer.error().kind(), ErrorKind::kCorruptData) << footer.error().ToString();
      ++malformed;
      continue;
    }
    ASSERT_TRUE(footer.has_value()) << footer.error().ToString();
    const FileMetaData& m = *footer;
    EXPECT_EQ(std::to_string(m.num_rows), Attribute(description, "rows"));
    EXPECT_EQ(std::to_string(m.row_groups.size()), Attribute(description, "rg"));
    std::set<std::string> codecs, encodings;
    for (const auto& group : m.row_groups) {
      for (const auto& column : group.columns) {
        if (!column.meta_data) continue;
        codecs.insert(CodecLabel(column.meta_data->codec));
        for (Encoding e : column.meta_data->encodings) encodings.insert(EncodingName(e));
      }
    }
    if (!m.row_groups.empty()) {
      EXPECT_EQ(Join(codecs), Attribute(description, "codec"));
      EXPECT_EQ(Join(encodings), Attribute(description, "enc"));
    }
    auto created_by = description.find("created_by=");
    ASSERT_NE(created_by, std::string::npos);
    std::string expected_creator = description.substr(created_by + 11);
    EXPECT_TRUE(m.created_by.value_or("").starts_with(expected_creator) ||
                expected_creator.starts_with(m.created_by.value_or("")))
        << m.created_by.value_or("<none>") << " vs " << expected_creator;

    // Our encoder writes back what we decoded (except logical types it does not know).
    auto reencoded = EncodeFileMetaData(m);
    FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData again, DecodeFileMetaData(reencoded));
    FileMetaData expected = m;
    for (auto& e : expected.schema) {
      if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kUnrecognized) {
        e.logical_type.reset();
      }
    }
    EXPECT_TRUE(again == expected);
    ++parsed;
  }
  EXPECT_GT(parsed, 550);
  EXPECT_GE(encrypted, 13);
  EXPECT_GE(malformed, 3);
}

TEST(FooterTest, DecodesSchemaAndColumnDetails) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      OpenLocalFile(testing::TestDataDir() / "parquet-testing/data/alltypes_plain.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
  // The Impala alltypes table: 11 columns under the root.
  ASSERT_EQ(m.schema.size(), 12u);
  EXPECT_EQ(m.schema[0].num_children, 11);
  EXPECT_EQ(m.schema[1].name, "id");
  EXPECT_EQ(m.schema[1].type, PhysicalType::kInt32);
  EXPECT_EQ(m.schema[1].repetition_type, Repetition::kOptional);
  EXPECT_EQ(m.schema[2].name, "bool_col");
  EXPECT_EQ(m.schema[2].type, PhysicalType::kBoolean);
  EXPECT_EQ(m.schema[11].name, "timestamp_col");
  EXPECT_EQ(m.schema[11].type, PhysicalType::kInt96);
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_EQ(m.row_groups[0].columns.size(), 11u);
  const ColumnMetaData& id = *m.row_groups[0].columns[0].meta_data;
  EXPECT_EQ(id.path_in_schema, std::vector<std::string>{"id"});
  EXPECT_EQ(id.num_values, 8);
}

TEST(FooterTest, DecodesLogicalTypesAndFieldIds) {
  // Written by Iceberg (Trino): every column carries its Iceberg field id.
  auto dir = testing::TestDataDir() / "impala/testdata/data/iceberg_test";
  int with_ids = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".parquet") continue;
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, OpenLocalFile(entry.path()));
    FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
    bool all = true;
    for (size_t i = 1; i < m.schema.size(); ++i) all = all && m.schema[i].field_id.has_value();
    with_ids += all;
  }
  EXPECT_GT(with_ids, 50);

  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      OpenLocalFile(testing::TestDataDir() / "parquet-testing/data/int96_from_spark.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
  ASSERT_EQ(m.schema.size(), 2u);
  EXPECT_EQ(m.schema[1].type, PhysicalType::kInt96);
}

TEST(FooterTest, UnknownLogicalTypeIsKeptAsUnrecognized) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto source,
      OpenLocalFile(testing::TestDataDir() / "parquet-testing/data/unknown-logical-type.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
  int unrecognized = 0;
  for (const auto& e : m.schema) {
    if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kUnrecognized) ++unrecognized;
  }
  EXPECT_EQ(unrecognized, 1);
}

TEST(FooterTest, RejectsTruncatedAndBitFlippedFooters) {
  auto bytes = testing::ReadFileOrDie(testing::TestDataDir() /
                                      "parquet-testing/data/alltypes_plain.parquet");
  std::vector<std::byte> file(reinterpret_cast<const std::byte*>(bytes.data()),
                              reinterpret_cast<const std::byte*>(bytes.data()) + bytes.size());
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData good, ParseFooter(file));
  EXPECT_EQ(good.num_rows, 8);

  // Every truncation fails cleanly (the magic is gone or the length no longer fits).
  for (size_t keep = 0; keep < file.size(); keep += 7) {
    auto result = ParseFooter(std::span(file).first(keep));
    EXPECT_FALSE(result.has_value()) << keep;
  }
  // Flipping any bit of the footer never crashes; most flips are caught.
  uint32_t length = static_cast<uint32_t>(file[file.size() - 8]) |
                    static_cast<uint32_t>(file[file.size() - 7]) << 8;
  size_t start = file.size() - 8 - length;
  int failures = 0;
  for (size_t i = start; i < file.size() - 4; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto copy = file;
      copy[i] ^= static_cast<std::byte>(1 << bit);
      failures += !ParseFooter(copy).has_value();
    }
  }
  EXPECT_GT(failures, 0);

  auto source = MakeMemorySource(std::vector<std::byte>(file.begin(), file.begin() + 11), "tiny");
  auto tiny = ReadFooter(*source);
  ASSERT_FALSE(tiny.has_value());
  EXPECT_NE(tiny.error().message().find("tiny"), std::string::npos);
}

TEST(MetadataThriftTest, PageHeaderRoundTrip) {
  PageHeader h;
  h.type = PageType::kDataPageV2;
  h.uncompressed_page_size = 1000;
  h.compressed_page_size = 400;
  h.crc = -12345;
  DataPageHeaderV2 v2;
  v2.num_values = 100;
  v2.num_nulls = 3;
  v2.num_rows = 90;
  v2.encoding = Encoding::kRleDictionary;
  v2.definition_levels_byte_length = 10;
  v2.repetition_levels_byte_length = 5;
  v2.is_compressed = false;
  Statistics s;
  s.min_value = std::string("\x01\x00\x00\x00", 4);
  s.max_value = std::string("\x09\x00\x00\x00", 4);
  s.null_count = 3;
  s.is_max_value_exact = true;
  v2.statistics = s;
  h.data_page_header_v2 = v2;
  auto bytes = EncodePageHeader(h);
  bytes.push_back(std::byte{0x42});  // page data follows the header
  FLOE_ASSERT_OK_AND_ASSIGN(DecodedPageHeader decoded, DecodePageHeader(bytes));
  EXPECT_EQ(decoded.size, bytes.size() - 1);
  EXPECT_TRUE(decoded.header == h);
}

TEST(MetadataThriftTest, IndexesAndBloomFilterHeaderRoundTrip) {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "m"};
  ci.max_values = {"f", "", "z"};
  ci.boundary_order = BoundaryOrder::kAscending;
  ci.null_counts = {0, 10, 2};
  FLOE_ASSERT_OK_AND_ASSIGN(ColumnIndex ci2, DecodeColumnIndex(EncodeColumnIndex(ci)));
  EXPECT_TRUE(ci2 == ci);

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 90, 1000}};
  FLOE_ASSERT_OK_AND_ASSIGN(OffsetIndex oi2, DecodeOffsetIndex(EncodeOffsetIndex(oi)));
  EXPECT_TRUE(oi2 == oi);

  BloomFilterHeader bf;
  bf.num_bytes = 1024;
  auto bytes = EncodeBloomFilterHeader(bf);
  FLOE_ASSERT_OK_AND_ASSIGN(DecodedBloomFilterHeader bf2, DecodeBloomFilterHeader(bytes));
  EXPECT_TRUE(bf2.header == bf);
  EXPECT_EQ(bf2.size, bytes.size());
}

TEST(MetadataThriftTest, ReadsBloomFilterHeaderFromParquetTesting) {
  // bloom_filter.bin is a header followed by the bitset, as parquet-mr wrote it.
  auto bytes = testing::ReadFileOrDie(testing::TestDataDir() /
                                      "parquet-testing/data/bloom_filter.xxhash.bin");
  std::span<const std::byte> data(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
  FLOE_ASSERT_OK_AND_ASSIGN(DecodedBloomFilterHeader h, DecodeBloomFilterHeader(data));
  EXPECT_EQ(h.header.algorithm, 1);
  EXPECT_EQ(h.header.hash, 1);
  EXPECT_EQ(h.header.compression, 1);
  EXPECT_EQ(h.size + static_cast<size_t>(h.header.num_bytes), bytes.size());
}

TEST(MetadataThriftTest, LogicalTypesRoundTrip) {
  FileMetaData m;
  m.version = 2;
  m.num_rows = 0;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 3;
  m.schema.push_back(root);
  SchemaElement ts;
  ts.name = "ts";
  ts.type = PhysicalType::kInt64;
  ts.repetition_type = Repetition::kOptional;
  ts.field_id = 7;
  LogicalType t;
  t.kind = LogicalType::Kind::kTimestamp;
  t.unit = TimeUnit::kNanos;
  t.is_adjusted_to_utc = true;
  ts.logical_type = t;
  m.schema.push_back(ts);
  SchemaElement dec;
  dec.name = "d";
  dec.type = PhysicalType::kFixedLenByteArray;
  dec.type_length = 16;
  dec.repetition_type = Repetition::kRequired;
  LogicalType d;
  d.kind = LogicalType::Kind::kDecimal;
  d.precision = 38;
  d.scale = 10;
  dec.logical_type = d;
  dec.converted_type = ConvertedType::kDecimal;
  dec.precision = 38;
  dec.scale = 10;
  m.schema.push_back(dec);
  SchemaElement geo;
  geo.name = "g";
  geo.type = PhysicalType::kByteArray;
  geo.repetition_type = Repetition::kOptional;
  LogicalType g;
  g.kind = LogicalType::Kind::kGeography;
  g.crs = "OGC:CRS84";
  g.algorithm = EdgeInterpolation::kKarney;
  geo.logical_type = g;
  m.schema.push_back(geo);
  m.key_value_metadata.push_back({"iceberg.schema", std::string("{}")});
  m.column_orders = {ColumnOrder::kTypeDefined, ColumnOrder::kTypeDefined,
                     ColumnOrder::kTypeDefined};
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData back, DecodeFileMetaData(EncodeFileMetaData(m)));
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.schema[1].logical_type->ToString(), "TIMESTAMP(NANOS,true)");
  EXPECT_EQ(back.schema[2].logical_type->ToString(), "DECIMAL(38,10)");
}

}  // namespace
}  // namespace floe::parquet
