#include "floe/spec/sort_order.h"

#include <gtest/gtest.h>

#include "floe/spec/schema.h"
#include "floe/spec/schema_json.h"
#include "floe/spec/sort_order_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

Schema TestSchema() {
  return Schema({
      Required(1, "id", Long()),
      Optional(2, "data", String()),
      Optional(3, "ts", Timestamp()),
      Optional(4, "point", StructType::Make({Required(5, "x", Double())})),
  });
}

SortField Asc(int32_t source, Transform transform = Transform::Identity()) {
  return {.transform = std::move(transform), .source_ids = {source}};
}

SortField Desc(int32_t source, Transform transform = Transform::Identity()) {
  return {.transform = std::move(transform),
          .source_ids = {source},
          .direction = SortDirection::kDesc,
          .null_order = NullOrder::kNullsLast};
}

std::string ValidateError(const SortOrder& order) {
  auto status = order.Validate(TestSchema());
  return status.has_value() ? "ok" : status.error().message();
}

TEST(SortOrderTest, ValidOrders) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto order, SortOrder::Make(TestSchema(), 1,
                                                        {Asc(2), Desc(3, Transform::Day()),
                                                         Asc(5, Transform::Identity())}));
  EXPECT_FALSE(order->is_unsorted());
  EXPECT_EQ(order->ToString(),
            "[\n  identity(2) asc nulls-first\n  day(3) desc nulls-last\n"
            "  identity(5) asc nulls-first\n]");
  EXPECT_TRUE(SortOrder::Unsorted()->is_unsorted());
  EXPECT_EQ(SortOrder::Unsorted()->order_id(), 0);
  FLOE_EXPECT_OK(SortOrder::Unsorted()->Validate(TestSchema()));
}

TEST(SortOrderTest, ValidationErrors) {
  EXPECT_EQ(ValidateError(SortOrder(0, {Asc(1)})),
            "sort order id 0 is reserved for the unsorted order, but it has 1 fields");
  EXPECT_EQ(ValidateError(SortOrder(2, {})),
            "sort order 2 has no fields: the unsorted order must have id 0");
  EXPECT_EQ(ValidateError(SortOrder(1, {Asc(9)})),
            "sort order 1: field identity(9) asc nulls-first: source column 9 is not in the "
            "schema");
  EXPECT_EQ(ValidateError(SortOrder(1, {Asc(4)})),
            "sort order 1: field identity(4) asc nulls-first: source column 4 (point) is "
            "struct<5: x: required double>, not primitive");
  EXPECT_EQ(ValidateError(SortOrder(1, {Asc(2, Transform::Hour())})),
            "sort order 1: field hour(2) asc nulls-first: transform hour cannot be applied to "
            "string column 2");
  EXPECT_EQ(ValidateError(SortOrder(1, {Asc(2, Transform::Unknown("zorder"))})),
            "sort order 1: field zorder(2) asc nulls-first has unknown transform 'zorder'");
  // Read from metadata, dropped columns and unknown transforms are tolerated.
  SortOrder existing(1, {Asc(9), Asc(2, Transform::Unknown("zorder"))});
  FLOE_EXPECT_OK(existing.ValidateExisting(TestSchema()));
  EXPECT_FALSE(SortOrder(1, {Asc(2, Transform::Hour())}).ValidateExisting(TestSchema()));
}

TEST(SortOrderTest, Satisfies) {
  SortOrder by_hour(1, {Asc(3, Transform::Hour()), Asc(2)});
  SortOrder by_day(2, {Asc(3, Transform::Day())});
  SortOrder by_day_desc(3, {Desc(3, Transform::Day())});
  EXPECT_TRUE(by_hour.Satisfies(by_day));
  EXPECT_FALSE(by_day.Satisfies(by_hour));
  EXPECT_FALSE(by_hour.Satisfies(by_day_desc));
  EXPECT_TRUE(by_day.Satisfies(*SortOrder::Unsorted()));
  EXPECT_TRUE(by_day.SameOrder(SortOrder(7, {Asc(3, Transform::Day())})));
  EXPECT_FALSE(by_day == SortOrder(7, {Asc(3, Transform::Day())}));
}

Json ParseJson(std::string_view text) {
  auto json = Json::Parse(text);
  EXPECT_TRUE(json.has_value()) << json.error().ToString();
  return json.has_value() ? *json : Json();
}

TEST(SortOrderJsonTest, SpecExampleRoundTrips) {
  // Appendix C's example.
  const Json json = ParseJson(R"({"order-id": 1, "fields": [
      {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
      {"transform": "bucket[4]", "source-id": 3, "direction": "desc",
       "null-order": "nulls-last"}]})");
  FLOE_ASSERT_OK_AND_ASSIGN(auto order, SortOrderFromJson(json));
  EXPECT_EQ(*order, SortOrder(1, {Asc(2), Desc(3, Transform::Bucket(4))}));
  EXPECT_EQ(SortOrderToJson(*order), json);
  EXPECT_EQ(SortOrderToJson(*SortOrder::Unsorted()).Dump(), R"({"order-id":0,"fields":[]})");
  const Json multi = ParseJson(R"({"order-id": 2, "fields": [{"transform": "zorder",
      "source-ids": [1, 2], "direction": "asc", "null-order": "nulls-last"}]})");
  FLOE_ASSERT_OK_AND_ASSIGN(auto multi_order, SortOrderFromJson(multi));
  EXPECT_EQ(SortOrderToJson(*multi_order), multi);
}

TEST(SortOrderJsonTest, MalformedJson) {
  auto error = [](std::string_view text) {
    auto order = SortOrderFromJson(ParseJson(text));
    return order.has_value() ? "ok" : order.error().message();
  };
  EXPECT_EQ(error(R"({"fields": []})"), "sort order: missing required field 'order-id'");
  EXPECT_EQ(error(R"({"order-id": 1, "fields": [{"transform": "identity", "source-id": 1,
                     "direction": "up", "null-order": "nulls-first"}]})"),
            "sort order 1 field 0: invalid sort direction 'up': expected 'asc' or 'desc'");
  EXPECT_EQ(error(R"({"order-id": 1, "fields": [{"transform": "identity", "source-id": 1,
                     "direction": "asc", "null-order": "first"}]})"),
            "sort order 1 field 0: invalid null order 'first': expected 'nulls-first' or "
            "'nulls-last'");
  EXPECT_EQ(error(R"({"order-id": 1, "fields": [{"source-id": 1, "direction": "asc",
                     "null-order": "nulls-first"}]})"),
            "sort order 1 field 0: missing required field 'transform'");
}

// Sort orders other engines wrote in the shared test data read, validate and write back equal.
TEST(SortOrderJsonTest, OrdersFromOtherEnginesRoundTrip) {
  for (const char* file :
       {"iceberg-java/core/src/test/resources/TableMetadataV2Valid.json",
        "iceberg-rust/crates/iceberg/testdata/example_table_metadata_v2_partition_evolution.json",
        "duckdb-iceberg/data/persistent/timestamptz_ns/metadata/v1.metadata.json"}) {
    SCOPED_TRACE(file);
    FLOE_ASSERT_OK_AND_ASSIGN(Json metadata,
                              Json::Parse(testing::ReadFileOrDie(testing::TestDataDir() / file)));
    FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* schemas, metadata.GetArray("schemas"));
    FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, SchemaFromJson(schemas->back()));
    FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* orders, metadata.GetArray("sort-orders"));
    ASSERT_FALSE(orders->empty());
    for (const Json& json : *orders) {
      FLOE_ASSERT_OK_AND_ASSIGN(auto order, SortOrderFromJson(json));
      EXPECT_EQ(SortOrderToJson(*order), json);
      FLOE_EXPECT_OK(order->Validate(*schema));
    }
  }
}

}  // namespace
}  // namespace floe
