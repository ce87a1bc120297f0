#include "floe/table/scan/schema_projection.h"

#include <gtest/gtest.h>

#include <vector>

#include "floe/batch/value.h"
#include "floe/table/scan/batch_types.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

// The table's column: list<struct<10: x long, 11: y string, 12: z double>> (element id 3).
NestedField TableColumn() {
  return types::Optional(
      2, "points",
      ListType::Make(3,
                     StructType::Make({types::Optional(10, "x", types::Long()),
                                       types::Optional(11, "y", types::String()),
                                       types::Optional(12, "z", types::Double())}),
                     false));
}

// Rows of list<struct<y string, x int>> whose nested fields carry ids of their own (21, 20),
// which in the table name other fields or none.
Array RowsColumn(DataTypePtr* type) {
  *type = DataType::List(Field{
      "element",
      DataType::Struct({{"y", DataType::String(), true, 12}, {"x", DataType::Int32(), true, 20}}),
      false, 3});
  std::vector<Value> values = {
      Value(
          ListValue{{Value(StructValue{{{"y", Value(std::string("a"))}, {"x", Value(int64_t{1})}}}),
                     Value(StructValue{{{"y", Value()}, {"x", Value(int64_t{-2})}}})}}),
      Value(),
      Value(ListValue{}),
  };
  auto array = MakeArray(*type, values);
  EXPECT_TRUE(array.has_value()) << array.error().ToString();
  return *array;
}

std::string Json(const Array& array) {
  std::string out;
  for (int64_t i = 0; i < array.length(); ++i) out += GetValue(array, i).ToJson() + "\n";
  return out;
}

TEST(ProjectArrayTest, ByNameMatchesNestedFieldsByTheirNames) {
  DataTypePtr type;
  Array rows = RowsColumn(&type);
  FLOE_ASSERT_OK_AND_ASSIGN(Array projected, ProjectArray(rows, Field{"points", type},
                                                          TableColumn(), FieldMatch::kByName));
  FLOE_ASSERT_OK_AND_ASSIGN(DataTypePtr expected_type, ToBatchType(*TableColumn().type));
  EXPECT_EQ(*projected.type(), *expected_type);  // the table's ids, order and widened x
  // x from the rows' "x" (int widened to long), y from "y", z (absent) null.
  EXPECT_EQ(Json(projected),
            "[{\"x\":1,\"y\":\"a\",\"z\":null},{\"x\":-2,\"y\":null,\"z\":null}]\n"
            "null\n"
            "[]\n");
}

TEST(ProjectArrayTest, ByIdMatchesNestedFieldsByTheirIds) {
  DataTypePtr type;
  Array rows = RowsColumn(&type);
  // A data file's columns: the rows' "y" has id 12, which the table calls "renamed".
  const NestedField target = types::Optional(
      2, "points",
      ListType::Make(3, StructType::Make({types::Optional(12, "renamed", types::String())}),
                     false));
  FLOE_ASSERT_OK_AND_ASSIGN(Array projected, ProjectArray(rows, Field{"points", type}, target));
  EXPECT_EQ(Json(projected), "[{\"renamed\":\"a\"},{\"renamed\":null}]\nnull\n[]\n");
}

}  // namespace
}  // namespace floe::table
