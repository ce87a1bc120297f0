#include "floe/spec/schema.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

std::vector<NestedField> NestedFields() {
  return {
      Required(1, "id", Long()),
      Optional(2, "location",
               StructType::Make({Required(3, "lat", Double()), Required(4, "Lon", Double())})),
      Optional(5, "tags", ListType::Make(6, String(), true)),
      Optional(7, "props", MapType::Make(8, String(), 9, Int(), false)),
  };
}

TEST(SchemaTest, FindsFieldsByIdAndDottedName) {
  Schema schema(NestedFields());
  EXPECT_EQ(schema.highest_field_id(), 9);
  EXPECT_EQ(schema.FindField(4)->name, "Lon");
  EXPECT_EQ(schema.FindField("location.Lon")->id, 4);
  EXPECT_EQ(schema.FindField("location.lon"), nullptr);
  EXPECT_EQ(schema.FindField("LOCATION.lon", /*case_sensitive=*/false)->id, 4);
  EXPECT_EQ(schema.FindField("tags.element")->id, 6);
  EXPECT_EQ(schema.FindField("props.value")->id, 9);
  EXPECT_EQ(schema.FindColumnName(8), "props.key");
  EXPECT_EQ(schema.FindParentId(3), 2);
  EXPECT_EQ(schema.FindParentId(1), std::nullopt);
  EXPECT_EQ(schema.all_field_ids(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(SchemaTest, RejectsDuplicateIdsAndNames) {
  auto dup_id = Schema::Make({Required(1, "a", Int()), Required(1, "b", Int())});
  ASSERT_FALSE(dup_id.has_value());
  EXPECT_EQ(dup_id.error().message(), "schema has duplicate field id 1");
  auto dup_name = Schema::Make({Required(1, "a", Int()), Required(2, "a", Int())});
  ASSERT_FALSE(dup_name.has_value());
}

TEST(SchemaTest, ValidatesIdentifierFields) {
  FLOE_EXPECT_OK(Schema::Make(NestedFields(), 0, {1}));
  EXPECT_FALSE(Schema::Make(NestedFields(), 0, {2}).has_value());  // a struct
  EXPECT_FALSE(
      Schema::Make(NestedFields(), 0, {3}).has_value());  // a double, in an optional struct
  EXPECT_FALSE(Schema::Make(NestedFields(), 0, {6}).has_value());   // inside a list
  EXPECT_FALSE(Schema::Make(NestedFields(), 0, {42}).has_value());  // absent
  auto optional = Schema::Make({Optional(1, "a", Int())}, 0, {1});
  ASSERT_FALSE(optional.has_value());
  EXPECT_EQ(optional.error().message(), "identifier field 'a' must be required");
}

TEST(SchemaTest, TypeNamesFollowTheSpec) {
  EXPECT_EQ(Decimal(9, 2)->ToString(), "decimal(9, 2)");
  EXPECT_EQ(Fixed(16)->ToString(), "fixed[16]");
  EXPECT_EQ(TimestampTzNs()->ToString(), "timestamptz_ns");
  EXPECT_EQ(TimestampNs()->min_format_version(), 3);
  EXPECT_EQ(Long()->min_format_version(), 1);
  EXPECT_TRUE(*Decimal(9, 2) == *Decimal(9, 2));
  EXPECT_FALSE(*Decimal(9, 2) == *Decimal(9, 3));
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

using namespace types;

// struct<1 id, 2 location struct<3 lat, 4 Lon>, 5 tags list<6 string>,
//        7 props map<8 string, 9 int>, 10 points list<11 struct<12 x, 13 y>>,
//        14 attrs map<15 string, 16 struct<17 a, 18 b>>>
SchemaPtr RichSchema() {
  auto fields = NestedFields();
  fields.push_back(Optional(
      10, "points",
      ListType::Make(11, StructType::Make({Required(12, "x", Long()), Required(13, "y", Long())}),
                     false)));
  fields.push_back(Optional(
      14, "attrs",
      MapType::Make(15, String(), 16,
                    StructType::Make({Optional(17, "a", Int()), Optional(18, "b", Int())}), true)));
  auto schema = Schema::Make(std::move(fields), 4, {1});
  EXPECT_TRUE(schema.has_value());
  return *schema;
}

std::vector<int32_t> Ids(const Schema& schema) { return schema.all_field_ids(); }

TEST(SchemaProjectTest, KeepsSelectedFieldsWholeAndThePathsToThem) {
  auto schema = RichSchema();
  EXPECT_EQ(Ids(*schema->Project({1})), (std::vector<int32_t>{1}));
  // A struct selected by its id comes whole; a nested field brings only its parents.
  EXPECT_EQ(Ids(*schema->Project({2})), (std::vector<int32_t>{2, 3, 4}));
  EXPECT_EQ(Ids(*schema->Project({4})), (std::vector<int32_t>{2, 4}));
  EXPECT_EQ(schema->Project({4})->FindField(2)->required, false);
  // Inside a list of structs.
  EXPECT_EQ(Ids(*schema->Project({13})), (std::vector<int32_t>{10, 11, 13}));
  EXPECT_EQ(Ids(*schema->Project({10})), (std::vector<int32_t>{10, 11, 12, 13}));
  // Inside a map value: the key stays whole.
  EXPECT_EQ(Ids(*schema->Project({18})), (std::vector<int32_t>{14, 15, 16, 18}));
  EXPECT_EQ(Ids(*schema->Project({15})), (std::vector<int32_t>{14, 15, 16, 17, 18}));
  // Order follows the schema, not the request; unknown ids are ignored.
  EXPECT_EQ(Ids(*schema->Project({7, 99, 1})), (std::vector<int32_t>{1, 7, 8, 9}));
  EXPECT_TRUE(schema->Project({})->fields().empty());
  auto projected = schema->Project({3, 1});
  EXPECT_EQ(projected->schema_id(), 4);
  EXPECT_EQ(projected->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_TRUE(schema->Project({3})->identifier_field_ids().empty());
  EXPECT_EQ(projected->ToString(),
            "table { (schema 4)\n  1: id: required long\n"
            "  2: location: optional struct<3: lat: required double>\n}");
}

TEST(SchemaProjectTest, SelectByName) {
  auto schema = RichSchema();
  FLOE_ASSERT_OK_AND_ASSIGN(auto selected, schema->Select({"location.Lon", "tags"}));
  EXPECT_EQ(Ids(*selected), (std::vector<int32_t>{2, 4, 5, 6}));
  EXPECT_FALSE(schema->Select({"location.lon"}).has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(auto insensitive,
                            schema->Select({"LOCATION.lon", "points.element.y"}, false));
  EXPECT_EQ(Ids(*insensitive), (std::vector<int32_t>{2, 4, 10, 11, 13}));
  auto missing = schema->Select({"id", "nope"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind(), ErrorKind::kNotFound);
  EXPECT_TRUE(missing.error().message().starts_with("cannot select 'nope'"));
}

TEST(SchemaFreshIdsTest, AssignsStructFieldsBeforeTheirChildren) {
  // Ids as a client would send them for a new table: arbitrary.
  Schema schema(
      {Required(100, "id", Long()),
       Optional(50, "loc",
                StructType::Make({Required(7, "lat", Double()), Required(8, "lon", Double())})),
       Optional(60, "props",
                MapType::Make(61, String(), 62, ListType::Make(63, Int(), false), true)),
       Optional(70, "name", String())},
      9, {100});
  int32_t last_column_id = 0;
  auto fresh = schema.AssignFreshIds(&last_column_id, 0);
  EXPECT_EQ(last_column_id, 9);
  EXPECT_EQ(fresh->schema_id(), 0);
  // Top level 1..4, then loc's fields, then props' key and value, then the value's element.
  EXPECT_EQ(fresh->FindField("id")->id, 1);
  EXPECT_EQ(fresh->FindField("loc")->id, 2);
  EXPECT_EQ(fresh->FindField("props")->id, 3);
  EXPECT_EQ(fresh->FindField("name")->id, 4);
  EXPECT_EQ(fresh->FindField("loc.lat")->id, 5);
  EXPECT_EQ(fresh->FindField("loc.lon")->id, 6);
  EXPECT_EQ(fresh->FindField("props.key")->id, 7);
  EXPECT_EQ(fresh->FindField("props.value")->id, 8);
  EXPECT_EQ(fresh->FindField("props.value.element")->id, 9);
  EXPECT_EQ(fresh->identifier_field_ids(), std::vector<int32_t>{1});
  EXPECT_TRUE(fresh->FindField(2)->type->id() == TypeId::kStruct);
  EXPECT_EQ(fresh->FindField(4)->name, "name");
  // Counting on from an existing table's last column id.
  int32_t counter = 20;
  EXPECT_EQ(schema.AssignFreshIds(&counter)->FindField("id")->id, 21);
  EXPECT_EQ(counter, 29);
}

TEST(SchemaFreshIdsTest, ReusesIdsOfABaseSchemaByName) {
  Schema base({Required(1, "id", Long()), Optional(2, "data", String())});
  Schema replacement(
      {Optional(10, "data", String()), Optional(11, "extra", Int()), Required(12, "id", Long())});
  int32_t last_column_id = 2;
  auto fresh = replacement.AssignFreshIds([&] { return ++last_column_id; }, &base);
  EXPECT_EQ(fresh->FindField("data")->id, 2);
  EXPECT_EQ(fresh->FindField("id")->id, 1);
  EXPECT_EQ(fresh->FindField("extra")->id, 3);
  EXPECT_EQ(last_column_id, 3);
}

TEST(SchemaAliasTest, LooksUpFieldsByAlias) {
  auto schema = RichSchema()->WithAliases({{"loc.latitude", 3}, {"identifier", 1}});
  EXPECT_EQ(schema->AliasToId("loc.latitude"), 3);
  EXPECT_EQ(schema->AliasToId("location.lat"), std::nullopt);
  EXPECT_EQ(schema->IdToAlias(1), "identifier");
  EXPECT_EQ(schema->IdToAlias(4), std::nullopt);
  ASSERT_NE(schema->FindFieldByAlias("loc.latitude"), nullptr);
  EXPECT_EQ(schema->FindFieldByAlias("loc.latitude")->name, "lat");
  EXPECT_EQ(schema->FindFieldByAlias("nope"), nullptr);
  // Aliases survive projection for the fields that remain.
  auto projected = schema->Project({3});
  EXPECT_EQ(projected->AliasToId("loc.latitude"), 3);
  EXPECT_EQ(projected->AliasToId("identifier"), std::nullopt);
}

}  // namespace
}  // namespace floe
