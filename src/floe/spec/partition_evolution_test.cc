#include "floe/spec/partition_evolution.h"

#include <gtest/gtest.h>

#include "floe/spec/partition_spec_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

PartitionField Field(int32_t source, int32_t id, std::string name, Transform transform) {
  return {.source_ids = {source},
          .field_id = id,
          .name = std::move(name),
          .transform = std::move(transform)};
}

PartitionSpecPtr Spec(int32_t id, std::vector<PartitionField> fields) {
  return std::make_shared<const PartitionSpec>(id, std::move(fields));
}

std::string CheckError(const PartitionHistory& history, const PartitionSpec& next) {
  auto status = CheckPartitionEvolution(history, next);
  return status.has_value() ? "ok" : status.error().message();
}

// iceberg-rust's example of a v2 table whose spec evolved twice: identity(x), then +
// truncate[3](a), then + bucket[32](z).
TEST(PartitionEvolutionTest, EvolutionWrittenByAnotherEngineChecksAndIsReproduced) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      Json metadata,
      Json::Parse(testing::ReadFileOrDie(testing::TestDataDir() /
                                         "iceberg-rust/crates/iceberg/testdata/"
                                         "example_table_metadata_v2_partition_evolution.json")));
  FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* json_specs, metadata.GetArray("partition-specs"));
  std::vector<PartitionSpecPtr> specs;
  for (const Json& json : *json_specs) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto spec, PartitionSpecFromJson(json));
    specs.push_back(spec);
  }
  ASSERT_EQ(specs.size(), 3u);
  for (size_t i = 1; i < specs.size(); ++i) {
    const PartitionHistory history{.format_version = 2,
                                   .specs = std::span(specs).first(i),
                                   .current = specs[i - 1].get(),
                                   .last_partition_id = specs[i - 1]->last_assigned_field_id()};
    EXPECT_EQ(CheckError(history, *specs[i]), "ok") << i;
    std::vector<PartitionField> wanted(specs[i]->fields().begin(), specs[i]->fields().end());
    for (auto& field : wanted) field.field_id = 0;
    FLOE_ASSERT_OK_AND_ASSIGN(auto evolved,
                              EvolvePartitionSpec(history, wanted, specs[i]->spec_id()));
    EXPECT_EQ(*evolved, *specs[i]) << evolved->ToString();
  }
}

TEST(PartitionEvolutionTest, V2DropsFieldsAndReusesIdsWhenTheyReturn) {
  const auto spec0 = Spec(0, {Field(1, 1000, "x", Transform::Identity()),
                              Field(4, 1001, "a_trunc", Transform::Truncate(3))});
  const std::vector<PartitionSpecPtr> one = {spec0};
  const PartitionHistory from0{
      .format_version = 2, .specs = one, .current = spec0.get(), .last_partition_id = 1001};
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec1,
                            EvolvePartitionSpec(from0,
                                                {Field(4, 0, "a_trunc", Transform::Truncate(3)),
                                                 Field(3, 0, "z_bucket", Transform::Bucket(8))},
                                                1));
  EXPECT_EQ(*spec1, *Spec(1, {Field(4, 1001, "a_trunc", Transform::Truncate(3)),
                              Field(3, 1002, "z_bucket", Transform::Bucket(8))}));
  EXPECT_EQ(CheckError(from0, *spec1), "ok");

  // Bringing identity(x) back reuses 1000 from spec 0, even though spec 1 dropped it.
  const std::vector<PartitionSpecPtr> two = {spec0, spec1};
  const PartitionHistory from1{
      .format_version = 2, .specs = two, .current = spec1.get(), .last_partition_id = 1002};
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto spec2, EvolvePartitionSpec(from1, {Field(1, 0, "x_renamed", Transform::Identity())}, 2));
  EXPECT_EQ(*spec2, *Spec(2, {Field(1, 1000, "x_renamed", Transform::Identity())}));
  EXPECT_EQ(CheckError(from1, *spec2), "ok");

  EXPECT_EQ(CheckError(from1, *Spec(2, {Field(1, 1003, "x", Transform::Identity())})),
            "partition field 1003: x: identity(1) must reuse field id 1000, which an existing "
            "spec has for the same source and transform");
  EXPECT_EQ(CheckError(from1, *Spec(2, {Field(1, 1001, "x", Transform::Identity())})),
            "partition field 1001: x: identity(1) reuses the id of 1001: a_trunc: "
            "truncate[3](4), which partitions differently: field ids must keep their meaning "
            "across specs");
  EXPECT_EQ(CheckError(from1, *Spec(2, {Field(7, 999, "y", Transform::Identity())})),
            "partition field 999: y: identity(7) is new but its id is not above "
            "last-partition-id 1002");
}

TEST(PartitionEvolutionTest, V1KeepsDroppedFieldsAsVoidInPlace) {
  const auto spec0 = Spec(0, {Field(1, 1000, "x", Transform::Identity()),
                              Field(4, 1001, "a_trunc", Transform::Truncate(3))});
  const std::vector<PartitionSpecPtr> specs = {spec0};
  const PartitionHistory history{
      .format_version = 1, .specs = specs, .current = spec0.get(), .last_partition_id = 1001};
  // Drop x, keep a_trunc under a new name, add bucket(z); then re-add x under its old name.
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec1,
                            EvolvePartitionSpec(history,
                                                {Field(4, 0, "a3", Transform::Truncate(3)),
                                                 Field(3, 0, "z_bucket", Transform::Bucket(8))},
                                                1));
  EXPECT_EQ(*spec1, *Spec(1, {Field(1, 1000, "x", Transform::Void()),
                              Field(4, 1001, "a3", Transform::Truncate(3)),
                              Field(3, 1002, "z_bucket", Transform::Bucket(8))}));
  EXPECT_EQ(CheckError(history, *spec1), "ok");

  const std::vector<PartitionSpecPtr> two = {spec0, spec1};
  const PartitionHistory from1{
      .format_version = 1, .specs = two, .current = spec1.get(), .last_partition_id = 1002};
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec2,
                            EvolvePartitionSpec(from1,
                                                {Field(4, 0, "a3", Transform::Truncate(3)),
                                                 Field(3, 0, "z_bucket", Transform::Bucket(8)),
                                                 Field(1, 0, "x", Transform::Identity())},
                                                2));
  EXPECT_EQ(*spec2, *Spec(2, {Field(1, 1000, "x_1000", Transform::Void()),
                              Field(4, 1001, "a3", Transform::Truncate(3)),
                              Field(3, 1002, "z_bucket", Transform::Bucket(8)),
                              Field(1, 1003, "x", Transform::Identity())}));
  EXPECT_EQ(CheckError(from1, *spec2), "ok");
}

TEST(PartitionEvolutionTest, V1RulesAreChecked) {
  const auto spec0 = Spec(0, {Field(1, 1000, "x", Transform::Identity()),
                              Field(4, 1001, "a_trunc", Transform::Truncate(3))});
  const std::vector<PartitionSpecPtr> specs = {spec0};
  const PartitionHistory history{
      .format_version = 1, .specs = specs, .current = spec0.get(), .last_partition_id = 1001};
  EXPECT_EQ(CheckError(history, *Spec(1, {Field(4, 1001, "a_trunc", Transform::Truncate(3))})),
            "v1 partition spec 1 has 1 fields, fewer than the 2 of spec 0: v1 tables replace a "
            "dropped field's transform with void instead of removing it");
  EXPECT_EQ(CheckError(history, *Spec(1, {Field(4, 1001, "a_trunc", Transform::Truncate(3)),
                                          Field(1, 1000, "x", Transform::Identity())})),
            "v1 partition spec 1 has 1001: a_trunc: truncate[3](4) at position 0 where spec 0 "
            "has 1000: x: identity(1): v1 tables must not reorder or remove partition fields");
  EXPECT_EQ(CheckError(history, *Spec(1, {Field(1, 1000, "x", Transform::Bucket(2)),
                                          Field(4, 1001, "a_trunc", Transform::Truncate(3))})),
            "v1 partition field 1000: x: bucket[2](1) changes transform identity to bucket[2]: "
            "only void may replace a v1 partition field's transform");
}

}  // namespace
}  // namespace floe
