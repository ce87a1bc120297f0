#include "floe/catalog/metadata_files.h"

#include <gtest/gtest.h>

#include "floe/io/local_file_io.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

// A schema with ids a client might send (not fresh): a struct and a list, to check the order in
// which fresh ids are handed out.
SchemaPtr ClientSchema() {
  using namespace floe::types;
  auto point = StructType::Make({Required(50, "x", Double()), Required(51, "y", Double())});
  auto tags = ListType::Make(60, String(), false);
  return std::make_shared<Schema>(
      std::vector<NestedField>{Required(10, "id", Long()), Optional(20, "point", point),
                               Optional(30, "tags", tags), Optional(40, "ts", TimestampTz())},
      7, std::vector<int32_t>{10});
}

CreateTableRequest Request() {
  CreateTableRequest request;
  request.schema = ClientSchema();
  auto spec = PartitionSpec::Make(*request.schema, 5,
                                  {PartitionField{{40}, 1234, "ts_day", Transform::Day()},
                                   PartitionField{{10}, 1300, "id_bucket", Transform::Bucket(8)}});
  EXPECT_TRUE(spec.has_value());
  request.spec = *spec;
  auto order = SortOrder::Make(*request.schema, 9, {SortField{Transform::Identity(), {50}}});
  EXPECT_TRUE(order.has_value());
  request.sort_order = *order;
  request.properties = {{"format-version", "1"}, {"owner", "me"}};
  return request;
}

TEST(MetadataFilesTest, DefaultTableLocationJoinsLevels) {
  EXPECT_EQ(DefaultTableLocation("/wh/", {{{"a", "b"}}, "t"}), "/wh/a/b/t");
  EXPECT_EQ(DefaultTableLocation("file:///wh", {{{"db"}}, "t"}), "file:///wh/db/t");
}

TEST(MetadataFilesTest, NewTableGetsFreshIdsAsIcebergJava) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto metadata, NewTableMetadata(Request(), "/wh/db/t/", 1234));
  EXPECT_EQ(metadata->format_version(), 1);
  EXPECT_EQ(metadata->location(), "/wh/db/t");
  EXPECT_EQ(metadata->last_updated_ms(), 1234);
  EXPECT_EQ(metadata->table_uuid().size(), 36u);
  EXPECT_EQ(metadata->properties(), (StringMap{{"owner", "me"}}));

  // Top-level columns first (1..4), then the struct's fields, then the list element.
  const Schema& schema = *metadata->current_schema();
  EXPECT_EQ(schema.schema_id(), 0);
  EXPECT_EQ(schema.FindField("id")->id, 1);
  EXPECT_EQ(schema.FindField("point")->id, 2);
  EXPECT_EQ(schema.FindField("tags")->id, 3);
  EXPECT_EQ(schema.FindField("ts")->id, 4);
  EXPECT_EQ(schema.FindField("point.x")->id, 5);
  EXPECT_EQ(schema.FindField("point.y")->id, 6);
  EXPECT_EQ(schema.FindField("tags.element")->id, 7);
  EXPECT_EQ(metadata->last_column_id(), 7);
  EXPECT_EQ(schema.identifier_field_ids(), std::vector<int32_t>{1});

  const PartitionSpec& spec = *metadata->default_spec();
  EXPECT_EQ(spec.spec_id(), 0);
  ASSERT_EQ(spec.fields().size(), 2u);
  EXPECT_EQ(spec.fields()[0].field_id, 1000);
  EXPECT_EQ(spec.fields()[0].source_id(), 4);
  EXPECT_EQ(spec.fields()[1].field_id, 1001);
  EXPECT_EQ(spec.fields()[1].source_id(), 1);
  EXPECT_EQ(metadata->last_partition_id(), 1001);

  const SortOrder& order = *metadata->default_sort_order();
  EXPECT_EQ(order.order_id(), 1);
  ASSERT_EQ(order.fields().size(), 1u);
  EXPECT_EQ(order.fields()[0].source_id(), 5);
}

TEST(MetadataFilesTest, NewTableDefaultsAndBadFormatVersion) {
  CreateTableRequest request;
  request.schema = ClientSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(auto metadata, NewTableMetadata(request, "/t", 1));
  EXPECT_EQ(metadata->format_version(), 2);
  EXPECT_TRUE(metadata->default_spec()->is_unpartitioned());
  EXPECT_EQ(metadata->last_partition_id(), 999);
  EXPECT_EQ(metadata->default_sort_order_id(), 0);

  request.properties = {{"format-version", "4"}};
  auto bad = NewTableMetadata(request, "/t", 1);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind(), ErrorKind::kInvalidArgument);
  request.properties = {{"format-version", "two"}};
  EXPECT_FALSE(NewTableMetadata(request, "/t", 1).has_value());
  EXPECT_FALSE(NewTableMetadata(CreateTableRequest{}, "/t", 1).has_value());
}

TEST(MetadataFilesTest, FileNames) {
  CreateTableRequest request;
  request.schema = ClientSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(auto plain, NewTableMetadata(request, "/t", 1));
  EXPECT_EQ(*VersionedMetadataFileName(*plain, 3), "v3.metadata.json");
  FLOE_ASSERT_OK_AND_ASSIGN(std::string first, NewMetadataLocation(*plain, ""));
  EXPECT_TRUE(first.starts_with("/t/metadata/00000-")) << first;
  EXPECT_TRUE(first.ends_with(".metadata.json")) << first;
  EXPECT_EQ(first.size(), std::string("/t/metadata/00000-").size() + 36 + 14);
  FLOE_ASSERT_OK_AND_ASSIGN(std::string next, NewMetadataLocation(*plain, first));
  EXPECT_TRUE(next.starts_with("/t/metadata/00001-")) << next;

  request.properties = {{"write.metadata.compression-codec", "GZIP"},
                        {"write.metadata.path", "/elsewhere/meta/"}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto gz, NewTableMetadata(request, "/t", 1));
  EXPECT_EQ(*VersionedMetadataFileName(*gz, 12), "v12.gz.metadata.json");
  FLOE_ASSERT_OK_AND_ASSIGN(std::string moved,
                            NewMetadataLocation(*gz, "/x/00041-abc.metadata.json"));
  EXPECT_TRUE(moved.starts_with("/elsewhere/meta/00042-")) << moved;
  EXPECT_TRUE(moved.ends_with(".gz.metadata.json")) << moved;

  request.properties = {{"write.metadata.compression-codec", "lz4"}};
  FLOE_ASSERT_OK_AND_ASSIGN(auto bad, NewTableMetadata(request, "/t", 1));
  EXPECT_FALSE(VersionedMetadataFileName(*bad, 1).has_value());
}

TEST(MetadataFilesTest, ParseMetadataVersion) {
  EXPECT_EQ(ParseMetadataVersion("/t/metadata/v7.metadata.json"), 7);
  EXPECT_EQ(ParseMetadataVersion("v7.gz.metadata.json"), 7);
  EXPECT_EQ(ParseMetadataVersion("s3://b/m/00012-6f0c-aa.metadata.json"), 12);
  EXPECT_EQ(ParseMetadataVersion("00003-x.metadata.json.gz"), 3);
  EXPECT_EQ(ParseMetadataVersion("vfinal.metadata.json"), std::nullopt);
  EXPECT_EQ(ParseMetadataVersion("v1.metadata.json.crc"), std::nullopt);
  EXPECT_EQ(ParseMetadataVersion("version-hint.text"), std::nullopt);
  EXPECT_EQ(ParseMetadataVersion("snap-1-x.avro"), std::nullopt);
}

TEST(MetadataFilesTest, MetadataLogIsTrimmedAndOldFilesDeleted) {
  testing::TempDir dir;
  io::LocalFileIO io;
  CreateTableRequest request;
  request.schema = ClientSchema();
  request.properties = {{"write.metadata.previous-versions-max", "2"},
                        {"write.metadata.delete-after-commit.enabled", "true"}};
  std::string location = dir.path().string();
  FLOE_ASSERT_OK_AND_ASSIGN(auto current, NewTableMetadata(request, location, 100));
  std::string current_location = location + "/metadata/v1.metadata.json";
  FLOE_ASSERT_OK(WriteTableMetadata(io, current_location, *current));

  std::vector<std::string> all_removed;
  for (int version = 2; version <= 5; ++version) {
    TableMetadataBuilder builder(*current);
    builder.SetLastUpdatedMs(100 * version);
    FLOE_ASSERT_OK_AND_ASSIGN(auto updated, builder.Build());
    std::vector<std::string> removed;
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto next, AddPreviousMetadataFile(*updated, *current, current_location, &removed));
    std::string next_location = location + fmt::format("/metadata/v{}.metadata.json", version);
    FLOE_ASSERT_OK(WriteTableMetadata(io, next_location, *next));
    DeleteRemovedMetadataFiles(io, *next, removed);
    all_removed.insert(all_removed.end(), removed.begin(), removed.end());
    current = next;
    current_location = next_location;
  }
  // v5 remembers v3 and v4; v1 and v2 fell out of the log and were deleted.
  ASSERT_EQ(current->metadata_log().size(), 2u);
  EXPECT_EQ(current->metadata_log()[0].metadata_file, location + "/metadata/v3.metadata.json");
  EXPECT_EQ(current->metadata_log()[0].timestamp_ms, 300);
  EXPECT_EQ(current->metadata_log()[1].metadata_file, location + "/metadata/v4.metadata.json");
  EXPECT_EQ(all_removed, (std::vector<std::string>{location + "/metadata/v1.metadata.json",
                                                   location + "/metadata/v2.metadata.json"}));
  EXPECT_FALSE(*io.Exists(location + "/metadata/v1.metadata.json"));
  EXPECT_FALSE(*io.Exists(location + "/metadata/v2.metadata.json"));
  EXPECT_TRUE(*io.Exists(location + "/metadata/v3.metadata.json"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reread, ReadTableMetadata(io, current_location));
  EXPECT_EQ(reread->metadata_log(), current->metadata_log());
}

TEST(MetadataFilesTest, OldFilesStayWithoutDeleteAfterCommit) {
  testing::TempDir dir;
  io::LocalFileIO io;
  std::string old_file = (dir.path() / "v1.metadata.json").string();
  FLOE_ASSERT_OK(io.WriteFile(old_file, "{}", false));
  CreateTableRequest request;
  request.schema = ClientSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(auto metadata, NewTableMetadata(request, "/t", 1));
  DeleteRemovedMetadataFiles(io, *metadata, {old_file});
  EXPECT_TRUE(*io.Exists(old_file));
}

}  // namespace
}  // namespace floe::catalog
