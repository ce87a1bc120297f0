#include "floe/catalog/rest/table_update_json.h"

#include <gtest/gtest.h>

#include "floe/catalog/rest/openapi_test_util.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/test_commits.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/sort_order.h"
#include "floe/testing/testing.h"

namespace floe::catalog::rest {
namespace {

// One update of every kind floe has, with every optional part set.
std::vector<TableUpdate> EveryUpdate() {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->snapshot_id = 7;
  snapshot->parent_snapshot_id = 6;
  snapshot->sequence_number = 3;
  snapshot->timestamp_ms = 1'700'000'000'000;
  snapshot->manifest_list = "/wh/db/t/metadata/snap-7.avro";
  snapshot->summary = {{"operation", "append"}};
  snapshot->schema_id = 0;
  SnapshotRef tag;
  tag.snapshot_id = 7;
  tag.type = SnapshotRefType::kTag;
  tag.max_ref_age_ms = 86'400'000;
  StatisticsFile stats;
  stats.snapshot_id = 7;
  stats.path = "/wh/db/t/metadata/stats.puffin";
  stats.file_size_in_bytes = 100;
  stats.file_footer_size_in_bytes = 20;
  stats.blob_metadata.push_back({.type = "apache-datasketches-theta-v1",
                                 .source_snapshot_id = 7,
                                 .source_snapshot_sequence_number = 3,
                                 .fields = {1},
                                 .properties = {{"ndv", "3"}}});
  PartitionStatisticsFile partition_stats{7, "/wh/db/t/metadata/p.parquet", 50};
  auto spec = std::make_shared<PartitionSpec>(
      1, std::vector<PartitionField>{{.source_ids = {1},
                                      .field_id = PartitionSpec::kFirstFieldId,
                                      .name = "id_bucket",
                                      .transform = Transform::Bucket(16)}});
  auto order =
      std::make_shared<SortOrder>(1, std::vector<SortField>{{.transform = Transform::Identity(),
                                                             .source_ids = {2},
                                                             .direction = SortDirection::kDesc,
                                                             .null_order = NullOrder::kNullsLast}});
  return {AssignUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          UpgradeFormatVersion{2},
          AddSchema{testing::SimpleSchema(), 2},
          SetCurrentSchema{kLastAdded},
          AddPartitionSpec{spec},
          SetDefaultSpec{1},
          AddSortOrder{order},
          SetDefaultSortOrder{kLastAdded},
          AddSnapshot{snapshot},
          SetSnapshotRef{"main", SnapshotRef{.snapshot_id = 7, .min_snapshots_to_keep = 2}},
          SetSnapshotRef{"v1", tag},
          RemoveSnapshots{{1, 2}},
          RemoveSnapshotRef{"old"},
          SetLocation{"s3://bucket/wh/db/t"},
          SetProperties{{{"owner", "floe"}, {"commit.retry.num-retries", "10"}}},
          RemoveProperties{{"stale"}},
          SetStatistics{stats},
          RemoveStatistics{5},
          SetPartitionStatistics{partition_stats},
          RemovePartitionStatistics{5},
          RemovePartitionSpecs{{0}},
          RemoveSchemas{{3, 4}}};
}

std::vector<TableRequirement> EveryRequirement() {
  return {AssertCreate{},
          AssertTableUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          AssertRefSnapshotId{"main", 7},
          AssertRefSnapshotId{"branch", std::nullopt},
          AssertLastAssignedFieldId{2},
          AssertCurrentSchemaId{0},
          AssertLastAssignedPartitionId{1000},
          AssertDefaultSpecId{0},
          AssertDefaultSortOrderId{0}};
}

TEST(TableUpdateJsonTest, EveryUpdateAndRequirementRoundTripsAndMatchesTheOpenApiDocument) {
  openapi::OpenApiBodies bodies;
  for (const TableUpdate& update : EveryUpdate()) {
    Json json = TableUpdateToJson(update);
    EXPECT_EQ(json.Find("action")->as_string(), UpdateName(update));
    FLOE_ASSERT_OK_AND_ASSIGN(TableUpdate parsed, TableUpdateFromJson(json));
    EXPECT_EQ(parsed.index(), update.index());
    EXPECT_EQ(TableUpdateToJson(parsed), json) << json.Dump();
    bodies.Add("TableUpdate", json);
  }
  for (const TableRequirement& requirement : EveryRequirement()) {
    Json json = TableRequirementToJson(requirement);
    FLOE_ASSERT_OK_AND_ASSIGN(TableRequirement parsed, TableRequirementFromJson(json));
    EXPECT_EQ(TableRequirementToJson(parsed), json) << json.Dump();
    bodies.Add("TableRequirement", json);
  }
  // The null snapshot-id of "the ref must not exist" is written, as the document requires.
  EXPECT_TRUE(TableRequirementToJson(AssertRefSnapshotId{"b", std::nullopt})
                  .Find("snapshot-id")
                  ->is_null());

  // Whole request bodies the client sends.
  TableCommit commit{EveryRequirement(), EveryUpdate()};
  TableIdentifier ident{Namespace{{"db"}}, "t"};
  bodies.Add("CommitTableRequest", ToJson(CommitTableMessage{ident, commit}));
  Json transaction = Json::MakeObject();
  transaction.Set("table-changes", Json(Json::Array{ToJson(CommitTableMessage{ident, commit})}));
  bodies.Add("CommitTransactionRequest", transaction);
  CreateTableRequest create;
  create.schema = testing::SimpleSchema();
  create.properties = {{"format-version", "2"}};
  bodies.Add("CreateTableRequest", ToJson(CreateTableMessage{"t", create, true}));
  bodies.Add("RegisterTableRequest", ToJson(RegisterTableMessage{"t", "/wh/t/v1.metadata.json"}));
  bodies.Add("RenameTableRequest", ToJson(RenameTableMessage{ident, {Namespace{{"b"}}, "u"}}));
  bodies.Add("CreateNamespaceRequest", ToJson(NamespaceMessage{Namespace{{"a", "b"}}, {}}));
  bodies.Add("UpdateNamespacePropertiesRequest",
             ToJson(UpdateNamespacePropertiesMessage{{{"k", "v"}}, {"x"}}));
  FLOE_EXPECT_VALID_OPENAPI(bodies);
}

TEST(TableUpdateJsonTest, TheValidatorRejectsWhatTheDocumentForbids) {
  // Without this, a validator that accepts everything would pass the test above.
  openapi::OpenApiBodies bodies;
  Json update = TableUpdateToJson(SetProperties{{{"k", "v"}}});
  update.Set("updates", Json(Json::Array{}));
  bodies.Add("TableUpdate", update);
  floe::testing::CommandRun run = bodies.Validate();
  if (run.exit_code == 3 || run.exit_code == 127) GTEST_SKIP() << run.out;
  EXPECT_EQ(run.exit_code, 1) << run.out;
}

TEST(TableUpdateJsonTest, ReadsWhatOtherClientsSend) {
  // As Iceberg Java's RESTSessionCatalog sends a create transaction: an add-spec whose spec has
  // no id, and fields without field ids.
  FLOE_ASSERT_OK_AND_ASSIGN(Json json, Json::Parse(R"({"action": "add-spec", "spec": {"fields":
      [{"name": "id_bucket", "transform": "bucket[16]", "source-id": 1}]}})"));
  FLOE_ASSERT_OK_AND_ASSIGN(TableUpdate update, TableUpdateFromJson(json));
  const auto& spec = std::get<AddPartitionSpec>(update).spec;
  EXPECT_EQ(spec->spec_id(), 0);
  ASSERT_EQ(spec->fields().size(), 1u);
  EXPECT_EQ(spec->fields()[0].transform, Transform::Bucket(16));
  EXPECT_EQ(spec->fields()[0].field_id, PartitionSpec::kFirstFieldId);

  auto unknown = TableUpdateFromJson(*Json::Parse(R"({"action": "add-view-version"})"));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(unknown.error().message().find("add-view-version"), std::string::npos);
  auto missing = TableUpdateFromJson(*Json::Parse(R"({"action": "set-location"})"));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("location"), std::string::npos);
  auto no_type = TableRequirementFromJson(*Json::Parse(R"({"ref": "main"})"));
  ASSERT_FALSE(no_type);
  EXPECT_NE(no_type.error().message().find("type"), std::string::npos);
}

}  // namespace
}  // namespace floe::catalog::rest
