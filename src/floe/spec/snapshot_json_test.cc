#include "floe/spec/snapshot_json.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe {
namespace {

using testing::ReadFileOrDie;
using testing::TestDataDir;

Json LoadJson(const std::string& relative) {
  auto json = Json::Parse(ReadFileOrDie(TestDataDir() / relative));
  EXPECT_TRUE(json.has_value()) << relative;
  return json.value_or(Json());
}

TEST(SnapshotJsonTest, V1SnapshotWithInlineManifestsRoundTrips) {
  Json metadata = LoadJson(
      "duckdb-iceberg/data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata/"
      "v2.metadata.json");
  const Json& input = metadata.Find("snapshots")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(Snapshot s, SnapshotFromJson(input));
  EXPECT_EQ(s.snapshot_id, 2456114553637229296);
  EXPECT_FALSE(s.parent_snapshot_id.has_value());
  EXPECT_EQ(s.timestamp_ms, 1786003392801);
  EXPECT_TRUE(s.manifest_list.empty());
  ASSERT_EQ(s.manifests.size(), 1u);
  EXPECT_TRUE(s.manifests[0].ends_with("d65f86b0-b799-467f-b1f4-9c697e4c4fc7-m0.avro"));
  EXPECT_EQ(s.operation(), kOperationAppend);
  EXPECT_EQ(s.summary.at("added-records"), "3");
  EXPECT_EQ(s.schema_id, 0);
  EXPECT_EQ(SnapshotToJson(s, 1), input);
}

TEST(SnapshotJsonTest, VersionDecidesWhichFieldsAreWritten) {
  Snapshot s{.snapshot_id = 7,
             .parent_snapshot_id = 6,
             .sequence_number = 3,
             .timestamp_ms = 1000,
             .manifest_list = "s3://b/t/metadata/snap-7.avro",
             .summary = {{"operation", "overwrite"}},
             .first_row_id = 100,
             .added_rows = 20,
             .key_id = "k1"};
  Json v1 = SnapshotToJson(s, 1);
  EXPECT_EQ(v1.Find("sequence-number"), nullptr);
  EXPECT_EQ(v1.Find("first-row-id"), nullptr);
  Json v2 = SnapshotToJson(s, 2);
  EXPECT_EQ(v2.Find("sequence-number")->as_int(), 3);
  EXPECT_EQ(v2.Find("added-rows"), nullptr);
  Json v3 = SnapshotToJson(s, 3);
  EXPECT_EQ(v3.Find("first-row-id")->as_int(), 100);
  EXPECT_EQ(v3.Find("added-rows")->as_int(), 20);
  EXPECT_EQ(v3.Find("key-id")->as_string(), "k1");
  FLOE_ASSERT_OK_AND_ASSIGN(Snapshot back, SnapshotFromJson(v3));
  EXPECT_EQ(back, s);
}

TEST(SnapshotJsonTest, SnapshotErrorsNameTheField) {
  auto missing = SnapshotFromJson(*Json::Parse(R"({"snapshot-id": 1, "manifest-list": "x"})"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("'timestamp-ms'"), std::string::npos);

  auto both = SnapshotFromJson(*Json::Parse(
      R"({"snapshot-id": 1, "timestamp-ms": 2, "manifest-list": "x", "manifests": ["y"]})"));
  ASSERT_FALSE(both.has_value());
  EXPECT_NE(both.error().message().find("both 'manifest-list' and 'manifests'"), std::string::npos);

  auto bad_summary = SnapshotFromJson(
      *Json::Parse(R"({"snapshot-id": 1, "timestamp-ms": 2, "summary": {"operation": 3}})"));
  ASSERT_FALSE(bad_summary.has_value());
  EXPECT_NE(bad_summary.error().message().find("'summary'"), std::string::npos);

  auto big_schema_id = SnapshotFromJson(
      *Json::Parse(R"({"snapshot-id": 1, "timestamp-ms": 2, "schema-id": 4294967296})"));
  ASSERT_FALSE(big_schema_id.has_value());
  EXPECT_NE(big_schema_id.error().message().find("'schema-id'"), std::string::npos);
}

TEST(SnapshotJsonTest, TagFromRustExampleRoundTrips) {
  Json metadata = LoadJson("iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2.json");
  const Json& input = *metadata.Find("refs")->Find("test");
  FLOE_ASSERT_OK_AND_ASSIGN(SnapshotRef ref, SnapshotRefFromJson(input));
  EXPECT_EQ(ref.snapshot_id, 3051729675574597004);
  EXPECT_EQ(ref.type, SnapshotRefType::kTag);
  EXPECT_FALSE(ref.is_branch());
  EXPECT_EQ(ref.max_ref_age_ms, 10000000);
  EXPECT_FALSE(ref.min_snapshots_to_keep.has_value());
  EXPECT_EQ(SnapshotRefToJson(ref), input);

  auto bad = SnapshotRefFromJson(*Json::Parse(R"({"snapshot-id": 1, "type": "label"})"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("'type'"), std::string::npos);
}

TEST(SnapshotJsonTest, StatisticsFilesFromJavaFixtures) {
  Json metadata =
      LoadJson("iceberg-java/core/src/test/resources/TableMetadataStatisticsFiles.json");
  const Json& input = metadata.Find("statistics")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(StatisticsFile f, StatisticsFileFromJson(input));
  EXPECT_EQ(f.snapshot_id, 3055729675574597004);
  EXPECT_EQ(f.path, "s3://a/b/stats.puffin");
  EXPECT_EQ(f.file_size_in_bytes, 413);
  EXPECT_EQ(f.file_footer_size_in_bytes, 42);
  ASSERT_EQ(f.blob_metadata.size(), 1u);
  EXPECT_EQ(f.blob_metadata[0].type, "ndv");
  EXPECT_EQ(f.blob_metadata[0].source_snapshot_sequence_number, 1);
  EXPECT_EQ(f.blob_metadata[0].fields, std::vector<int32_t>{1});
  EXPECT_EQ(StatisticsFileToJson(f), input);

  Json partition_metadata =
      LoadJson("iceberg-java/core/src/test/resources/TableMetadataPartitionStatisticsFiles.json");
  const Json& partition_input = partition_metadata.Find("partition-statistics")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(PartitionStatisticsFile p,
                            PartitionStatisticsFileFromJson(partition_input));
  EXPECT_EQ(p.path, "s3://a/b/partition-stats.parquet");
  EXPECT_EQ(p.file_size_in_bytes, 43);
  EXPECT_EQ(PartitionStatisticsFileToJson(p), partition_input);

  auto no_blobs = StatisticsFileFromJson(*Json::Parse(
      R"({"snapshot-id": 1, "statistics-path": "p", "file-size-in-bytes": 1,
          "file-footer-size-in-bytes": 1})"));
  ASSERT_FALSE(no_blobs.has_value());
  EXPECT_NE(no_blobs.error().message().find("'blob-metadata'"), std::string::npos);
}

TEST(SnapshotJsonTest, EncryptionKeysAndLogsRoundTrip) {
  Json metadata = LoadJson(
      "iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV3ValidEncryption.json");
  const Json& key_input = metadata.Find("encryption-keys")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(EncryptedKey key, EncryptedKeyFromJson(key_input));
  EXPECT_EQ(key.key_id, "5b29941b-b3b4-4d57-8758-a9d1bf340b39");
  EXPECT_EQ(key.encrypted_by_id, "master-1");
  EXPECT_EQ(key.properties.at("KEY_TIMESTAMP"), "1781172301703");
  EXPECT_EQ(EncryptedKeyToJson(key), key_input);

  const Json& log_input = metadata.Find("snapshot-log")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(SnapshotLogEntry log, SnapshotLogEntryFromJson(log_input));
  EXPECT_EQ(log.snapshot_id, 1);
  EXPECT_EQ(SnapshotLogEntryToJson(log), log_input);

  Json compat =
      LoadJson("iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV1Compat.json");
  const Json& metadata_log_input = compat.Find("metadata-log")->as_array()[0];
  FLOE_ASSERT_OK_AND_ASSIGN(MetadataLogEntry entry, MetadataLogEntryFromJson(metadata_log_input));
  EXPECT_EQ(entry.timestamp_ms, 1727772184043);
  EXPECT_TRUE(
      entry.metadata_file.ends_with("00405-a3e8a93b-cc7f-430b-a731-6fa4357fb94e.metadata.json"));
  EXPECT_EQ(MetadataLogEntryToJson(entry), metadata_log_input);
}

}  // namespace
}  // namespace floe
