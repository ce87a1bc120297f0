#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum.h"
#include "floe/manifest/cursor_internal.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_schema.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::manifest {
namespace {

namespace fs = std::filesystem;

std::span<const std::byte> Bytes(const std::string& s) { return std::as_bytes(std::span(s)); }

// What the corpus's MANIFEST.txt says about each Avro file: written by a tool independent of floe.
struct Described {
  std::string text;
};
std::map<std::string, std::string> CorpusDescriptions() {
  std::map<std::string, std::string> out;
  std::ifstream in(testing::TestDataDir() / "MANIFEST.txt");
  std::string line;
  while (std::getline(in, line)) {
    auto bar = line.find(" | ");
    if (bar == std::string::npos) continue;
    std::string path = line.substr(0, bar);
    if (!path.ends_with(".avro")) continue;
    out[path] = line.substr(line.rfind(" | ") + 3);
  }
  return out;
}

std::optional<int64_t> Number(const std::string& text, const std::string& key) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(key + "[=:]([0-9]+)"))) return std::stoll(m[1]);
  return std::nullopt;
}

const avro::Node& Unwrap(const avro::Node& node) {
  if (node.type == avro::Type::kUnion && node.NullBranch() && node.branches.size() == 2) {
    return *node.branches[1 - *node.NullBranch()];
  }
  return node;
}

const avro::Datum* Field(const avro::Node& node, const avro::Datum& record, std::string_view name) {
  auto i = Unwrap(node).FieldIndex(name);
  if (!i) return nullptr;
  const avro::Datum* v = &record.as<avro::Record>().fields[*i];
  while (v->is<avro::Union>()) v = v->as<avro::Union>().value.get();
  return v;
}

// Every manifest and manifest list in the corpus's Iceberg tables reads; counts, kinds and
// versions match the corpus's descriptions, and paths and record counts match the generic Avro
// reader's view of the same records.
TEST(ManifestCorpus, EveryManifestAndListReads) {
  auto described = CorpusDescriptions();
  fs::path root = testing::TestDataDir();
  int manifests = 0, lists = 0, by_version[4] = {};
  for (const auto& item : fs::recursive_directory_iterator(root)) {
    if (!item.is_regular_file() || item.path().extension() != ".avro") continue;
    std::string rel = fs::relative(item.path(), root).string();
    if (rel.starts_with("avro/")) continue;  // the Avro codec's own corpus
    std::string bytes = testing::ReadFileOrDie(item.path());
    std::string desc = described.count(rel) ? described[rel] : "";
    auto container = avro::ContainerReader::Open(Bytes(bytes), rel);
    if (!container) {
      EXPECT_EQ(desc.find("Iceberg manifest"), std::string::npos) << rel;
      continue;
    }
    auto kind = DetectKind(**container);
    if (!kind) {
      // The corpus describer takes any schema with field id 2 for a manifest; Avro data files of
      // tables (in their data/ folders) can have one.
      if (rel.find("/data/") == std::string::npos) {
        EXPECT_EQ(desc.find("Iceberg manifest"), std::string::npos) << rel;
      }
      continue;
    }
    SCOPED_TRACE(rel);
    // The generic reader's records, to compare with.
    std::vector<avro::Datum> records;
    avro::Datum d;
    while (true) {
      auto more = (*container)->Next(d);
      ASSERT_TRUE(more.has_value()) << more.error().ToString();
      if (!*more) break;
      records.push_back(d);
    }
    const avro::Node& root_node = (*container)->writer_schema()->root();
    if (auto n = Number(desc, "records")) {
      EXPECT_EQ(*n, static_cast<int64_t>(records.size()));
    }
    if (*kind == ManifestKind::kManifestList) {
      ++lists;
      EXPECT_EQ(desc.find("Iceberg manifest ("), std::string::npos) << desc;
      FLOE_ASSERT_OK_AND_ASSIGN(auto list, ReadManifestList(Bytes(bytes), rel));
      ASSERT_EQ(list.size(), records.size());
      for (size_t i = 0; i < list.size(); ++i) {
        const avro::Datum* path = Field(root_node, records[i], "manifest_path");
        ASSERT_NE(path, nullptr);
        EXPECT_EQ(list[i].manifest_path, path->as<std::string>());
        EXPECT_GE(list[i].manifest_length, 0);
      }
      continue;
    }
    ++manifests;
    EXPECT_EQ(desc.find("Iceberg manifest list"), std::string::npos) << desc;
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ManifestReader::Open(Bytes(bytes), rel));
    if (auto v = Number(desc, "format-version")) {
      EXPECT_EQ(reader->format_version(), *v);
    }
    if (desc.find("content=deletes") != std::string::npos) {
      EXPECT_EQ(reader->content(), ManifestContent::kDeletes);
    }
    ++by_version[reader->format_version()];
    FLOE_ASSERT_OK_AND_ASSIGN(auto entries, reader->ReadAll());
    ASSERT_EQ(entries.size(), records.size());
    int64_t counts[3] = {};
    for (size_t i = 0; i < entries.size(); ++i) {
      const avro::Datum* df = Field(root_node, records[i], "data_file");
      ASSERT_NE(df, nullptr);
      const avro::Node* df_node = root_node.fields[*root_node.FieldIndex("data_file")].type;
      const avro::Datum* path = Field(*df_node, *df, "file_path");
      const avro::Datum* rows = Field(*df_node, *df, "record_count");
      ASSERT_TRUE(path != nullptr && rows != nullptr);
      EXPECT_EQ(entries[i].data_file.file_path, path->as<std::string>());
      EXPECT_EQ(entries[i].data_file.record_count, rows->as<int64_t>());
      EXPECT_EQ(entries[i].data_file.partition.size(), reader->partition_type()->fields().size());
      ++counts[static_cast<int>(entries[i].data_file.content)];
      if (reader->format_version() == 1) {
        EXPECT_EQ(entries[i].sequence_number, 0);
      }
    }
    if (auto n = Number(desc, "entries=data")) {
      EXPECT_EQ(counts[0], *n);
    }
    if (auto n = Number(desc, "pos-del")) {
      EXPECT_EQ(counts[1], *n);
    }
    if (auto n = Number(desc, "eq-del")) {
      EXPECT_EQ(counts[2], *n);
    }
  }
  // The corpus has manifests of every version and many lists; finding none means a broken walk.
  EXPECT_GT(manifests, 100);
  EXPECT_GT(lists, 100);
  EXPECT_GT(by_version[1], 0);
  EXPECT_GT(by_version[2], 0);
  EXPECT_GT(by_version[3], 0);
}

// Known values from a Java-written v2 manifest list (iceberg-rust's fixture; avro-cat prints the
// same record).
TEST(ManifestCorpus, JavaManifestListValues) {
  std::string bytes = testing::ReadFileOrDie(
      testing::TestDataDir() /
      "iceberg-rust/crates/iceberg/testdata/manifests_lists/manifest-list-v2-1.avro");
  FLOE_ASSERT_OK_AND_ASSIGN(auto list, ReadManifestList(Bytes(bytes), "list"));
  ASSERT_EQ(list.size(), 1u);
  const ManifestFile& m = list[0];
  EXPECT_EQ(m.manifest_path,
            "iceberg-warehouse/people/metadata/794bd2ee-052c-449c-9a6f-3a88857c747f-m0.avro");
  EXPECT_EQ(m.manifest_length, 6658);
  EXPECT_EQ(m.sequence_number, 1);
  EXPECT_EQ(m.min_sequence_number, 1);
  EXPECT_EQ(m.added_snapshot_id, 6653143792592159268);
  EXPECT_EQ(m.added_files_count, 1);
  EXPECT_EQ(m.existing_files_count, 0);
  EXPECT_EQ(m.added_rows_count, 1);
  ASSERT_TRUE(m.partitions.has_value());
  EXPECT_TRUE(m.partitions->empty());
}

// A table schema and a spec with several transforms.
struct Table {
  SchemaPtr schema;
  PartitionSpecPtr spec;
};

Table MakeTable() {
  std::vector<NestedField> fields = {
      {.id = 1, .name = "id", .type = PrimitiveType::Get(TypeId::kLong), .required = true},
      {.id = 2, .name = "ts", .type = PrimitiveType::Get(TypeId::kTimestampTz)},
      {.id = 3, .name = "name", .type = PrimitiveType::Get(TypeId::kString)},
      {.id = 4, .name = "price", .type = PrimitiveType::Decimal(12, 2)},
      {.id = 5, .name = "score", .type = PrimitiveType::Get(TypeId::kDouble)},
  };
  auto schema = *Schema::Make(fields, 3);
  std::vector<PartitionField> pf = {
      {.source_ids = {2}, .field_id = 1000, .name = "ts_day", .transform = Transform::Day()},
      {.source_ids = {3},
       .field_id = 1001,
       .name = "name_bucket",
       .transform = Transform::Bucket(16)},
      {.source_ids = {3},
       .field_id = 1002,
       .name = "name_trunc",
       .transform = Transform::Truncate(4)},
      {.source_ids = {4}, .field_id = 1003, .name = "price", .transform = Transform::Identity()},
      {.source_ids = {5}, .field_id = 1004, .name = "score", .transform = Transform::Identity()},
  };
  auto spec = *PartitionSpec::Make(*schema, 7, pf);
  return {schema, spec};
}

ManifestEntry MakeEntry(int i, int version) {
  ManifestEntry e;
  e.status = EntryStatus::kAdded;
  e.snapshot_id = 42;
  DataFile& f = e.data_file;
  f.file_path = "s3://bucket/t/data/file-" + std::to_string(i) + ".parquet";
  f.file_format = "parquet";
  f.partition = {
      i % 3 == 0 ? Literal::Null(PrimitiveType::Get(TypeId::kDate)) : Literal::Date(19000 + i),
      Literal::Int(i % 16), Literal::String("ab" + std::to_string(i % 10)),
      Literal::Decimal(-12345 + i, 12, 2), Literal::Double(i == 2 ? NAN : 0.5 * i)};
  if (i == 2) f.partition[4] = Literal::Double(-0.0);
  f.record_count = 100 + i;
  f.file_size_in_bytes = 4096 * (i + 1);
  f.column_sizes = {{1, 10 + i}, {2, 20}, {3, 30}};
  f.value_counts = {{1, 100 + i}, {2, 100 + i}};
  f.null_value_counts = {{1, 0}, {3, i}};
  f.nan_value_counts = {{5, 1}};
  f.lower_bounds = {{1, *Literal::Long(i).ToBinary()}, {3, "a"}};
  f.upper_bounds = {{1, *Literal::Long(1000 + i).ToBinary()},
                    {3, "a string longer than sixteen bytes"}};
  if (i == 1) f.key_metadata = std::string("\x00\x01\x02", 3);
  f.split_offsets = {4, 1000 + i};
  f.sort_order_id = i % 2 == 0 ? std::optional<int32_t>(1) : std::nullopt;
  f.spec_id = 7;
  if (version >= 3 && i == 3) f.first_row_id = 5000;
  return e;
}

struct Written {
  std::string bytes;
  ManifestFile file;
};

Written WriteManifest(const Table& t, int version, const std::vector<ManifestEntry>& entries,
                      ManifestContent content = ManifestContent::kData) {
  Written w;
  ManifestWriterOptions o;
  o.format_version = version;
  o.snapshot_id = 42;
  o.content = content;
  auto writer = ManifestWriter::Open(
      [&w](std::span<const std::byte> b) {
        w.bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      "mem://m.avro", *t.schema, *t.spec, o);
  EXPECT_TRUE(writer.has_value()) << writer.error().ToString();
  for (const auto& e : entries) {
    Status s = (*writer)->Add(e);
    EXPECT_TRUE(s.has_value()) << s.error().ToString();
  }
  auto file = (*writer)->Close();
  EXPECT_TRUE(file.has_value()) << file.error().ToString();
  w.file = *file;
  return w;
}

class RoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(RoundTrip, WrittenManifestReadsBackEqual) {
  const int version = GetParam();
  Table t = MakeTable();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 6; ++i) entries.push_back(MakeEntry(i, version));
  if (version >= 2) {
    entries[4].status = EntryStatus::kExisting;
    entries[4].sequence_number = 3;
    entries[4].file_sequence_number = 4;
    entries[5].status = EntryStatus::kDeleted;
    entries[5].sequence_number = 2;
    entries[5].file_sequence_number = 2;
  }
  Written w = WriteManifest(t, version, entries);
  EXPECT_EQ(w.file.manifest_length, static_cast<int64_t>(w.bytes.size()));
  EXPECT_EQ(w.file.partition_spec_id, 7);

  // As the manifest list would describe it after commit with sequence number 9.
  ManifestFile listed = w.file;
  listed.sequence_number = version >= 2 ? 9 : 0;
  listed.first_row_id = version >= 3 ? std::optional<int64_t>(100) : std::nullopt;
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ManifestReader::Open(Bytes(w.bytes), "m", &listed));
  EXPECT_EQ(reader->format_version(), version);
  EXPECT_EQ(reader->spec_id(), 7);
  EXPECT_EQ(reader->metadata().at("partition-spec-id"), "7");
  EXPECT_EQ(reader->metadata().at("schema-id"), "3");
  EXPECT_EQ(reader->metadata().at("format-version"), std::to_string(version));
  EXPECT_EQ(reader->metadata().at("avro.codec"), "deflate");
  EXPECT_EQ(reader->metadata().count("content"), version >= 2 ? 1u : 0u);
  FLOE_ASSERT_OK_AND_ASSIGN(Json spec_json, Json::Parse(reader->metadata().at("partition-spec")));
  EXPECT_EQ(spec_json.as_array().size(), 5u);
  ASSERT_EQ(reader->partition_type()->fields().size(), 5u);
  EXPECT_EQ(reader->partition_type()->fields()[0].id, 1000);
  EXPECT_EQ(reader->partition_type()->fields()[0].type->id(), TypeId::kDate);
  EXPECT_EQ(reader->partition_type()->fields()[3].type->ToString(), "decimal(12, 2)");

  FLOE_ASSERT_OK_AND_ASSIGN(auto read, reader->ReadAll());
  ASSERT_EQ(read.size(), entries.size());
  int64_t next_row_id = 100;
  for (size_t i = 0; i < read.size(); ++i) {
    SCOPED_TRACE(i);
    ManifestEntry expected = entries[i];
    if (version == 1) {
      expected.sequence_number = 0;
      expected.file_sequence_number = 0;
    } else if (expected.status == EntryStatus::kAdded) {
      expected.sequence_number = 9;
      expected.file_sequence_number = 9;
    }
    if (version >= 3 && !expected.data_file.first_row_id) {
      expected.data_file.first_row_id = next_row_id;
      next_row_id += expected.data_file.record_count;
    }
    // NaN never equals itself as a Literal; compare it separately.
    if (i == 2) {
      EXPECT_TRUE(read[i].data_file.partition[4].type_id() == TypeId::kDouble);
      expected.data_file.partition[4] = read[i].data_file.partition[4];
    }
    EXPECT_EQ(read[i].data_file.partition, expected.data_file.partition);
    EXPECT_EQ(read[i], expected);
  }
  EXPECT_EQ(read[3].data_file.first_row_id,
            version >= 3 ? std::optional<int64_t>(5000) : std::nullopt);

  // Partition summaries and counts.
  ASSERT_TRUE(w.file.partitions.has_value());
  const auto& s = *w.file.partitions;
  ASSERT_EQ(s.size(), 5u);
  EXPECT_TRUE(s[0].contains_null);  // entries 0 and 3
  EXPECT_EQ(s[0].lower_bound, *Literal::Date(19001).ToBinary());
  EXPECT_EQ(s[0].upper_bound, *Literal::Date(19005).ToBinary());
  EXPECT_FALSE(s[1].contains_null);
  EXPECT_EQ(s[2].lower_bound, "ab0");
  EXPECT_EQ(s[2].upper_bound, "ab5");
  EXPECT_EQ(s[3].lower_bound, *Literal::Decimal(-12345, 12, 2).ToBinary());
  EXPECT_EQ(s[4].contains_nan, false);
  EXPECT_EQ(s[4].lower_bound, *Literal::Double(-0.0).ToBinary());  // -0.0 sorts before 0.0
  EXPECT_EQ(s[4].upper_bound, *Literal::Double(2.5).ToBinary());
  if (version >= 2) {
    EXPECT_EQ(w.file.added_files_count, 4);
    EXPECT_EQ(w.file.existing_files_count, 1);
    EXPECT_EQ(w.file.deleted_files_count, 1);
    EXPECT_EQ(w.file.added_rows_count, 100 + 101 + 102 + 103);
    EXPECT_EQ(w.file.existing_rows_count, 104);
    EXPECT_EQ(w.file.deleted_rows_count, 105);
    EXPECT_EQ(w.file.sequence_number, kUnassignedSequenceNumber);
    EXPECT_EQ(w.file.min_sequence_number, kUnassignedSequenceNumber);
  } else {
    EXPECT_EQ(w.file.added_files_count, 6);
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, RoundTrip, ::testing::Values(1, 2, 3));

TEST(Cursor, SkipVarintsLandsOnTheNextValue) {
  // Avro longs (zigzag, 7 bits a byte) of 1 to 10 bytes, encoded here byte by byte.
  std::vector<int64_t> values;
  for (int i = 0; i < 40; ++i) {
    values.push_back(i % 2 ? -(int64_t{1} << (i * 3 % 63)) : (int64_t{1} << (i * 5 % 63)) + i);
  }
  values.push_back(INT64_MIN);
  values.push_back(INT64_MAX);
  std::string bytes;
  for (int64_t v : values) {
    uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    do {
      uint8_t b = z & 0x7f;
      z >>= 7;
      bytes.push_back(static_cast<char>(z ? b | 0x80 : b));
    } while (z);
  }
  const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
  for (size_t skip = 0; skip < values.size(); ++skip) {
    Cursor c(begin, begin + bytes.size(), 0);
    c.SkipVarints(static_cast<int64_t>(skip));
    ASSERT_TRUE(c.ok()) << skip;
    EXPECT_EQ(c.Long(), values[skip]) << skip;
  }
  Cursor all(begin, begin + bytes.size(), 0);
  all.SkipVarints(static_cast<int64_t>(values.size()));
  EXPECT_TRUE(all.ok());
  EXPECT_EQ(all.remaining(), 0u);
  Cursor past(begin, begin + bytes.size(), 0);
  past.SkipVarints(static_cast<int64_t>(values.size()) + 1);
  EXPECT_FALSE(past.ok());
}

// Appends an Avro long (zigzag, 7 bits a byte), encoded here byte by byte.
void AppendLong(std::string& out, int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  do {
    uint8_t b = z & 0x7f;
    z >>= 7;
    out.push_back(static_cast<char>(z ? b | 0x80 : b));
  } while (z);
}

TEST(Cursor, SkipKeyedBytesLandsOnTheNextValueNearAndFarFromTheEnd) {
  // Items of a key (1 to 10 bytes) and a value (0 to 40 bytes), then a marker.
  std::string bytes;
  std::vector<size_t> item_ends;
  for (int i = 0; i < 30; ++i) {
    AppendLong(bytes, i % 3 ? INT64_MIN + i : i * 1000);
    std::string value(static_cast<size_t>(i * 7 % 41), static_cast<char>('a' + i % 26));
    AppendLong(bytes, static_cast<int64_t>(value.size()));
    bytes += value;
    item_ends.push_back(bytes.size());
  }
  AppendLong(bytes, 12345);
  const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
  for (size_t skip = 0; skip <= item_ends.size(); ++skip) {
    Cursor c(begin, begin + bytes.size(), 0);
    c.SkipKeyedBytes(static_cast<int64_t>(skip));
    ASSERT_TRUE(c.ok()) << skip;
    EXPECT_EQ(c.position(), skip == 0 ? 0 : item_ends[skip - 1]) << skip;
  }
  Cursor all(begin, begin + bytes.size(), 0);
  all.SkipKeyedBytes(static_cast<int64_t>(item_ends.size()));
  EXPECT_EQ(all.Long(), 12345);
  EXPECT_EQ(all.remaining(), 0u);
  Cursor past(begin, begin + bytes.size(), 0);
  past.SkipKeyedBytes(static_cast<int64_t>(item_ends.size()) + 1);
  EXPECT_FALSE(past.ok());

  // A value longer than what remains, and a key that never ends, fail far from the end too.
  std::string bad;
  AppendLong(bad, 1);
  AppendLong(bad, 1000);
  bad += std::string(30, 'x');
  Cursor too_long(reinterpret_cast<const uint8_t*>(bad.data()),
                  reinterpret_cast<const uint8_t*>(bad.data()) + bad.size(), 0);
  too_long.SkipKeyedBytes(1);
  EXPECT_FALSE(too_long.ok());
  std::string negative;
  AppendLong(negative, 1);
  AppendLong(negative, -3);
  negative += std::string(30, 'x');
  Cursor below_zero(reinterpret_cast<const uint8_t*>(negative.data()),
                    reinterpret_cast<const uint8_t*>(negative.data()) + negative.size(), 0);
  below_zero.SkipKeyedBytes(1);
  EXPECT_FALSE(below_zero.ok());
  std::string endless(30, '\xff');
  Cursor no_end(reinterpret_cast<const uint8_t*>(endless.data()),
                reinterpret_cast<const uint8_t*>(endless.data()) + endless.size(), 0);
  no_end.SkipKeyedBytes(1);
  EXPECT_FALSE(no_end.ok());
}

TEST(Cursor, BlockCountIsBoundedByTheBytesThatRemain) {
  std::string bytes;
  AppendLong(bytes, 4);
  bytes += std::string(8, '\0');
  const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
  Cursor fits(begin, begin + bytes.size(), 0);
  EXPECT_EQ(fits.BlockCount(2), 4);
  EXPECT_TRUE(fits.ok());
  Cursor too_many(begin, begin + bytes.size(), 0);
  EXPECT_EQ(too_many.BlockCount(3), 0);
  EXPECT_FALSE(too_many.ok());
  // A negative count is followed by the block's byte size; the largest count is refused.
  std::string negative;
  AppendLong(negative, -2);
  AppendLong(negative, 4);
  negative += std::string(4, '\0');
  Cursor sized(reinterpret_cast<const uint8_t*>(negative.data()),
               reinterpret_cast<const uint8_t*>(negative.data()) + negative.size(), 0);
  EXPECT_EQ(sized.BlockCount(2), 2);
  std::string huge;
  AppendLong(huge, INT64_MAX);
  huge += std::string(16, '\0');
  Cursor overflow(reinterpret_cast<const uint8_t*>(huge.data()),
                  reinterpret_cast<const uint8_t*>(huge.data()) + huge.size(), 0);
  EXPECT_EQ(overflow.BlockCount(1 << 20), 0);
  EXPECT_FALSE(overflow.ok());
}

TEST(ManifestReader, SelectStatsLeavesOtherColumnsOut) {
  Table t = MakeTable();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 4; ++i) entries.push_back(MakeEntry(i, 2));
  Written w = WriteManifest(t, 2, entries);
  FLOE_ASSERT_OK_AND_ASSIGN(auto none, ManifestReader::Open(Bytes(w.bytes), "m", &w.file));
  none->SelectStats({});
  FLOE_ASSERT_OK_AND_ASSIGN(auto some, ManifestReader::Open(Bytes(w.bytes), "m", &w.file));
  some->SelectStats({3, 5});
  for (size_t i = 0; i < entries.size(); ++i) {
    SCOPED_TRACE(i);
    ManifestEntry a, b;
    ASSERT_TRUE(*none->Next(a));
    ASSERT_TRUE(*some->Next(b));
    const DataFile& f = entries[i].data_file;
    EXPECT_EQ(a.data_file.file_path, f.file_path);
    EXPECT_EQ(a.data_file.record_count, f.record_count);
    EXPECT_EQ(a.data_file.split_offsets, f.split_offsets);
    EXPECT_TRUE(a.data_file.column_sizes.empty());
    EXPECT_TRUE(a.data_file.value_counts.empty());
    EXPECT_TRUE(a.data_file.lower_bounds.empty());
    EXPECT_TRUE(a.data_file.upper_bounds.empty());
    // MakeEntry's statistics of columns 3 and 5.
    EXPECT_EQ(b.data_file.column_sizes, (CountMap{{3, 30}}));
    EXPECT_TRUE(b.data_file.value_counts.empty());
    EXPECT_EQ(b.data_file.null_value_counts, (CountMap{{3, static_cast<int64_t>(i)}}));
    EXPECT_EQ(b.data_file.nan_value_counts, (CountMap{{5, 1}}));
    EXPECT_EQ(b.data_file.lower_bounds, (BoundMap{{3, "a"}}));
    EXPECT_EQ(b.data_file.upper_bounds, (BoundMap{{3, "a string longer than sixteen bytes"}}));
  }
}

// DuckDB's manifest of a uuid table: the 16-byte bounds of the first entry fill strings that the
// reader then reuses. Expected values as avro-cat prints them.
TEST(ManifestReader, BoundsLongerThanTheReusedStrings) {
  std::string bytes = testing::ReadFileOrDie(testing::TestDataDir() /
                                             "duckdb-iceberg/data/persistent/uuid/metadata/"
                                             "69f1c254-2a62-4b99-93db-aa35863e91ff-m0.avro");
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ManifestReader::Open(Bytes(bytes), "uuid-m0"));
  auto hex = [](const BoundMap& bounds) {
    std::string out;
    for (const auto& [id, value] : bounds) {
      out += fmt::format("{}:", id);
      for (unsigned char c : value) out += fmt::format("{:02x}", c);
    }
    return out;
  };
  ManifestEntry entry;
  ASSERT_TRUE(*reader->Next(entry));
  EXPECT_EQ(hex(entry.data_file.lower_bounds), "1:8dc314d83fd44b3a8bf5c008f363c2e4");
  EXPECT_EQ(hex(entry.data_file.upper_bounds), "1:f9f2846551cf45f18985e01d9a82253c");
  ASSERT_TRUE(*reader->Next(entry));
  EXPECT_EQ(hex(entry.data_file.lower_bounds), "1:1571effbfacd42a390e90af522e9b6c2");
  EXPECT_EQ(hex(entry.data_file.upper_bounds), "1:7fae299ccf0547779b4257a52e1415ed");
}

TEST(ManifestSummary, NanAndAllNull) {
  auto type =
      StructType::Make({{.id = 1000, .name = "d", .type = PrimitiveType::Get(TypeId::kDouble)},
                        {.id = 1001, .name = "s", .type = PrimitiveType::Get(TypeId::kString)}});
  PartitionSummary summary(type);
  FLOE_ASSERT_OK(
      summary.Update({Literal::Double(NAN), Literal::Null(PrimitiveType::Get(TypeId::kString))}));
  FLOE_ASSERT_OK(
      summary.Update({Literal::Double(1.5), Literal::Null(PrimitiveType::Get(TypeId::kString))}));
  EXPECT_FALSE(summary.Update({Literal::Int(1), Literal::String("x")}).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(auto s, summary.Summaries());
  EXPECT_EQ(s[0].contains_nan, true);
  EXPECT_FALSE(s[0].contains_null);
  EXPECT_EQ(s[0].lower_bound, *Literal::Double(1.5).ToBinary());
  EXPECT_TRUE(s[1].contains_null);
  EXPECT_FALSE(s[1].lower_bound.has_value());
}

std::string WriteList(const ManifestListWriterOptions& o, const std::vector<ManifestFile>& files,
                      std::optional<int64_t>* next_row_id = nullptr) {
  std::string out;
  auto writer = ManifestListWriter::Open(
      [&out](std::span<const std::byte> b) {
        out.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      o);
  EXPECT_TRUE(writer.has_value()) << writer.error().ToString();
  for (const auto& f : files) {
    Status s = (*writer)->Add(f);
    EXPECT_TRUE(s.has_value()) << s.error().ToString();
  }
  EXPECT_TRUE((*writer)->Close().has_value());
  if (next_row_id) *next_row_id = (*writer)->next_row_id();
  return out;
}

class ListRoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(ListRoundTrip, AssignsSequenceNumbersAndRowIds) {
  const int version = GetParam();
  Table t = MakeTable();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 3; ++i) entries.push_back(MakeEntry(i, 1));
  Written data = WriteManifest(t, version, entries);
  ManifestFile old = data.file;
  old.manifest_path = "mem://old.avro";
  old.sequence_number = 3;
  old.min_sequence_number = 2;
  old.added_snapshot_id = 7;
  if (version >= 3) old.first_row_id = 10;
  std::vector<ManifestFile> files = {data.file, old};
  if (version >= 2) {
    std::vector<ManifestEntry> deletes = {MakeEntry(9, 2)};
    deletes[0].data_file.content = FileContent::kEqualityDeletes;
    deletes[0].data_file.equality_ids = {1, 3};
    files.push_back(WriteManifest(t, version, deletes, ManifestContent::kDeletes).file);
  }
  ManifestListWriterOptions o;
  o.format_version = version;
  o.snapshot_id = 42;
  o.parent_snapshot_id = 41;
  o.sequence_number = 12;
  if (version >= 3) o.first_row_id = 1000;
  std::optional<int64_t> next_row_id;
  std::string bytes = WriteList(o, files, &next_row_id);

  FLOE_ASSERT_OK_AND_ASSIGN(auto container, avro::ContainerReader::Open(Bytes(bytes), "list"));
  EXPECT_EQ(container->Metadata("snapshot-id"), "42");
  EXPECT_EQ(container->Metadata("parent-snapshot-id"), "41");
  EXPECT_EQ(container->Metadata("format-version"), std::to_string(version));
  FLOE_ASSERT_OK_AND_ASSIGN(auto read, ReadManifestList(Bytes(bytes), "list"));
  ASSERT_EQ(read.size(), files.size());
  ManifestFile expected = files[0];
  if (version >= 2) {
    expected.sequence_number = 12;
    expected.min_sequence_number = 12;
  }
  if (version >= 3) expected.first_row_id = 1000;
  EXPECT_EQ(read[0], expected);
  if (version == 1) {  // v1 lists have no sequence numbers
    old.sequence_number = 0;
    old.min_sequence_number = 0;
  }
  EXPECT_EQ(read[1], old);
  if (version >= 3) {
    EXPECT_EQ(next_row_id, 1000 + 100 + 101 + 102);
    EXPECT_EQ(read[2].first_row_id, std::nullopt);  // delete manifests get none
  }
  if (version >= 2) {
    EXPECT_EQ(read[2].content, ManifestContent::kDeletes);
    // Reading the delete manifest through its list entry inherits the list's numbers.
    Written del = WriteManifest(t, version, {[&] {
                                  ManifestEntry e = MakeEntry(9, 2);
                                  e.snapshot_id.reset();
                                  e.data_file.content = FileContent::kPositionDeletes;
                                  e.data_file.referenced_data_file = "s3://bucket/t/data/x.parquet";
                                  return e;
                                }()},
                                ManifestContent::kDeletes);
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ManifestReader::Open(Bytes(del.bytes), "d", &read[2]));
    EXPECT_EQ(reader->content(), ManifestContent::kDeletes);
    FLOE_ASSERT_OK_AND_ASSIGN(auto des, reader->ReadAll());
    ASSERT_EQ(des.size(), 1u);
    EXPECT_EQ(des[0].snapshot_id, 42);
    EXPECT_EQ(des[0].sequence_number, 12);
    EXPECT_EQ(des[0].data_file.first_row_id, std::nullopt);
    EXPECT_EQ(des[0].data_file.referenced_data_file, "s3://bucket/t/data/x.parquet");
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, ListRoundTrip, ::testing::Values(1, 2, 3));

TEST(ManifestWriter, RefusesWhatTheVersionCannotHold) {
  Table t = MakeTable();
  ManifestWriterOptions o;
  o.format_version = 2;
  std::string sink;
  auto writer = ManifestWriter::Open(
      [&sink](std::span<const std::byte> b) {
        sink.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      "m", *t.schema, *t.spec, o);
  ASSERT_TRUE(writer.has_value());
  ManifestEntry e = MakeEntry(1, 2);
  e.data_file.partition.pop_back();
  EXPECT_FALSE((*writer)->Add(e).has_value());
  e = MakeEntry(1, 2);
  e.data_file.first_row_id = 3;
  EXPECT_FALSE((*writer)->Add(e).has_value());
  e = MakeEntry(1, 2);
  e.status = EntryStatus::kExisting;  // without sequence numbers
  EXPECT_FALSE((*writer)->Add(e).has_value());
  e = MakeEntry(1, 2);
  e.data_file.content = FileContent::kPositionDeletes;
  EXPECT_FALSE((*writer)->Add(e).has_value());
  FLOE_ASSERT_OK((*writer)->Add(MakeEntry(1, 2)));
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, (*writer)->Close());
  EXPECT_EQ(file.added_files_count, 1);
}

TEST(ManifestReader, DamagedFilesFailCleanly) {
  Table t = MakeTable();
  std::vector<ManifestEntry> entries;
  for (int i = 0; i < 20; ++i) entries.push_back(MakeEntry(i, 2));
  ManifestWriterOptions o;
  Written w = WriteManifest(t, 2, entries);
  // Uncompressed, so that flipped bytes reach the entry decoder rather than inflate.
  std::string raw;
  {
    o.codec = avro::AvroCodec::kNull;
    auto writer = *ManifestWriter::Open(
        [&raw](std::span<const std::byte> b) {
          raw.append(reinterpret_cast<const char*>(b.data()), b.size());
          return Ok();
        },
        "m", *t.schema, *t.spec, o);
    for (const auto& e : entries) ASSERT_TRUE(writer->Add(e).has_value());
    ASSERT_TRUE(writer->Close().has_value());
  }
  for (const std::string* file : {&w.bytes, &raw}) {
    for (size_t cut = 0; cut < file->size(); cut += 37) {
      std::string truncated = file->substr(0, cut);
      auto reader = ManifestReader::Open(Bytes(truncated), "cut");
      if (!reader) continue;
      auto all = (*reader)->ReadAll();
      EXPECT_FALSE(all.has_value()) << cut;
    }
    size_t header = 0;
    {
      auto c = *avro::ContainerReader::Open(Bytes(*file), "x");
      header = c->header_size();
    }
    for (size_t at = header; at < file->size(); at += 13) {
      std::string damaged = *file;
      damaged[at] = static_cast<char>(damaged[at] ^ 0xA5);
      auto reader = ManifestReader::Open(Bytes(damaged), "flip");
      if (!reader) continue;
      auto all = (*reader)->ReadAll();  // may fail or read different values; must not crash
      if (!all) {
        EXPECT_NE(all.error().message().find("flip"), std::string::npos);
      }
    }
  }
}

TEST(ManifestReader, RefusesAListAsManifestAndBack) {
  Table t = MakeTable();
  Written w = WriteManifest(t, 2, {MakeEntry(1, 2)});
  EXPECT_FALSE(ReadManifestList(Bytes(w.bytes), "m").has_value());
  ManifestListWriterOptions o;
  std::string list = WriteList(o, {w.file});
  EXPECT_FALSE(ManifestReader::Open(Bytes(list), "l").has_value());
}

// What floe writes, avsc (an independent Avro implementation) reads as the same records.
TEST(ManifestPeer, AvroCatReadsWhatWeWrite) {
  fs::path peer = testing::SharedDir() / "peers" / "avro-cat";
  const char* home = std::getenv("FLOE_PEERS_HOME");
  fs::path peers_home =
      home ? fs::path(home)
           : fs::path(std::getenv("HOME") ? std::getenv("HOME") : "/") / ".cache/floe-peers";
  if (!fs::exists(peer) || !fs::exists(peers_home / "node_modules" / "avsc")) {
    GTEST_SKIP() << "avro-cat peer not installed (run shared/peers/setup)";
  }
  Table t = MakeTable();
  testing::TempDir dir;
  for (int version : {1, 2, 3}) {
    SCOPED_TRACE(version);
    std::vector<ManifestEntry> entries;
    for (int i = 0; i < 4; ++i) entries.push_back(MakeEntry(i, version));
    Written w = WriteManifest(t, version, entries);
    fs::path path = dir.path() / ("m" + std::to_string(version) + ".avro");
    std::ofstream(path, std::ios::binary) << w.bytes;
    std::string cmd = peer.string() + " " + path.string();
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
    ASSERT_EQ(pclose(pipe), 0) << output;
    std::istringstream lines(output);
    std::string line;
    size_t i = 0;
    for (; std::getline(lines, line); ++i) {
      ASSERT_LT(i, entries.size());
      FLOE_ASSERT_OK_AND_ASSIGN(Json j, Json::Parse(line));
      const DataFile& f = entries[i].data_file;
      const Json& df = *j.Find("data_file");
      EXPECT_EQ(j.Find("status")->as_int(), 1);
      EXPECT_EQ(j.Find("snapshot_id")->as_string(), "42");
      EXPECT_EQ(df.Find("file_path")->as_string(), f.file_path);
      EXPECT_EQ(df.Find("record_count")->as_string(), std::to_string(f.record_count));
      const Json& part = *df.Find("partition");
      if (f.partition[0].is_null()) {
        EXPECT_TRUE(part.Find("ts_day")->is_null());
      } else {
        EXPECT_EQ(part.Find("ts_day")->as_int(), f.partition[0].int_value());
      }
      EXPECT_EQ(part.Find("name_bucket")->as_int(), f.partition[1].int_value());
      EXPECT_EQ(part.Find("name_trunc")->as_string(), f.partition[2].bytes_value());
      const auto& uppers = df.Find("upper_bounds")->as_array();
      ASSERT_EQ(uppers.size(), f.upper_bounds.size());
      for (size_t k = 0; k < uppers.size(); ++k) {
        EXPECT_EQ(uppers[k].Find("key")->as_int(), f.upper_bounds[k].first);
        std::string hex;
        for (unsigned char c : f.upper_bounds[k].second) hex += fmt::format("{:02x}", c);
        EXPECT_EQ(uppers[k].Find("value")->as_string(), hex);
      }
      const auto& counts = df.Find("value_counts")->as_array();
      ASSERT_EQ(counts.size(), f.value_counts.size());
      EXPECT_EQ(counts[0].Find("value")->as_string(), std::to_string(f.value_counts[0].second));
    }
    EXPECT_EQ(i, entries.size());
  }
}

}  // namespace
}  // namespace floe::manifest
