#include "floe/catalog/metadata_files.h"

#include <gtest/gtest.h>

#include "floe/catalog/new_table.h"
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

TEST(MetadataFilesTest, DefaultTableLocationJoinsLevels) {
  EXPECT_EQ(DefaultTableLocation("/wh/", {{{"a", "b"}}, "t"}), "/wh/a/b/t");
  EXPECT_EQ(DefaultTableLocation("file:///wh", {{{"db"}}, "t"}), "file:///wh/db/t");
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
