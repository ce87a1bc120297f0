#include "floe/table/write/location_provider.h"

#include <gtest/gtest.h>

#include <regex>

#include "floe/spec/schema.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

// Expected paths come from PyIceberg's location-provider tests (an independent implementation of
// the same layout, hashing with the mmh3 library).
TEST(LocationProvider, ObjectStorageHashesMatchPyIceberg) {
  LocationProvider provider("table_location", {{"write.object-storage.enabled", "true"}});
  EXPECT_EQ(provider.NewDataLocation("a"), "table_location/data/0101/0110/1001/10110010/a");
  EXPECT_EQ(provider.NewDataLocation("b"), "table_location/data/1110/0111/1110/00000011/b");
  EXPECT_EQ(provider.NewDataLocation("c"), "table_location/data/0010/1101/0110/01011111/c");
  EXPECT_EQ(provider.NewDataLocation("d"), "table_location/data/1001/0001/0100/01110011/d");
}

TEST(LocationProvider, ObjectStorageWithoutPartitionedPaths) {
  LocationProvider provider("table_location",
                            {{"write.object-storage.enabled", "true"},
                             {"write.object-storage.partitioned-paths", "false"}});
  EXPECT_EQ(provider.NewDataLocation("test.parquet"),
            "table_location/data/0110/1010/0011/11101000-test.parquet");
  auto schema = std::make_shared<Schema>(
      std::vector<NestedField>{types::Optional(1, "string_field", types::String())});
  PartitionSpec spec(0, {PartitionField{{1}, 1002, "string_field", Transform::Identity()}});
  std::vector<Literal> values{Literal::String("example_string")};
  FLOE_ASSERT_OK_AND_ASSIGN(auto location, provider.NewDataLocation(spec, values, "test.parquet"));
  EXPECT_EQ(location, "table_location/data/0110/1010/0011/11101000-test.parquet");
}

TEST(LocationProvider, PartitionSegmentPrecedesFileName) {
  PartitionSpec spec(0, {PartitionField{{1}, 1002, "string_field", Transform::Identity()}});
  std::vector<Literal> values{Literal::String("example_string")};
  for (const char* object_storage : {"true", "false"}) {
    LocationProvider provider("table_location", {{"write.object-storage.enabled", object_storage}});
    FLOE_ASSERT_OK_AND_ASSIGN(auto location,
                              provider.NewDataLocation(spec, values, "test.parquet"));
    EXPECT_TRUE(location.ends_with("/string_field=example_string/test.parquet")) << location;
    EXPECT_TRUE(location.starts_with("table_location/data/")) << location;
  }
  LocationProvider simple("table_location", {});
  FLOE_ASSERT_OK_AND_ASSIGN(auto location, simple.NewDataLocation(spec, values, "f.parquet"));
  EXPECT_EQ(location, "table_location/data/string_field=example_string/f.parquet");
}

TEST(LocationProvider, DataAndMetadataPathProperties) {
  LocationProvider plain("/wh/db/t/", {});
  EXPECT_EQ(plain.NewDataLocation("f.parquet"), "/wh/db/t/data/f.parquet");
  EXPECT_EQ(plain.NewMetadataLocation("v1.metadata.json"), "/wh/db/t/metadata/v1.metadata.json");
  LocationProvider legacy("/wh/db/t", {{"write.folder-storage.path", "/legacy/"}});
  EXPECT_EQ(legacy.NewDataLocation("f.parquet"), "/legacy/f.parquet");
  LocationProvider both("/wh/db/t", {{"write.folder-storage.path", "/legacy"},
                                     {"write.data.path", "s3://b/data"},
                                     {"write.metadata.path", "s3://b/meta/"}});
  EXPECT_EQ(both.NewDataLocation("f.parquet"), "s3://b/data/f.parquet");
  EXPECT_EQ(both.NewMetadataLocation("m.avro"), "s3://b/meta/m.avro");
}

TEST(LocationProvider, ObjectStorageOutsideTableAddsContext) {
  LocationProvider provider("s3://wh/db/tbl", {{"write.object-storage.enabled", "true"},
                                               {"write.object-storage.path", "s3://other/objs"}});
  const std::string location = provider.NewDataLocation("a");
  EXPECT_EQ(location, "s3://other/objs/0101/0110/1001/10110010/db/tbl/a");
}

TEST(OutputFileFactory, NamesFollowIcebergJavaForm) {
  OutputFileFactory factory(LocationProvider("/t", {}),
                            {.partition_id = 3, .task_id = 7, .operation_id = "op", .suffix = ""});
  EXPECT_EQ(factory.NextFileName(), "00003-7-op-00001.parquet");
  EXPECT_EQ(factory.NextFileName(), "00003-7-op-00002.parquet");
  OutputFileFactory deletes(LocationProvider("/t", {}),
                            {.partition_id = 0, .task_id = 1, .suffix = "deletes"});
  const std::string name = deletes.NextFileName();
  static const std::regex kForm(
      "00000-1-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-00001-deletes"
      "\\.parquet");
  EXPECT_TRUE(std::regex_match(name, kForm)) << name;
  FLOE_ASSERT_OK_AND_ASSIGN(auto location,
                            factory.NextLocation(*PartitionSpec::Unpartitioned(), {}));
  EXPECT_EQ(location, "/t/data/00003-7-op-00003.parquet");
}

}  // namespace
}  // namespace floe::table
