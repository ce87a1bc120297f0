#include "floe/spec/schema_update.h"

#include <gtest/gtest.h>

#include "floe/spec/schema_json.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

constexpr int32_t kLastColumnId = 20;  // above the highest id: deleted columns' ids stay used

SchemaPtr Base(std::vector<NestedField> extra = {}) {
  std::vector<NestedField> fields = {
      Required(1, "id", Long()),
      Optional(2, "data", String()),
      Optional(3, "location",
               StructType::Make({Required(4, "lat", Double()), Required(5, "lon", Double())})),
      Optional(6, "tags", ListType::Make(7, String(), true)),
      Optional(8, "props",
               MapType::Make(9, String(), 10,
                             StructType::Make({Optional(11, "a", Int()), Optional(12, "b", Int())}),
                             false)),
      Optional(13, "price", Decimal(9, 2)),
      Optional(14, "ratio", Float()),
      Optional(15, "day", Date()),
      Optional(16, "count", Int()),
      Optional(17, "points",
               ListType::Make(18, StructType::Make({Required(19, "x", Long())}), false)),
  };
  for (auto& field : extra) fields.push_back(std::move(field));
  auto schema = Schema::Make(std::move(fields), 2, {1});
  EXPECT_TRUE(schema.has_value()) << schema.error().ToString();
  return *schema;
}

std::vector<std::string> TopLevelNames(const Schema& schema) {
  std::vector<std::string> names;
  for (const auto& field : schema.fields()) names.push_back(field.name);
  return names;
}

// The error message of an update that must fail.
std::string Failure(const SchemaUpdate& update) {
  auto applied = update.Apply();
  EXPECT_FALSE(applied.has_value()) << applied->schema->ToString();
  return applied ? std::string() : applied.error().message();
}

TEST(PromotionTest, FollowsTheSpecTable) {
  struct Case {
    TypePtr from;
    TypePtr to;
    int version;
    bool allowed;
  };
  const Case cases[] = {
      {Int(), Long(), 1, true},
      {Int(), Long(), 3, true},
      {Float(), Double(), 2, true},
      {Decimal(9, 2), Decimal(18, 2), 1, true},
      {Decimal(9, 2), Decimal(9, 2), 2, true},  // no change
      {Decimal(9, 2), Decimal(8, 2), 2, false},
      {Decimal(9, 2), Decimal(18, 3), 2, false},
      {Long(), Int(), 2, false},
      {Double(), Float(), 2, false},
      {Int(), Double(), 2, false},
      {Int(), String(), 2, false},
      {String(), Binary(), 2, false},
      {Date(), Timestamp(), 2, false},
      {Date(), Timestamp(), 3, true},
      {Date(), TimestampNs(), 3, true},
      {Date(), TimestampTz(), 3, false},
      {Date(), TimestampTzNs(), 3, false},
      {Timestamp(), TimestampNs(), 3, false},
      {Unknown(), String(), 3, true},
      {Unknown(), Decimal(10, 2), 3, true},
      {Unknown(), StructType::Make({Optional(1, "a", Int())}), 3, true},
      {Unknown(), String(), 2, false},
      {Long(), Long(), 1, true},
      {TimestampNs(), TimestampNs(), 2, false},  // not a v2 type
      {Fixed(4), Fixed(8), 2, false},
      {Binary(), Fixed(8), 2, false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(IsPromotionAllowed(*c.from, *c.to, c.version), c.allowed)
        << c.from->ToString() << " -> " << c.to->ToString() << " v" << c.version;
  }
}

TEST(SchemaUpdateTest, NoChangesGivesTheSameFieldsUnderANewId) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 2).Apply());
  EXPECT_EQ(applied.schema->schema_id(), 3);
  EXPECT_EQ(applied.last_column_id, kLastColumnId);
  EXPECT_TRUE(applied.schema->SameSchema(*base));
  FLOE_ASSERT_OK_AND_ASSIGN(auto explicit_id, SchemaUpdate(base, kLastColumnId, 2).Apply(9));
  EXPECT_EQ(explicit_id.schema->schema_id(), 9);
}

TEST(SchemaUpdateTest, AddColumnsAtTopLevelAndInNestedStructs) {
  auto base = Base();
  SchemaUpdate update(base, kLastColumnId, 2);
  update.AddColumn("", "region", String(), "where")
      .AddColumn("location", "alt", Float())
      .AddColumn("points", "y", Long())   // the list's element struct
      .AddColumn("props", "c", String())  // the map's value struct
      .AddColumn("", "nested",
                 StructType::Make(
                     {Optional(1, "p", Int()), Optional(2, "q", ListType::Make(3, Int(), false))}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, update.Apply());
  const Schema& schema = *applied.schema;
  EXPECT_EQ(schema.FindField("region")->id, 21);
  EXPECT_EQ(schema.FindField("region")->doc, "where");
  EXPECT_FALSE(schema.FindField("region")->required);
  EXPECT_EQ(schema.FindField("location.alt")->id, 22);
  EXPECT_EQ(schema.FindField("points.element.y")->id, 23);
  EXPECT_EQ(schema.FindField("props.value.c")->id, 24);
  // The column first, then its fields, then the list's element.
  EXPECT_EQ(schema.FindField("nested")->id, 25);
  EXPECT_EQ(schema.FindField("nested.p")->id, 26);
  EXPECT_EQ(schema.FindField("nested.q")->id, 27);
  EXPECT_EQ(schema.FindField("nested.q.element")->id, 28);
  EXPECT_EQ(applied.last_column_id, 28);
  EXPECT_EQ(TopLevelNames(schema).back(), "nested");
  EXPECT_EQ(schema.FindField(3)->type->ToString(),
            "struct<4: lat: required double, 5: lon: required double, 22: alt: optional float>");
  // The base is untouched.
  EXPECT_EQ(base->FindField("region"), nullptr);
  EXPECT_EQ(base->highest_field_id(), 19);
}

TEST(SchemaUpdateTest, AddColumnFailures) {
  auto base = Base();
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("", "data", Int())),
            "add column 'data': column 'data' already exists");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("location", "lat", Int())),
            "add column 'lat': column 'location.lat' already exists");
  EXPECT_EQ(
      Failure(SchemaUpdate(base, kLastColumnId, 2).CaseInsensitive().AddColumn("", "DATA", Int())),
      "add column 'DATA': column 'DATA' already exists");
  FLOE_EXPECT_OK(SchemaUpdate(base, kLastColumnId, 2).AddColumn("", "DATA", Int()).Apply());
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("data", "x", Int())),
            "add column 'x': parent 'data' is a string, not a struct");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("tags", "x", Int())),
            "add column 'x': parent 'tags' is a string, not a struct");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("nope", "x", Int())),
            "add column 'x': no column named 'nope'");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("", "", Int())),
            "add column '': a column name cannot be empty");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).AddColumn("", "t", TimestampNs())),
            "add column 't': type timestamp_ns needs format version 3, the table has 2");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2)
                        .AddColumn("", "t", ListType::Make(1, Variant(), false))),
            "add column 't': type list<variant> needs format version 3, the table has 2");
  auto unknown_kind = SchemaUpdate(base, kLastColumnId, 2).AddColumn("nope", "x", Int()).Apply();
  ASSERT_FALSE(unknown_kind.has_value());
  EXPECT_EQ(unknown_kind.error().kind(), ErrorKind::kNotFound);
}

TEST(SchemaUpdateTest, RequiredColumnsNeedADefault) {
  auto base = Base();
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3).AddRequiredColumn("", "r", Int(), {})),
            "add column 'r': a required column needs a non-null default value");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3).AddRequiredColumn("", "r", Int(), Json())),
            "add column 'r': a required column needs a non-null default value");
  // Defaults exist from format version 3 on.
  EXPECT_EQ(
      Failure(SchemaUpdate(base, kLastColumnId, 2).AddRequiredColumn("", "r", Int(), Json(5))),
      "add column 'r': default values need format version 3, the table has 2");
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto applied,
      SchemaUpdate(base, kLastColumnId, 3).AddRequiredColumn("", "r", Int(), Json(5)).Apply());
  const NestedField* r = applied.schema->FindField("r");
  EXPECT_TRUE(r->required);
  EXPECT_EQ(r->initial_default, Json(5));
  EXPECT_EQ(r->write_default, Json(5));
  // With incompatible changes allowed, no default is needed.
  FLOE_ASSERT_OK_AND_ASSIGN(auto incompatible, SchemaUpdate(base, kLastColumnId, 2)
                                                   .AllowIncompatibleChanges()
                                                   .AddRequiredColumn("", "r", Int(), {})
                                                   .Apply());
  EXPECT_TRUE(incompatible.schema->FindField("r")->required);
  // Optional columns with a default (v3).
  FLOE_ASSERT_OK_AND_ASSIGN(auto optional, SchemaUpdate(base, kLastColumnId, 3)
                                               .AddColumn("", "d", Date(), "", Json("2017-11-16"))
                                               .Apply());
  EXPECT_EQ(optional.schema->FindField("d")->initial_default, Json("2017-11-16"));
}

TEST(SchemaUpdateTest, DefaultsMustMatchTheirType) {
  auto base = Base();
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3).AddColumn("", "d", Date(), "", Json(5))),
            "add column 'd': JSON date value must be a string, got an integer");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3)
                        .AddColumn("", "s", StructType::Make({Optional(1, "a", Int())}), "",
                                   Json::Parse(R"({"1": 5})").value())),
            "add column 's': the default of a struct may only be null or {}, not {\"1\":5}");
  FLOE_EXPECT_OK(
      SchemaUpdate(base, kLastColumnId, 3)
          .AddColumn("", "s", StructType::Make({Optional(1, "a", Int())}), "", Json::MakeObject())
          .Apply());
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3)
                        .AddColumn("", "g", PrimitiveType::Geometry(), "", Json("POINT (1 2)"))),
            "add column 'g': a geometry column must default to null");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3)
                        .AddColumn("", "l", ListType::Make(1, Int(), false), "",
                                   Json::Parse("[1]").value())),
            "add column 'l': defaults of list columns are not supported");
}

TEST(SchemaUpdateTest, DeleteColumns) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 2)
                                              .DeleteColumn("data")
                                              .DeleteColumn("location.lon")
                                              .DeleteColumn("props.value.a")
                                              .Apply());
  EXPECT_EQ(applied.schema->FindField(2), nullptr);
  EXPECT_EQ(applied.schema->FindField(5), nullptr);
  EXPECT_EQ(applied.schema->FindField(11), nullptr);
  EXPECT_NE(applied.schema->FindField(12), nullptr);
  EXPECT_EQ(applied.last_column_id, kLastColumnId);
  // A deleted name may be added again, under a new id.
  FLOE_ASSERT_OK_AND_ASSIGN(auto readded, SchemaUpdate(base, kLastColumnId, 2)
                                              .DeleteColumn("data")
                                              .AddColumn("", "data", Int())
                                              .Apply());
  EXPECT_EQ(readded.schema->FindField("data")->id, 21);
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("nope")),
            "delete column 'nope': no column named 'nope'");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("tags.element")),
            "delete column 'tags.element': cannot delete 'tags.element': it is the element of "
            "list 'tags'");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("props.key")),
            "delete column 'props.key': cannot delete 'props.key': it is the key of map 'props'");
  // A deleted column cannot be changed afterwards.
  EXPECT_EQ(
      Failure(SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("data").RenameColumn("data", "x")),
      "rename column 'data': no column named 'data'");
}

TEST(SchemaUpdateTest, IdentifierFieldsCannotBeDeleted) {
  auto base = Base();
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("id")),
            "cannot delete identifier field 'id'");
  // Also not by deleting the struct that holds one.
  auto nested =
      Schema::Make({Required(1, "key", StructType::Make({Required(2, "part", Int())}))}, 0, {2});
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(Failure(SchemaUpdate(*nested, 2, 2).DeleteColumn("key")),
            "cannot delete identifier field 'key.part'");
  // Once no longer an identifier field, in either order.
  FLOE_EXPECT_OK(
      SchemaUpdate(base, kLastColumnId, 2).DeleteColumn("id").SetIdentifierFields({}).Apply());
  FLOE_ASSERT_OK_AND_ASSIGN(auto swapped, SchemaUpdate(base, kLastColumnId, 3)
                                              .AddRequiredColumn("", "uid", String(), Json("none"))
                                              .SetIdentifierFields({"uid"})
                                              .DeleteColumn("id")
                                              .Apply());
  EXPECT_EQ(swapped.schema->identifier_field_ids(), std::vector<int32_t>{21});
}

TEST(SchemaUpdateTest, RenameColumns) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 2)
                                              .RenameColumn("id", "user_id")
                                              .RenameColumn("location.lat", "latitude")
                                              .RenameColumn("user_id", "uid")  // by its new name
                                              .RenameColumn("points.element.x", "px")
                                              .Apply());
  EXPECT_EQ(applied.schema->FindField(1)->name, "uid");
  EXPECT_EQ(applied.schema->FindColumnName(4), "location.latitude");
  EXPECT_EQ(applied.schema->FindColumnName(19), "points.element.px");
  EXPECT_EQ(applied.schema->identifier_field_ids(), std::vector<int32_t>{1});
  // Swapping two names through a third.
  FLOE_EXPECT_OK(SchemaUpdate(base, kLastColumnId, 2)
                     .RenameColumn("data", "tmp")
                     .RenameColumn("count", "data")
                     .RenameColumn("tmp", "count")
                     .Apply());
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("data", "count")),
            "rename column 'data': a column named 'count' already exists there");
  EXPECT_EQ(
      Failure(SchemaUpdate(base, kLastColumnId, 2).CaseInsensitive().RenameColumn("data", "COUNT")),
      "rename column 'data': a column named 'count' already exists there");
  // The same name in another struct is no clash.
  FLOE_EXPECT_OK(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("location.lat", "data").Apply());
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("data", "data")),
            "rename column 'data': the new name is the old name");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("data", "")),
            "rename column 'data': a column name cannot be empty");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("props.value", "v")),
            "rename column 'props.value': cannot rename 'props.value': it is the value of map "
            "'props'");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RenameColumn("nope", "x")),
            "rename column 'nope': no column named 'nope'");
  // Case-insensitive lookups.
  FLOE_ASSERT_OK_AND_ASSIGN(auto insensitive, SchemaUpdate(base, kLastColumnId, 2)
                                                  .CaseInsensitive()
                                                  .RenameColumn("LOCATION.LAT", "y")
                                                  .Apply());
  EXPECT_EQ(insensitive.schema->FindColumnName(4), "location.y");
}

TEST(SchemaUpdateTest, UpdateColumnTypes) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 2)
                                              .UpdateColumnType("count", Long())
                                              .UpdateColumnType("ratio", Double())
                                              .UpdateColumnType("price", Decimal(18, 2))
                                              .UpdateColumnType("props.value.a", Long())
                                              .Apply());
  EXPECT_EQ(applied.schema->FindField(16)->type->ToString(), "long");
  EXPECT_EQ(applied.schema->FindField(14)->type->ToString(), "double");
  EXPECT_EQ(applied.schema->FindField(13)->type->ToString(), "decimal(18, 2)");
  EXPECT_EQ(applied.schema->FindField(11)->type->ToString(), "long");
  EXPECT_FALSE(applied.schema->FindField(16)->required);
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).UpdateColumnType("id", Int())),
            "update type of column 'id': cannot change type long to int in format version 2");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).UpdateColumnType("price", Decimal(18, 3))),
            "update type of column 'price': cannot change type decimal(9, 2) to decimal(18, 3) in "
            "format version 2");
  EXPECT_EQ(
      Failure(SchemaUpdate(base, kLastColumnId, 2).UpdateColumnType("day", Timestamp())),
      "update type of column 'day': cannot change type date to timestamp in format version 2");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3).UpdateColumnType("day", TimestampTz())),
            "update type of column 'day': cannot change type date to timestamptz in format "
            "version 3");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).UpdateColumnType("location", String())),
            "update type of column 'location': only primitive types can change, not "
            "struct<4: lat: required double, 5: lon: required double> to string");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).UpdateColumnType("nope", Long())),
            "update type of column 'nope': no column named 'nope'");
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto v3, SchemaUpdate(base, kLastColumnId, 3).UpdateColumnType("day", TimestampNs()).Apply());
  EXPECT_EQ(v3.schema->FindField(15)->type->id(), TypeId::kTimestampNs);
  // Not when a partition field uses the date column (other promotions stay allowed).
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 3)
                        .SetPartitionSourceIds({15, 16})
                        .UpdateColumnType("day", Timestamp())),
            "update type of column 'day': it is a partition source; as a timestamp its partition "
            "values would change");
  FLOE_EXPECT_OK(SchemaUpdate(base, kLastColumnId, 3)
                     .SetPartitionSourceIds({15, 16})
                     .UpdateColumnType("count", Long())
                     .Apply());
}

TEST(SchemaUpdateTest, PromotingADateRewritesItsDefaults) {
  NestedField day = Optional(30, "since", Date());
  day.initial_default = Json("2017-11-16");
  day.write_default = Json("1970-01-02");
  auto base = Base({day});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto applied, SchemaUpdate(base, 30, 3).UpdateColumnType("since", Timestamp()).Apply());
  EXPECT_EQ(applied.schema->FindField(30)->initial_default, Json("2017-11-16T00:00:00.000000"));
  EXPECT_EQ(applied.schema->FindField(30)->write_default, Json("1970-01-02T00:00:00.000000"));
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto nanos, SchemaUpdate(base, 30, 3).UpdateColumnType("since", TimestampNs()).Apply());
  EXPECT_EQ(nanos.schema->FindField(30)->initial_default, Json("2017-11-16T00:00:00.000000000"));
}

TEST(SchemaUpdateTest, UnknownColumnsTakeAnyType) {
  auto base = Base({Optional(30, "later", Unknown())});
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto applied, SchemaUpdate(base, 30, 3).UpdateColumnType("later", Decimal(10, 2)).Apply());
  EXPECT_EQ(applied.schema->FindField(30)->type->ToString(), "decimal(10, 2)");
}

TEST(SchemaUpdateTest, RequirednessChanges) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 2)
                                              .MakeOptional("location.lat")
                                              .MakeOptional("tags.element")
                                              .Apply());
  EXPECT_FALSE(applied.schema->FindField(4)->required);
  EXPECT_FALSE(applied.schema->FindField(7)->required);
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MakeOptional("props.key")),
            "make column 'props.key' optional: map keys are always required");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MakeOptional("id")),
            "updated schema: identifier field 'id' must be required");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).RequireColumn("data")),
            "make column 'data' required: existing rows may hold nulls; allow incompatible "
            "changes to do this");
  FLOE_ASSERT_OK_AND_ASSIGN(auto required, SchemaUpdate(base, kLastColumnId, 2)
                                               .AllowIncompatibleChanges()
                                               .RequireColumn("data")
                                               .Apply());
  EXPECT_TRUE(required.schema->FindField(2)->required);
  // A column added in the same update holds no rows yet.
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto fresh,
      SchemaUpdate(base, kLastColumnId, 2).AddColumn("", "n", Int()).RequireColumn("n").Apply());
  EXPECT_TRUE(fresh.schema->FindField("n")->required);
}

TEST(SchemaUpdateTest, DocsAndWriteDefaults) {
  NestedField with_default = Optional(30, "level", Int());
  with_default.initial_default = Json(1);
  with_default.write_default = Json(1);
  auto base = Base({with_default});
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, 30, 3)
                                              .UpdateDoc("location.lat", "degrees north")
                                              .UpdateDefault("level", Json(7))
                                              .UpdateDefault("data", Json("n/a"))
                                              .Apply());
  EXPECT_EQ(applied.schema->FindField(4)->doc, "degrees north");
  EXPECT_EQ(applied.schema->FindField(30)->initial_default, Json(1));  // never changes
  EXPECT_EQ(applied.schema->FindField(30)->write_default, Json(7));
  EXPECT_EQ(applied.schema->FindField(2)->write_default, Json("n/a"));
  EXPECT_EQ(applied.schema->FindField(2)->initial_default, std::nullopt);
  FLOE_ASSERT_OK_AND_ASSIGN(auto cleared,
                            SchemaUpdate(base, 30, 3).UpdateDefault("level", Json()).Apply());
  EXPECT_EQ(cleared.schema->FindField(30)->write_default, std::nullopt);
  EXPECT_EQ(Failure(SchemaUpdate(base, 30, 2).UpdateDefault("data", Json("x"))),
            "update default of column 'data': default values need format version 3, the table "
            "has 2");
  EXPECT_EQ(Failure(SchemaUpdate(base, 30, 3).UpdateDefault("level", Json("x"))),
            "update default of column 'level': JSON int value must be a 32-bit integer, got \"x\"");
  EXPECT_EQ(Failure(SchemaUpdate(base, 30, 3).UpdateDefault("id", Json())),
            "update default of column 'id': a required column's write default cannot be null");
  EXPECT_EQ(Failure(SchemaUpdate(base, 30, 3).UpdateDefault("tags.element", Json("x"))),
            "update default of column 'tags.element': cannot set a default of 'tags.element': it "
            "is the element of list 'tags'");
  EXPECT_EQ(Failure(SchemaUpdate(base, 30, 3).UpdateDoc("nope", "x")),
            "update doc of column 'nope': no column named 'nope'");
}

TEST(SchemaUpdateTest, MoveColumns) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto first, SchemaUpdate(base, kLastColumnId, 2)
                                            .MoveFirst("location")
                                            .MoveBefore("count", "data")
                                            .MoveAfter("id", "points")
                                            .MoveAfter("location.lat", "location.lon")
                                            .Apply());
  EXPECT_EQ(TopLevelNames(*first.schema),
            (std::vector<std::string>{"location", "count", "data", "tags", "props", "price",
                                      "ratio", "day", "points", "id"}));
  EXPECT_EQ(first.schema->FindField(3)->type->ToString(),
            "struct<5: lon: required double, 4: lat: required double>");
  // A column added in the same update can be moved.
  FLOE_ASSERT_OK_AND_ASSIGN(auto added, SchemaUpdate(base, kLastColumnId, 2)
                                            .AddColumn("location", "alt", Float())
                                            .MoveFirst("location.alt")
                                            .Apply());
  EXPECT_EQ(added.schema->FindField(3)->type->ToString(),
            "struct<21: alt: optional float, 4: lat: required double, 5: lon: required double>");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MoveAfter("location.lat", "id")),
            "move column 'location.lat' after 'id': 'location.lat' and 'id' are in different "
            "structs");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MoveBefore("id", "id")),
            "move column 'id' before 'id': cannot move a column relative to itself");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MoveBefore("id", "nope")),
            "move column 'id' before 'nope': no column named 'nope'");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).MoveFirst("tags.element")),
            "move column 'tags.element' first: cannot move 'tags.element': it is the element of "
            "list 'tags'");
}

TEST(SchemaUpdateTest, SetIdentifierFields) {
  auto base = Base();
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied, SchemaUpdate(base, kLastColumnId, 3)
                                              .AddRequiredColumn("", "region", String(), Json("eu"))
                                              .SetIdentifierFields({"id", "region", "id"})
                                              .Apply());
  EXPECT_EQ(applied.schema->identifier_field_ids(), (std::vector<int32_t>{1, 21}));
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).SetIdentifierFields({"data"})),
            "updated schema: identifier field 'data' must be required");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).SetIdentifierFields({"location.lat"})),
            "updated schema: identifier field 'lat' cannot be a double");
  EXPECT_EQ(Failure(SchemaUpdate(base, kLastColumnId, 2).SetIdentifierFields({"nope"})),
            "set identifier fields: no column named 'nope'");
  FLOE_ASSERT_OK_AND_ASSIGN(auto cleared,
                            SchemaUpdate(base, kLastColumnId, 2).SetIdentifierFields({}).Apply());
  EXPECT_TRUE(cleared.schema->identifier_field_ids().empty());
}

TEST(SchemaUpdateTest, TheFirstErrorWins) {
  auto base = Base();
  SchemaUpdate update(base, kLastColumnId, 2);
  update.AddColumn("", "ok", Int()).RenameColumn("nope", "x").DeleteColumn("also-nope");
  EXPECT_EQ(Failure(update), "rename column 'nope': no column named 'nope'");
}

TEST(SchemaUpdateTest, EvolvesASchemaReadFromJava) {
  // The v2 schema of the Java suite's metadata, evolved and written back.
  auto metadata = Json::Parse(testing::ReadFileOrDie(
      testing::TestDataDir() / "iceberg-java/core/src/test/resources/TableMetadataV2Valid.json"));
  ASSERT_TRUE(metadata.has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(const Json::Array* schemas, metadata->GetArray("schemas"));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, SchemaFromJson(schemas->back()));
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t last_column_id, metadata->GetInt("last-column-id"));
  FLOE_ASSERT_OK_AND_ASSIGN(auto applied,
                            SchemaUpdate(schema, static_cast<int32_t>(last_column_id), 2)
                                .RenameColumn("z", "zeta")
                                .AddColumn("", "w", Int())
                                .MoveFirst("w")
                                .Apply());
  EXPECT_EQ(applied.last_column_id, 4);
  EXPECT_EQ(SchemaToJson(*applied.schema).Dump(),
            R"({"type":"struct","schema-id":2,"identifier-field-ids":[1,2],"fields":[)"
            R"({"id":4,"name":"w","required":false,"type":"int"},)"
            R"({"id":1,"name":"x","required":true,"type":"long"},)"
            R"({"id":2,"name":"y","required":true,"type":"long","doc":"comment"},)"
            R"({"id":3,"name":"zeta","required":true,"type":"long"}]})");
}

}  // namespace
}  // namespace floe
