// Destinations of WriteRows: the table template (top-level and nested fields, numbers, null and
// missing fields), and Beam's partition and sort field forms against a schema.

#include "floe/stream/iceberg/write_rows/destinations.h"

#include <gtest/gtest.h>

#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

// region string, n int, user struct<country string>.
RecordBatch Rows(std::vector<Value> regions, std::vector<Value> ns, std::vector<Value> countries) {
  auto user_type = DataType::Struct({Field{"country", DataType::String(), true}});
  std::vector<Value> users;
  for (Value& country : countries) {
    users.emplace_back(StructValue{{{"country", std::move(country)}}});
  }
  auto schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{Field{"region", DataType::String(), true},
                         Field{"n", DataType::Int32(), true}, Field{"user", user_type, true}});
  return RecordBatch::Make(schema, {MakeArray(DataType::String(), regions).value(),
                                    MakeArray(DataType::Int32(), ns).value(),
                                    MakeArray(user_type, users).value()})
      .value();
}

TEST(DestinationsTest, TemplateFillsTopLevelAndNestedFields) {
  auto destinations = DynamicDestinations::Template("db.events_{region}_{n}_{user.country}");
  FLOE_ASSERT_OK(destinations);
  EXPECT_EQ(destinations->key_fields(), (std::vector<std::string>{"region", "n", "user.country"}));
  std::vector<std::string> keys;
  FLOE_ASSERT_OK(destinations->KeysOf(Rows({"eu", "us"}, {1, 22}, {"fr", "ca"}), keys));
  EXPECT_EQ(keys, (std::vector<std::string>{"db.events_eu_1_fr", "db.events_us_22_ca"}));
  FLOE_ASSERT_OK_AND_ASSIGN(Destination destination, destinations->Describe(keys[1]));
  EXPECT_EQ(destination.table.ns.ToString(), "db");
  EXPECT_EQ(destination.table.name, "events_us_22_ca");
}

// Rows of one key value share one key (the keys come out in first-seen order), for narrow and wide
// ranges of integer values alike.
TEST(DestinationsTest, TemplateGroupsRowsByKey) {
  auto destinations = DynamicDestinations::Template("db.t_{n}");
  FLOE_ASSERT_OK(destinations);
  RowKeys rows;
  FLOE_ASSERT_OK(
      destinations->GroupsOf(Rows({"a", "b", "c", "d"}, {5, -3, 5, -3}, {"", "", "", ""}), rows));
  EXPECT_EQ(rows.keys, (std::vector<std::string>{"db.t_5", "db.t_-3"}));
  EXPECT_EQ(rows.key_of_row, (std::vector<uint32_t>{0, 1, 0, 1}));
  FLOE_ASSERT_OK(destinations->GroupsOf(
      Rows({"a", "b", "c"}, {2000000000, -2000000000, 2000000000}, {"", "", ""}), rows));
  EXPECT_EQ(rows.keys, (std::vector<std::string>{"db.t_2000000000", "db.t_-2000000000"}));
  EXPECT_EQ(rows.key_of_row, (std::vector<uint32_t>{0, 1, 0}));
  // Several fields: grouped by their values together.
  auto two = DynamicDestinations::Template("db.t_{region}_{n}");
  FLOE_ASSERT_OK(
      two->GroupsOf(Rows({"eu", "eu", "us", "eu"}, {1, 2, 1, 1}, {"", "", "", ""}), rows));
  EXPECT_EQ(rows.keys, (std::vector<std::string>{"db.t_eu_1", "db.t_eu_2", "db.t_us_1"}));
  EXPECT_EQ(rows.key_of_row, (std::vector<uint32_t>{0, 1, 2, 0}));
  std::vector<std::string> keys;
  FLOE_ASSERT_OK(two->KeysOf(Rows({"us", "eu"}, {7, 7}, {"", ""}), keys));
  EXPECT_EQ(keys, (std::vector<std::string>{"db.t_us_7", "db.t_eu_7"}));
}

TEST(DestinationsTest, NullOrMissingTemplateFieldsAreErrors) {
  auto destinations = DynamicDestinations::Template("db.t_{region}");
  std::vector<std::string> keys;
  auto null_row = destinations->KeysOf(Rows({"eu", Value()}, {1, 2}, {"a", "b"}), keys);
  ASSERT_FALSE(null_row.has_value());
  EXPECT_NE(null_row.error().message().find("'region' is null in row 1"), std::string::npos);
  auto missing =
      DynamicDestinations::Template("db.t_{nope}")->KeysOf(Rows({"eu"}, {1}, {"a"}), keys);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("no field 'nope'"), std::string::npos);
  EXPECT_FALSE(DynamicDestinations::Template("db.t_{region").has_value());
  EXPECT_FALSE(DynamicDestinations::Template("db.t_{}").has_value());
  auto unsafe = DynamicDestinations::Template("db.{region}")->Describe("db../x");
  EXPECT_FALSE(unsafe.has_value());
}

TEST(DestinationsTest, PartitionAndSortFieldsInBeamsForm) {
  using namespace floe::types;
  Schema schema(
      {Required(1, "id", Long()), Optional(2, "ts", TimestampTz()), Optional(3, "name", String())});
  FLOE_ASSERT_OK_AND_ASSIGN(
      PartitionSpecPtr spec,
      ParsePartitionFields({"bucket(id, 16)", "day(ts)", "truncate(name, 4)", "name"}, schema));
  ASSERT_EQ(spec->fields().size(), 4U);
  EXPECT_EQ(spec->fields()[0].transform, Transform::Bucket(16));
  EXPECT_EQ(spec->fields()[0].name, "id_bucket");
  EXPECT_EQ(spec->fields()[1].transform, Transform::Day());
  EXPECT_EQ(spec->fields()[1].name, "ts_day");
  EXPECT_EQ(spec->fields()[2].transform, Transform::Truncate(4));
  EXPECT_EQ(spec->fields()[3].transform, Transform::Identity());
  EXPECT_FALSE(ParsePartitionFields({"bucket(id)"}, schema).has_value());
  EXPECT_FALSE(ParsePartitionFields({"week(ts)"}, schema).has_value());
  EXPECT_FALSE(ParsePartitionFields({"day(nope)"}, schema).has_value());

  FLOE_ASSERT_OK_AND_ASSIGN(SortOrderPtr order,
                            ParseSortFields({"id", "ts desc", "name asc nulls last"}, schema));
  ASSERT_EQ(order->fields().size(), 3U);
  EXPECT_EQ(order->fields()[1].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields()[1].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(order->fields()[2].null_order, NullOrder::kNullsLast);
  EXPECT_FALSE(ParseSortFields({"id sideways"}, schema).has_value());
}

}  // namespace
}  // namespace floe::stream
