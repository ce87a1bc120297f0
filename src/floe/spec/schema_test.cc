#include "floe/spec/schema.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

std::vector<NestedField> NestedFields() {
  return {
      Required(1, "id", Long()),
      Optional(2, "location", StructType::Make({Required(3, "lat", Double()),
                                                 Required(4, "Lon", Double())})),
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
  EXPECT_FALSE(Schema::Make(NestedFields(), 0, {2}).has_value());   // a struct
  EXPECT_FALSE(Schema::Make(NestedFields(), 0, {3}).has_value());   // a double, in an optional struct
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
