#include "floe/spec/table_metadata.h"

#include <gtest/gtest.h>

#include <functional>

#include "floe/io/local_file_io.h"
#include "floe/io/memory_file_io.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/spec/table_metadata_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

using testing::ReadFileOrDie;
using testing::TestDataDir;

constexpr const char* kJavaResources = "iceberg-java/core/src/test/resources/";
constexpr const char* kRustMetadata = "iceberg-rust/crates/iceberg/testdata/table_metadata/";

Json LoadJson(const std::string& relative) {
  auto json = Json::Parse(ReadFileOrDie(TestDataDir() / relative));
  EXPECT_TRUE(json.has_value()) << relative;
  return json.value_or(Json());
}

// Reads a fixture after edit changed its JSON; returns the error message, or "" on success.
std::string ErrorAfterEdit(const std::string& relative, const std::function<void(Json&)>& edit) {
  Json json = LoadJson(relative);
  edit(json);
  auto metadata = TableMetadataFromJson(json);
  return metadata ? "" : metadata.error().message();
}

Json* Member(Json& object, std::string_view key) {
  for (auto& [k, v] : object.as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

TEST(TableMetadataTest, V2ValidFixtureLookups) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr m, TableMetadataFromJsonString(ReadFileOrDie(TestDataDir() / kJavaResources /
                                                                    "TableMetadataV2Valid.json")));
  EXPECT_EQ(m->format_version(), 2);
  EXPECT_EQ(m->table_uuid(), "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m->location(), "s3://bucket/test/location");
  EXPECT_EQ(m->last_sequence_number(), 34);
  EXPECT_EQ(m->last_column_id(), 3);
  ASSERT_EQ(m->schemas().size(), 2u);
  EXPECT_EQ(m->current_schema()->schema_id(), 1);
  EXPECT_EQ(m->current_schema()->identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(m->SchemaById(0)->fields().size(), 1u);
  EXPECT_EQ(m->SchemaById(7), nullptr);
  EXPECT_EQ(m->default_spec()->fields()[0].field_id, 1000);
  EXPECT_EQ(m->last_partition_id(), 1000);
  EXPECT_EQ(m->default_sort_order()->order_id(), 3);
  ASSERT_NE(m->current_snapshot(), nullptr);
  EXPECT_EQ(m->current_snapshot()->snapshot_id, 3055729675574597004);
  EXPECT_EQ(m->current_snapshot()->parent_snapshot_id, 3051729675574597004);
  EXPECT_EQ(m->SnapshotById(3051729675574597004)->manifest_list, "s3://a/b/1.avro");
  // The file has no refs: main is derived from current-snapshot-id.
  const SnapshotRef* main = m->FindRef("main");
  ASSERT_NE(main, nullptr);
  EXPECT_TRUE(main->is_branch());
  EXPECT_EQ(main->snapshot_id, 3055729675574597004);
  EXPECT_EQ(m->snapshot_log().size(), 2u);
}

TEST(TableMetadataTest, V1LegacyFormsAreReadAndWritten) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr m, TableMetadataFromJsonString(ReadFileOrDie(TestDataDir() / kJavaResources /
                                                                    "TableMetadataV1Valid.json")));
  EXPECT_EQ(m->format_version(), 1);
  EXPECT_EQ(m->schemas().size(), 1u);
  EXPECT_EQ(m->current_schema()->fields().size(), 3u);
  EXPECT_EQ(m->partition_specs().size(), 1u);
  EXPECT_EQ(m->default_spec_id(), 0);
  EXPECT_EQ(m->last_partition_id(), 1000);             // derived from the spec's field ids
  EXPECT_EQ(m->sort_orders().size(), 1u);              // unsorted, derived
  EXPECT_FALSE(m->current_snapshot_id().has_value());  // -1
  EXPECT_TRUE(m->refs().empty());

  Json out = TableMetadataToJson(*m);
  EXPECT_NE(out.Find("schema"), nullptr);
  EXPECT_NE(out.Find("partition-spec"), nullptr);
  EXPECT_EQ(out.Find("last-sequence-number"), nullptr);
  EXPECT_EQ(out.Find("refs"), nullptr);
  EXPECT_EQ(out.Find("current-snapshot-id")->as_int(), -1);

  // Rust's lenient v1 readings: the highest spec is the default; `schema` is the current one.
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr specs,
      TableMetadataFromJsonString(ReadFileOrDie(
          TestDataDir() / kRustMetadata / "TableMetadataV1PartitionSpecsWithoutDefaultId.json")));
  EXPECT_EQ(specs->default_spec_id(), 2);
  EXPECT_EQ(specs->default_spec()->fields()[0].name, "y");
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr schemas,
      TableMetadataFromJsonString(ReadFileOrDie(TestDataDir() / kRustMetadata /
                                                "TableMetadataV1SchemasWithoutCurrentId.json")));
  EXPECT_EQ(schemas->current_schema()->fields().size(), 3u);
}

TEST(TableMetadataTest, V3FieldsAreReadAndOnlyWrittenForV3) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr m,
      TableMetadataFromJsonString(
          ReadFileOrDie(TestDataDir() / kRustMetadata / "TableMetadataV3ValidEncryption.json")));
  EXPECT_EQ(m->next_row_id(), 0);
  ASSERT_EQ(m->encryption_keys().size(), 2u);
  EXPECT_EQ(m->current_snapshot()->key_id, "1fb95f04-7f98-4b1f-a08f-e810cfb907ff");
  Json out = TableMetadataToJson(*m);
  EXPECT_EQ(out.Find("next-row-id")->as_int(), 0);
  EXPECT_EQ(out.Find("encryption-keys")->as_array().size(), 2u);
  EXPECT_EQ(out.Find("current-snapshot-id")->as_int(), 1);

  TableMetadataBuilder v2(*m);
  v2.SetFormatVersion(2);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr downgraded, v2.Build());
  Json v2_out = TableMetadataToJson(*downgraded);
  EXPECT_EQ(v2_out.Find("next-row-id"), nullptr);
  EXPECT_EQ(v2_out.Find("encryption-keys"), nullptr);
  EXPECT_EQ(v2_out.Find("snapshots")->as_array()[0].Find("key-id"), nullptr);
}

TEST(TableMetadataTest, BuilderRulesNameTheField) {
  const std::string v2 = std::string(kJavaResources) + "TableMetadataV2Valid.json";
  EXPECT_EQ(ErrorAfterEdit(v2, [](Json&) {}), "");
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("format-version", 4); })
                .find("format-version 4 is not supported"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("table-uuid", "not-a-uuid"); })
                .find("'table-uuid' is not a UUID"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             Json& schemas = *Member(j, "schemas");
                             schemas.as_array()[0].Set("schema-id", 1);
                           })
                .find("'schemas' has two entries with id 1"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("last-partition-id", 999); })
                .find("'last-partition-id' is 999, below partition field id 1000"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("default-spec-id", 5); })
                .find("'default-spec-id' is 5, which is not among 'partition-specs'"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("default-sort-order-id", 0); })
                .find("'default-sort-order-id' is 0, which is not among 'sort-orders'"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("last-sequence-number", 0); })
                .find("sequence-number 1, above 'last-sequence-number' 0"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2, [](Json& j) { j.Set("current-snapshot-id", 42); })
                .find("'current-snapshot-id' is 42, which is not among 'snapshots'"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             Json& snapshots = *Member(j, "snapshots");
                             snapshots.as_array()[1].Set("snapshot-id", 3051729675574597004);
                           })
                .find("two snapshots with id 3051729675574597004"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             j.Set("refs",
                                   *Json::Parse(R"({"main": {"snapshot-id": 3051729675574597004,
                                                      "type": "branch"}})"));
                           })
                .find("ref 'main' points at snapshot 3051729675574597004 but 'current-snapshot-id' "
                      "is 3055729675574597004"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             j.Set("refs",
                                   *Json::Parse(R"({"old": {"snapshot-id": 5, "type": "tag"}})"));
                           })
                .find("ref 'old' points at snapshot 5, which is not among 'snapshots'"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             j.Set("refs",
                                   *Json::Parse(R"({"t": {"snapshot-id": 3051729675574597004,
                                                   "type": "tag", "min-snapshots-to-keep": 2}})"));
                           })
                .find("tag 't' sets a branch-only retention field"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             j.Set("partition-statistics",
                                   *Json::Parse(R"([{"snapshot-id": 1, "statistics-path": "a",
                                      "file-size-in-bytes": 1},
                                     {"snapshot-id": 1, "statistics-path": "b",
                                      "file-size-in-bytes": 1}])"));
                           })
                .find("two files for snapshot 1"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             Json& snapshots = *Member(j, "snapshots");
                             snapshots.as_array()[1].Set("timestamp-ms", "yesterday");
                           })
                .find("snapshots[1]: field 'timestamp-ms'"),
            std::string::npos);

  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             Json& specs = *Member(j, "partition-specs");
                             Json& fields = *Member(specs.as_array()[0], "fields");
                             fields.as_array()[0].Set("transform", "year");  // of a long column
                           })
                .find("partition spec 0: "),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v2,
                           [](Json& j) {
                             Json& orders = *Member(j, "sort-orders");
                             Json& fields = *Member(orders.as_array()[0], "fields");
                             fields.as_array()[0].Set("transform", "day");  // of a long column
                           })
                .find("sort order 3: "),
            std::string::npos);

  // v3 row lineage: next-row-id covers every snapshot's assigned rows.
  const std::string v3 = std::string(kRustMetadata) + "TableMetadataV3ValidEncryption.json";
  EXPECT_EQ(ErrorAfterEdit(v3, [](Json&) {}), "");
  EXPECT_NE(ErrorAfterEdit(v3,
                           [](Json& j) {
                             Json& snapshots = *Member(j, "snapshots");
                             snapshots.as_array()[0].Set("first-row-id", 10);
                             snapshots.as_array()[0].Set("added-rows", 5);
                             j.Set("next-row-id", 12);
                           })
                .find("'next-row-id' is 12, below the rows assigned by snapshot 1"),
            std::string::npos);
  EXPECT_NE(ErrorAfterEdit(v3,
                           [](Json& j) {
                             Json& snapshots = *Member(j, "snapshots");
                             snapshots.as_array()[0].Set("key-id", "nope");
                           })
                .find("key-id 'nope', which is not among 'encryption-keys'"),
            std::string::npos);
}

TEST(TableMetadataTest, LastColumnIdBelowAFieldIsStrictOnlyForNewMetadata) {
  // Rust's example (and Impala tables) carry last-column-id 3 with fields up to id 8.
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr m,
      TableMetadataFromJsonString(ReadFileOrDie(
          TestDataDir() / "iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2.json")));
  EXPECT_EQ(m->last_column_id(), 3);
  EXPECT_EQ(m->highest_assigned_column_id(), 8);
  auto strict = TableMetadataBuilder(*m).Build();
  ASSERT_FALSE(strict.has_value());
  EXPECT_NE(strict.error().message().find("'last-column-id' is 3, below field id 8 of schema 1"),
            std::string::npos);
  FLOE_EXPECT_OK(TableMetadataBuilder(*m).SetLastColumnId(8).Build());
}

TEST(TableMetadataTest, GzipAndZstdFiles) {
  // DuckDB's gzip-compressed v1 table, named the Hadoop way.
  io::LocalFileIO local;
  const std::string gz = (TestDataDir() /
                          "duckdb-iceberg/data/persistent/iceberg/lineitem_iceberg_gz/metadata/"
                          "v2.gz.metadata.json")
                             .string();
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr lineitem, ReadTableMetadata(local, gz));
  EXPECT_EQ(lineitem->format_version(), 1);
  EXPECT_EQ(lineitem->snapshots().size(), 1u);

  // iceberg-go's zstd-compressed file; expected values from decoding it with the zstd tool.
  FLOE_ASSERT_OK_AND_ASSIGN(
      TableMetadataPtr go,
      ReadTableMetadata(local, (TestDataDir() / "iceberg-go/table/testdata/"
                                                "TableMetadataV2Valid.zstd.metadata.json")
                                   .string()));
  EXPECT_EQ(go->table_uuid(), "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(go->last_updated_ms(), 1602638573590);
  EXPECT_EQ(go->last_partition_id(), 999);
  EXPECT_TRUE(go->snapshots().empty());

  // Writing follows the name: gzip for both spellings, plain otherwise.
  EXPECT_EQ(MetadataCompressionForName("m/v3.gz.metadata.json"), MetadataCompression::kGzip);
  EXPECT_EQ(MetadataCompressionForName("m/00001-x.metadata.json.gz"), MetadataCompression::kGzip);
  EXPECT_EQ(MetadataCompressionForName("m/v3.metadata.json"), MetadataCompression::kNone);
  io::MemoryFileIO memory;
  FLOE_ASSERT_OK(WriteTableMetadata(memory, "mem/t/metadata/00001-a.metadata.json.gz", *lineitem));
  FLOE_ASSERT_OK_AND_ASSIGN(std::string bytes,
                            memory.ReadFile("mem/t/metadata/00001-a.metadata.json.gz"));
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr back,
                            ReadTableMetadata(memory, "mem/t/metadata/00001-a.metadata.json.gz"));
  EXPECT_EQ(TableMetadataToJson(*back), TableMetadataToJson(*lineitem));
  auto again = WriteTableMetadata(memory, "mem/t/metadata/00001-a.metadata.json.gz", *lineitem);
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind(), ErrorKind::kAlreadyExists);

  // Damaged compressed data is an error naming the file, never a crash.
  for (size_t cut : {size_t{1}, size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
    FLOE_ASSERT_OK(memory.WriteFile("mem/cut.gz.metadata.json", bytes.substr(0, cut), true));
    auto cut_result = ReadTableMetadata(memory, "mem/cut.gz.metadata.json");
    ASSERT_FALSE(cut_result.has_value()) << cut;
    EXPECT_NE(cut_result.error().message().find("mem/cut.gz.metadata.json"), std::string::npos);
  }
}

TEST(TableMetadataTest, NewTableFromTheBuilder) {
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema,
                            Schema::Make({types::Required(1, "id", types::Long()),
                                          types::Optional(2, "v", types::String())},
                                         0, {1}));
  TableMetadataBuilder builder(2);
  builder.SetTableUuid("fb072c92-a02b-11e9-ae9c-1bb7bc9eca94")
      .SetLocation("s3://b/wh/db/t")
      .SetLastUpdatedMs(1515100955770)
      .SetLastColumnId(2)
      .AddSchema(schema)
      .SetCurrentSchemaId(0)
      .AddPartitionSpec(PartitionSpec::Unpartitioned())
      .SetDefaultSpecId(0)
      .AddSortOrder(SortOrder::Unsorted())
      .SetDefaultSortOrderId(0)
      .SetLastSequenceNumber(1)
      .AddSnapshot(std::make_shared<const Snapshot>(
          Snapshot{.snapshot_id = 10,
                   .sequence_number = 1,
                   .timestamp_ms = 1515100955770,
                   .manifest_list = "s3://b/wh/db/t/metadata/snap-10.avro",
                   .summary = {{"operation", "append"}},
                   .schema_id = 0}))
      .SetCurrentSnapshotId(10);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr m, builder.Build());
  EXPECT_EQ(m->last_partition_id(), 999);
  EXPECT_EQ(m->FindRef("main")->snapshot_id, 10);

  // Every field the spec marks required for v2 is written.
  Json json = TableMetadataToJson(*m);
  for (const char* field :
       {"format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
        "last-column-id", "schemas", "current-schema-id", "partition-specs", "default-spec-id",
        "last-partition-id", "sort-orders", "default-sort-order-id"}) {
    EXPECT_NE(json.Find(field), nullptr) << field;
  }
  EXPECT_EQ(json.Find("schema"), nullptr);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr back, TableMetadataFromJson(json));
  EXPECT_EQ(TableMetadataToJson(*back), json);

  // The next version: a new snapshot becomes current and main follows it.
  TableMetadataBuilder next(*m);
  next.SetLastSequenceNumber(2)
      .AddSnapshot(std::make_shared<const Snapshot>(
          Snapshot{.snapshot_id = 11,
                   .parent_snapshot_id = 10,
                   .sequence_number = 2,
                   .timestamp_ms = 1515100965770,
                   .manifest_list = "s3://b/wh/db/t/metadata/snap-11.avro",
                   .summary = {{"operation", "append"}}}))
      .SetCurrentSnapshotId(11);
  FLOE_ASSERT_OK_AND_ASSIGN(TableMetadataPtr m2, next.Build());
  EXPECT_EQ(m2->current_snapshot()->parent_snapshot_id, 10);
  EXPECT_EQ(m2->FindRef("main")->snapshot_id, 11);
  EXPECT_EQ(m->FindRef("main")->snapshot_id, 10);  // the base is untouched

  // A v2 table with an empty schema list has no current schema.
  auto empty = TableMetadataBuilder(2)
                   .SetTableUuid("fb072c92-a02b-11e9-ae9c-1bb7bc9eca94")
                   .SetLocation("s3://b/wh/db/t")
                   .Build();
  ASSERT_FALSE(empty.has_value());
  EXPECT_NE(empty.error().message().find("'schemas' must not be empty"), std::string::npos);
}

}  // namespace
}  // namespace floe
