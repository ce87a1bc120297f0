#include "floe/format/parquet/schema.h"

#include <gtest/gtest.h>

#include <set>

#include "floe/format/parquet/footer.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

Result<FileMetaData> Footer(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(auto source,
                        OpenLocalFile(testing::TestDataDir() / "parquet-testing/data" / name));
  return ReadFooter(*source);
}

struct Expected {
  std::string path;
  int16_t max_rep;
  int16_t max_def;
};

void ExpectColumns(const SchemaTree& tree, const std::vector<Expected>& expected) {
  ASSERT_EQ(tree.columns().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const ColumnDescriptor& c = tree.columns()[i];
    EXPECT_EQ(c.dotted_path(), expected[i].path);
    EXPECT_EQ(c.max_repetition_level, expected[i].max_rep) << c.dotted_path();
    EXPECT_EQ(c.max_definition_level, expected[i].max_def) << c.dotted_path();
  }
}

// map_no_value.md gives the schema; its levels follow from the format's rules.
TEST(SchemaTreeTest, MapsAndListsFromParquetRs) {
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, Footer("map_no_value.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaTree tree, SchemaTree::Make(m.schema));
  ExpectColumns(tree, {{"my_map.key_value.key", 1, 1},
                       {"my_map.key_value.value", 1, 2},
                       {"my_map_no_v.key_value.key", 1, 1},
                       {"my_list.list.element", 1, 1}});
  const SchemaNode& my_map = tree.node(tree.root().children[0]);
  EXPECT_EQ(my_map.converted_type, ConvertedType::kMap);
  EXPECT_EQ(my_map.repetition, Repetition::kRequired);
  FLOE_EXPECT_OK(CheckRowGroups(m, tree));
}

// delta_encoding_optional_column.md lists "OPTIONAL INT64 R:0 D:1" and "L:STRING" columns.
TEST(SchemaTreeTest, FlatOptionalColumnsFromParquetMr) {
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, Footer("delta_encoding_optional_column.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaTree tree, SchemaTree::Make(m.schema));
  ASSERT_EQ(tree.columns().size(), 17u);
  EXPECT_EQ(tree.root().name, "hive_schema");
  for (const auto& c : tree.columns()) {
    EXPECT_EQ(c.max_repetition_level, 0);
    EXPECT_EQ(c.max_definition_level, 1);
  }
  EXPECT_EQ(tree.columns()[0].dotted_path(), "c_customer_sk");
  EXPECT_EQ(tree.columns()[0].physical_type, PhysicalType::kInt64);
  const SchemaNode& id = tree.node(tree.columns()[9].node);
  EXPECT_EQ(id.name, "c_customer_id");
  // parquet-mr 1.10 wrote the converted type only; the .md shows it as L:STRING.
  EXPECT_EQ(id.converted_type, ConvertedType::kUtf8);
  std::vector<std::string> path = {"c_birth_year"};
  EXPECT_EQ(tree.FindColumn(path), 8);
  FLOE_EXPECT_OK(CheckRowGroups(m, tree));
}

TEST(SchemaTreeTest, NestedStructsAndLists) {
  // nested_lists.snappy.parquet: a: list<list<list<string>>> (optional at each level), b: int32.
  FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, Footer("nested_lists.snappy.parquet"));
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaTree tree, SchemaTree::Make(m.schema));
  ASSERT_EQ(tree.columns().size(), 2u);
  EXPECT_EQ(tree.columns()[0].max_repetition_level, 3);
  EXPECT_EQ(tree.columns()[0].max_definition_level, 7);
  EXPECT_EQ(tree.columns()[1].max_repetition_level, 0);
  FLOE_EXPECT_OK(CheckRowGroups(m, tree));
}

TEST(SchemaTreeTest, KeepsIcebergFieldIds) {
  auto dir = testing::TestDataDir() / "impala/testdata/data/iceberg_test";
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".parquet") continue;
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, OpenLocalFile(entry.path()));
    FLOE_ASSERT_OK_AND_ASSIGN(FileMetaData m, ReadFooter(*source));
    FLOE_ASSERT_OK_AND_ASSIGN(SchemaTree tree, SchemaTree::Make(m.schema));
    for (size_t i = 1; i < tree.nodes().size(); ++i) {
      const SchemaNode& n = tree.node(static_cast<int>(i));
      if (!n.field_id) continue;
      EXPECT_EQ(tree.FindFieldId(*n.field_id), static_cast<int>(i));
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(SchemaTreeTest, RejectsMalformedLists) {
  SchemaElement root;
  root.name = "root";
  root.num_children = 2;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = PhysicalType::kInt32;
  leaf.repetition_type = Repetition::kOptional;
  // Too few elements for the child count.
  std::vector<SchemaElement> short_list = {root, leaf};
  EXPECT_FALSE(SchemaTree::Make(short_list).has_value());
  // Leftover elements.
  root.num_children = 1;
  std::vector<SchemaElement> long_list = {root, leaf, leaf};
  EXPECT_FALSE(SchemaTree::Make(long_list).has_value());
  // Negative count.
  root.num_children = -1;
  std::vector<SchemaElement> negative = {root};
  EXPECT_FALSE(SchemaTree::Make(negative).has_value());
  // FIXED_LEN_BYTE_ARRAY without a length.
  root.num_children = 1;
  SchemaElement fixed = leaf;
  fixed.type = PhysicalType::kFixedLenByteArray;
  std::vector<SchemaElement> no_length = {root, fixed};
  EXPECT_FALSE(SchemaTree::Make(no_length).has_value());
  // A chain of groups deeper than the limit.
  std::vector<SchemaElement> deep;
  for (int i = 0; i < 1000; ++i) {
    SchemaElement g;
    g.name = "g";
    g.num_children = 1;
    if (i > 0) g.repetition_type = Repetition::kOptional;
    deep.push_back(g);
  }
  deep.push_back(leaf);
  auto result = SchemaTree::Make(deep);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("deeper"), std::string::npos);
  EXPECT_FALSE(SchemaTree::Make({}).has_value());
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Every footer of the corpus that parses forms a schema tree matching its row groups, except the
// files that are broken on purpose in exactly that way.
TEST(SchemaTreeTest, EveryCorpusSchemaBuilds) {
  const std::set<std::string> broken_schemas = {"PARQUET-1481.parquet"};
  int built = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::TestDataDir())) {
    if (entry.path().extension() != ".parquet") continue;
    std::string name = entry.path().filename().string();
    SCOPED_TRACE(entry.path().string());
    FLOE_ASSERT_OK_AND_ASSIGN(auto source, OpenLocalFile(entry.path()));
    auto footer = ReadFooter(*source);
    if (!footer) continue;  // footer_test checks which ones must fail
    auto tree = SchemaTree::Make(footer->schema);
    Status checked = tree ? CheckRowGroups(*footer, *tree) : Status(std::unexpected(tree.error()));
    if (broken_schemas.contains(name)) {
      EXPECT_FALSE(checked.has_value());
      continue;
    }
    EXPECT_TRUE(checked.has_value()) << checked.error().ToString();
    ++built;
  }
  EXPECT_GT(built, 550);
}

}  // namespace
}  // namespace floe::parquet
