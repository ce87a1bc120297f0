#include "floe/spec/partition_spec.h"

#include <gtest/gtest.h>

#include "floe/spec/literal.h"
#include "floe/spec/partition_spec_json.h"
#include "floe/spec/schema.h"
#include "floe/spec/schema_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

Schema TestSchema() {
  return Schema({
      Required(1, "id", Long()),
      Optional(2, "category", String()),
      Optional(3, "ts", TimestampTz()),
      Optional(4, "location",
               StructType::Make({Required(5, "lat", Double()), Required(6, "city", String())})),
      Optional(7, "tags", ListType::Make(8, String(), true)),
      Optional(9, "payload", Binary()),
  });
}

PartitionField Field(int32_t source, int32_t id, std::string name, Transform transform) {
  return {.source_ids = {source},
          .field_id = id,
          .name = std::move(name),
          .transform = std::move(transform)};
}

std::string ValidateError(const PartitionSpec& spec, const Schema& schema) {
  auto status = spec.Validate(schema);
  return status.has_value() ? "ok" : status.error().message();
}

TEST(PartitionSpecTest, ValidSpecAndItsPartitionType) {
  const Schema schema = TestSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto spec, PartitionSpec::Make(schema, 1,
                                     {Field(3, 1000, "ts_day", Transform::Day()),
                                      Field(2, 1001, "category", Transform::Identity()),
                                      Field(1, 1002, "id_bucket", Transform::Bucket(16)),
                                      Field(6, 1003, "city_trunc", Transform::Truncate(2))}));
  EXPECT_EQ(spec->spec_id(), 1);
  EXPECT_EQ(spec->last_assigned_field_id(), 1003);
  EXPECT_FALSE(spec->is_unpartitioned());
  EXPECT_EQ(spec->FieldById(1002)->name, "id_bucket");
  EXPECT_EQ(spec->FieldsBySourceId(3).size(), 1u);
  FLOE_ASSERT_OK_AND_ASSIGN(auto type, spec->PartitionType(schema));
  EXPECT_EQ(type->ToString(),
            "struct<1000: ts_day: optional date, 1001: category: optional string, "
            "1002: id_bucket: optional int, 1003: city_trunc: optional string>");
}

TEST(PartitionSpecTest, Unpartitioned) {
  const auto& spec = PartitionSpec::Unpartitioned();
  EXPECT_TRUE(spec->is_unpartitioned());
  EXPECT_EQ(spec->spec_id(), 0);
  EXPECT_EQ(spec->last_assigned_field_id(), 999);
  EXPECT_EQ(spec->ToString(), "[]");
  // A v1 spec whose fields were all dropped (replaced by void) is unpartitioned too.
  PartitionSpec dropped(1, {Field(2, 1000, "category", Transform::Void())});
  EXPECT_TRUE(dropped.is_unpartitioned());
  FLOE_EXPECT_OK(dropped.Validate(TestSchema()));
}

TEST(PartitionSpecTest, ValidationErrorsSayWhatAndWhere) {
  const Schema schema = TestSchema();
  auto error = [&](std::vector<PartitionField> fields) {
    return ValidateError(PartitionSpec(0, std::move(fields)), schema);
  };
  EXPECT_EQ(error({Field(42, 1000, "x", Transform::Identity())}),
            "partition field 1000: x: identity(42): source column 42 is not in the schema");
  EXPECT_EQ(error({Field(4, 1000, "loc", Transform::Identity())}),
            "partition field 1000: loc: identity(4): source column 4 (location) is "
            "struct<5: lat: required double, 6: city: required string>, not primitive");
  EXPECT_EQ(error({Field(8, 1000, "tag", Transform::Identity())}),
            "partition field 1000: tag: identity(8): source column 8 is inside list tags");
  EXPECT_EQ(error({Field(2, 1000, "c_hour", Transform::Hour())}),
            "partition field 1000: c_hour: hour(2): transform hour cannot be applied to string "
            "column 2");
  EXPECT_EQ(error({Field(1, 1000, "a", Transform::Identity()),
                   Field(2, 1000, "b", Transform::Identity())}),
            "partition spec 0: field id 1000 is used more than once");
  EXPECT_EQ(error({Field(1, 1000, "a", Transform::Identity()),
                   Field(2, 1001, "a", Transform::Identity())}),
            "partition spec 0: name 'a' is used more than once");
  EXPECT_EQ(error({Field(1, 1000, "", Transform::Identity())}),
            "partition spec 0: field 1000 has an empty name");
  EXPECT_EQ(error({Field(1, 1000, "category", Transform::Identity())}),
            "partition field 1000: category: identity(1): name 'category' is a schema column; "
            "only an identity partition of that column may use it");
  EXPECT_EQ(error({Field(1, 1000, "id", Transform::Bucket(4))}),
            "partition field 1000: id: bucket[4](1): name 'id' is a schema column; only an "
            "identity partition of that column may use it");
  EXPECT_EQ(error({Field(3, 1000, "ts_day", Transform::Day()),
                   Field(3, 1001, "ts_hour", Transform::Hour())}),
            "partition spec 0: fields 1000: ts_day: day(3) and 1001: ts_hour: hour(3) are "
            "redundant time partitions of column 3");
  EXPECT_EQ(error({Field(1, 1000, "b1", Transform::Bucket(4)),
                   Field(1, 1001, "b2", Transform::Bucket(4))}),
            "partition spec 0: field 1001: b2: bucket[4](1) repeats transform bucket[4] of "
            "column 1");
  EXPECT_EQ(error({Field(1, 1000, "z", Transform::Unknown("zorder"))}),
            "partition field 1000: z: zorder(1): unknown transform 'zorder' cannot be written");
  EXPECT_EQ(error({{.source_ids = {1, 2},
                    .field_id = 1000,
                    .name = "b",
                    .transform = Transform::Bucket(4)}}),
            "partition field 1000: b: bucket[4](1, 2): transform bucket[4] takes one source "
            "column, not 2");
  // Allowed: an identity field named after its own column, two buckets of one column, a void
  // field of a dropped column, nested struct sources.
  EXPECT_EQ(error({Field(2, 1000, "category", Transform::Identity()),
                   Field(1, 1001, "id_b4", Transform::Bucket(4)),
                   Field(1, 1002, "id_b8", Transform::Bucket(8)),
                   Field(77, 1003, "gone", Transform::Void()),
                   Field(5, 1004, "lat", Transform::Identity())}),
            "ok");
}

TEST(PartitionSpecTest, ExistingSpecsAreReadLeniently) {
  const Schema schema = TestSchema();
  // A dropped source, an unknown transform, a name clash and redundant time fields, as other
  // engines have written them.
  PartitionSpec spec(3, {Field(42, 1000, "gone", Transform::Bucket(4)),
                         Field(1, 1001, "category", Transform::Unknown("zorder")),
                         Field(3, 1002, "ts_year", Transform::Year()),
                         Field(3, 1003, "ts_day", Transform::Day())});
  FLOE_EXPECT_OK(spec.ValidateExisting(schema));
  EXPECT_FALSE(spec.Validate(schema).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(auto type, spec.PartitionType(schema));
  EXPECT_EQ(type->fields()[0].type->id(), TypeId::kUnknown);
  EXPECT_EQ(type->fields()[1].type->id(), TypeId::kString);
  // Existing fields must still fit the columns that exist.
  PartitionSpec wrong(0, {Field(2, 1000, "c", Transform::Hour())});
  EXPECT_FALSE(wrong.ValidateExisting(schema).has_value());
  EXPECT_FALSE(wrong.PartitionType(schema).has_value());
}

TEST(PartitionSpecTest, PartitionPath) {
  PartitionSpec spec(0, {Field(3, 1000, "ts_day", Transform::Day()),
                         Field(2, 1001, "category", Transform::Identity())});
  const Literal day = Literal::Date(20454);  // 2026-01-01
  const Literal values[] = {day, Literal::String("a/b")};
  FLOE_ASSERT_OK_AND_ASSIGN(auto path, spec.PartitionPath(values));
  EXPECT_EQ(path, "ts_day=2026-01-01/category=a%2Fb");

  const Literal nulls[] = {Literal::Null(Date()), Literal::Null(String())};
  FLOE_ASSERT_OK_AND_ASSIGN(auto null_path, spec.PartitionPath(nulls));
  EXPECT_EQ(null_path, "ts_day=null/category=null");

  PartitionSpec odd_name(0, {Field(2, 1000, "cat gory/é", Transform::Identity())});
  const Literal spaced[] = {Literal::String("x y")};
  FLOE_ASSERT_OK_AND_ASSIGN(auto odd_path, odd_name.PartitionPath(spaced));
  EXPECT_EQ(odd_path, "cat+gory%2F%C3%A9=x+y");

  EXPECT_FALSE(spec.PartitionPath(spaced).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(auto empty, PartitionSpec::Unpartitioned()->PartitionPath({}));
  EXPECT_EQ(empty, "");
}

// Directories Spark wrote through Iceberg Java in the shared test data, from partition values.
TEST(PartitionSpecTest, PathsMatchIcebergJava) {
  PartitionSpec hour(0, {Field(3, 1000, "event_time_hour", Transform::Hour()),
                         Field(2, 1001, "action", Transform::Identity())});
  const Literal ts = Literal::TimestampTz(1577836800000000 + 8 * 3600000000LL);  // 2020-01-01T08
  FLOE_ASSERT_OK_AND_ASSIGN(auto hour_value, Transform::Hour().Apply(ts));
  const Literal values[] = {hour_value, Literal::String("view")};
  FLOE_ASSERT_OK_AND_ASSIGN(auto path, hour.PartitionPath(values));
  EXPECT_EQ(path, "event_time_hour=2020-01-01-08/action=view");

  PartitionSpec tz(0, {Field(3, 1000, "partition_col", Transform::Identity())});
  const Literal tz_values[] = {Literal::TimestampTz(1684161045000000)};
  FLOE_ASSERT_OK_AND_ASSIGN(auto tz_path, tz.PartitionPath(tz_values));
  EXPECT_EQ(tz_path, "partition_col=2023-05-15T14%3A30%3A45%2B00%3A00");
  const auto dir = testing::TestDataDir() /
                   "duckdb-iceberg/data/persistent/partition_timestamptz/default.db/"
                   "partition_timestamptz/data" /
                   tz_path;
  EXPECT_TRUE(std::filesystem::is_directory(dir)) << dir;
}

TEST(PartitionSpecTest, Compatibility) {
  PartitionSpec a(0, {Field(1, 1000, "id_bucket", Transform::Bucket(4))});
  PartitionSpec b(5, {Field(1, 1007, "id_bucket", Transform::Bucket(4))});
  PartitionSpec renamed(0, {Field(1, 1000, "b", Transform::Bucket(4))});
  PartitionSpec other(0, {Field(1, 1000, "id_bucket", Transform::Bucket(8))});
  EXPECT_TRUE(a.CompatibleWith(b));
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a.CompatibleWith(renamed));
  EXPECT_FALSE(a.CompatibleWith(other));
  EXPECT_FALSE(a.CompatibleWith(*PartitionSpec::Unpartitioned()));
}

Json ParseJson(std::string_view text) {
  auto json = Json::Parse(text);
  EXPECT_TRUE(json.has_value()) << json.error().ToString();
  return json.has_value() ? *json : Json();
}

TEST(PartitionSpecJsonTest, SpecExampleRoundTrips) {
  // Appendix C's example.
  const Json json = ParseJson(R"({"spec-id": 0, "fields": [
      {"source-id": 4, "field-id": 1000, "name": "ts_day", "transform": "day"},
      {"source-id": 1, "field-id": 1001, "name": "id_bucket", "transform": "bucket[16]"}]})");
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec, PartitionSpecFromJson(json));
  EXPECT_EQ(spec->fields()[0], Field(4, 1000, "ts_day", Transform::Day()));
  EXPECT_EQ(spec->fields()[1], Field(1, 1001, "id_bucket", Transform::Bucket(16)));
  EXPECT_EQ(PartitionSpecToJson(*spec), json);
  EXPECT_EQ(PartitionSpecToJson(*spec).Dump(),
            R"({"spec-id":0,"fields":[{"source-id":4,"field-id":1000,"name":"ts_day",)"
            R"("transform":"day"},{"source-id":1,"field-id":1001,"name":"id_bucket",)"
            R"("transform":"bucket[16]"}]})");
}

TEST(PartitionSpecJsonTest, V1FieldsWithoutIdsCountFrom1000) {
  const Json fields = ParseJson(R"([
      {"source-id": 1, "name": "a", "transform": "identity"},
      {"source-id": 2, "name": "b", "transform": "void"},
      {"source-id": 3, "name": "c", "transform": "truncate[4]"}])");
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec, PartitionSpecFromFieldsJson(fields, 0));
  ASSERT_EQ(spec->fields().size(), 3u);
  EXPECT_EQ(spec->fields()[0].field_id, 1000);
  EXPECT_EQ(spec->fields()[1].field_id, 1001);
  EXPECT_EQ(spec->fields()[2].field_id, 1002);
  EXPECT_EQ(PartitionFieldsToJson(*spec).as_array()[2],
            ParseJson(R"({"source-id": 3, "field-id": 1002, "name": "c",
                          "transform": "truncate[4]"})"));
}

TEST(PartitionSpecJsonTest, MultiArgumentAndUnknownTransformsRoundTrip) {
  const Json json = ParseJson(R"({"spec-id": 2, "fields": [
      {"source-ids": [1, 2], "field-id": 1000, "name": "z", "transform": "zorder"}]})");
  FLOE_ASSERT_OK_AND_ASSIGN(auto spec, PartitionSpecFromJson(json));
  EXPECT_EQ(spec->fields()[0].source_ids, (std::vector<int32_t>{1, 2}));
  EXPECT_TRUE(spec->fields()[0].transform.is_unknown());
  EXPECT_EQ(PartitionSpecToJson(*spec), json);
}

TEST(PartitionSpecJsonTest, MalformedJsonIsAnErrorNamingTheField) {
  auto error = [](std::string_view text) {
    auto spec = PartitionSpecFromJson(ParseJson(text));
    return spec.has_value() ? "ok" : spec.error().message();
  };
  EXPECT_EQ(error(R"({"fields": []})"), "partition spec: missing required field 'spec-id'");
  EXPECT_EQ(error(R"({"spec-id": 1})"), "partition spec 1: missing required field 'fields'");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": [{"name": "a", "transform": "day"}]})"),
            "partition spec 1 field 0: missing required field 'source-id'");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": [{"source-id": 1, "transform": "day"}]})"),
            "partition spec 1 field 0: missing required field 'name'");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": [{"source-id": 1, "name": "a",
                     "transform": "bucket[0]"}]})"),
            "partition spec 1 field 0: invalid transform 'bucket[0]': the number of buckets "
            "must be a positive 32-bit integer");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": [{"source-id": 1, "field-id": 4294967296,
                     "name": "a", "transform": "day"}]})"),
            "partition spec 1 field 0: 'field-id' is 4294967296, outside the 32-bit range");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": [{"source-id": 1, "source-ids": [2],
                     "name": "a", "transform": "day"}]})"),
            "partition spec 1 field 0: 'source-id' 1 disagrees with 'source-ids'");
  EXPECT_EQ(error(R"({"spec-id": 1, "fields": {}})"),
            "partition spec 1: 'fields' must be an array, found an object");
}

// Specs written by other engines in the shared test data read, validate and write back equal.
TEST(PartitionSpecJsonTest, SpecsFromOtherEnginesRoundTrip) {
  struct Case {
    const char* file;
    bool strictly_valid;
  };
  const Case cases[] = {
      {"iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2_partition_evolution.json",
       true},
      // pyiceberg wrote year, month, day and hour of one column: readable, but not something
      // floe would create.
      {"duckdb-iceberg/data/persistent/timestamptz_ns/metadata/v1.metadata.json", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    FLOE_ASSERT_OK_AND_ASSIGN(Json metadata,
                              Json::Parse(testing::ReadFileOrDie(testing::TestDataDir() / c.file)));
    FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* schemas, metadata.GetArray("schemas"));
    FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, SchemaFromJson(schemas->back()));
    FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* specs, metadata.GetArray("partition-specs"));
    for (const Json& json : *specs) {
      FLOE_ASSERT_OK_AND_ASSIGN(auto spec, PartitionSpecFromJson(json));
      EXPECT_EQ(PartitionSpecToJson(*spec), json);
      FLOE_EXPECT_OK(spec->ValidateExisting(*schema));
      EXPECT_EQ(spec->Validate(*schema).has_value(), c.strictly_valid) << spec->ToString();
      FLOE_EXPECT_OK(spec->PartitionType(*schema));
    }
  }
}

// Every member of a partition field replaced by every JSON kind: an error or a spec, never a crash.
TEST(PartitionSpecJsonTest, WrongKindsFailCleanly) {
  const Json kinds[] = {Json(),    Json(true),        Json(int64_t{-7}), Json(2.5),
                        Json("x"), Json::MakeArray(), Json::MakeObject()};
  for (const char* member : {"source-id", "source-ids", "field-id", "name", "transform"}) {
    for (const Json& kind : kinds) {
      Json field = Json::MakeObject();
      field.Set("source-id", Json(int64_t{1}));
      field.Set("field-id", Json(int64_t{1000}));
      field.Set("name", Json("a"));
      field.Set("transform", Json("identity"));
      field.Set(member, kind);
      Json spec = Json::MakeObject();
      spec.Set("spec-id", Json(int64_t{0}));
      spec.Set("fields", Json(Json::Array{field}));
      auto parsed = PartitionSpecFromJson(spec);
      if (!parsed) {
        EXPECT_EQ(parsed.error().kind(), ErrorKind::kCorruptData) << member;
      }
    }
  }
  for (const Json& kind : kinds) {
    EXPECT_FALSE(PartitionSpecFromJson(kind).has_value());
  }
}

}  // namespace
}  // namespace floe
