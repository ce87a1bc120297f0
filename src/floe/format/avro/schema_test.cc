#include "floe/format/avro/schema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

namespace fs = std::filesystem;

fs::path AvroTestData() { return floe::testing::TestDataDir() / "avro"; }

struct CanonicalCase {
  std::string input;
  std::string canonical;
  std::optional<int64_t> fingerprint;
};

// Avro's shared parsing-canonical-form cases: "<<INPUT x" (or a block ended by "INPUT"),
// "<<canonical x" and "<<fingerprint n" lines.
std::vector<CanonicalCase> LoadCanonicalCases() {
  std::istringstream in(
      floe::testing::ReadFileOrDie(AvroTestData() / "share/test/data/schema-tests.txt"));
  std::vector<CanonicalCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("<<INPUT", 0) == 0) {
      cases.emplace_back();
      if (line.size() > 7) {
        cases.back().input = line.substr(8);
      } else {
        while (std::getline(in, line) && line != "INPUT") cases.back().input += line + "\n";
      }
    } else if (line.rfind("<<canonical ", 0) == 0 && !cases.empty()) {
      cases.back().canonical = line.substr(12);
    } else if (line.rfind("<<fingerprint ", 0) == 0 && !cases.empty()) {
      cases.back().fingerprint = std::stoll(line.substr(14));
    }
  }
  return cases;
}

TEST(SchemaTest, CanonicalFormsAndFingerprintsMatchAvrosCases) {
  std::vector<CanonicalCase> cases = LoadCanonicalCases();
  ASSERT_GE(cases.size(), 30u);
  for (const CanonicalCase& c : cases) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(c.input));
    EXPECT_EQ(schema->CanonicalForm(), c.canonical) << c.input;
    if (c.fingerprint) {
      EXPECT_EQ(static_cast<int64_t>(Fingerprint64(schema->CanonicalForm())), *c.fingerprint)
          << c.input;
    }
    // What we write parses back to the same schema.
    FLOE_ASSERT_OK_AND_ASSIGN(auto again, Schema::Parse(schema->ToString()));
    EXPECT_EQ(again->CanonicalForm(), c.canonical) << schema->ToString();
  }
}

TEST(SchemaTest, PassingCasesParseAndRoundTrip) {
  int count = 0;
  for (const auto& entry :
       fs::directory_iterator(AvroTestData() / "lang/c/tests/schema_tests/pass")) {
    SCOPED_TRACE(entry.path().filename().string());
    FLOE_ASSERT_OK_AND_ASSIGN(auto schema,
                              Schema::Parse(floe::testing::ReadFileOrDie(entry.path())));
    FLOE_ASSERT_OK_AND_ASSIGN(auto again, Schema::Parse(schema->ToString()));
    EXPECT_EQ(again->CanonicalForm(), schema->CanonicalForm());
    EXPECT_EQ(again->ToJson(), schema->ToJson());
    ++count;
  }
  EXPECT_GE(count, 25);
}

TEST(SchemaTest, FailingCasesAreRejected) {
  int count = 0;
  for (const auto& entry :
       fs::directory_iterator(AvroTestData() / "lang/c/tests/schema_tests/fail")) {
    auto schema = Schema::Parse(floe::testing::ReadFileOrDie(entry.path()));
    EXPECT_FALSE(schema.has_value()) << entry.path().filename();
    if (!schema) {
      EXPECT_EQ(schema.error().kind(), ErrorKind::kInvalidArgument);
    }
    ++count;
  }
  EXPECT_GE(count, 12);
}

TEST(SchemaTest, MoreInvalidSchemas) {
  const char* bad[] = {
      R"(["int", "int"])",     // duplicate union branch
      R"(["null", ["int"]])",  // nested union
      R"({"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]})",
      R"({"type":"enum","name":"e","symbols":["A","A"]})",            // duplicate symbol
      R"({"type":"enum","name":"e","symbols":["A"],"default":"B"})",  // default not a symbol
      R"({"type":"fixed","name":"f","size":-1})",
      R"({"type":"array"})",
      R"({"type":"map","values":"nope"})",
      R"({"type":"record","name":"int","fields":[]})",   // redefines a primitive
      R"({"type":"record","name":"a.1b","fields":[]})",  // invalid namespace part
      R"([{"type":"fixed","name":"f","size":1},{"type":"fixed","name":"f","size":2}])",
      R"(42)",
      R"({"type":"record","name":"r","fields":[{"name":"x-y","type":"int"}]})",
  };
  for (const char* text : bad) EXPECT_FALSE(Schema::Parse(text).has_value()) << text;
}

TEST(SchemaTest, NamespacesAndReferences) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto schema, Schema::Parse(floe::testing::ReadFileOrDie(
                       AvroTestData() / "lang/c/tests/schema_tests/pass/namespace_recursive")));
  const Node& root = schema->root();
  EXPECT_EQ(root.full_name, "namespace1.Container");
  const Node* outer = root.fields[0].type;
  EXPECT_EQ(outer->full_name, "namespace1.MutuallyRecursive");
  const Node* inner = outer->fields[1].type->items;
  EXPECT_EQ(inner->full_name, "namespace2.MutuallyRecursive");
  // "namespace1.MutuallyRecursive" by full name, "MutuallyRecursive" within namespace2.
  EXPECT_EQ(inner->fields[1].type->items, outer);
  EXPECT_EQ(inner->fields[2].type->items, inner);
  EXPECT_EQ(outer->fields[2].type, inner);
  EXPECT_EQ(schema->FindNamed("namespace2.MutuallyRecursive"), inner);
}

TEST(SchemaTest, IcebergAttributesAndLogicalTypesAreKept) {
  const char* text = R"({"type":"record","name":"r2","fields":[
    {"name":"id","type":"long","field-id":1},
    {"name":"tags","type":["null",{"type":"array","items":"string","element-id":7}],"default":null,"field-id":2},
    {"name":"props","type":{"type":"map","values":"int","key-id":8,"value-id":9},"field-id":3},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true},"field-id":4},
    {"name":"d","type":{"type":"fixed","name":"fixed_9_2","size":5,"logicalType":"decimal","precision":9,"scale":2},"field-id":5},
    {"name":"b","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":6},"field-id":6},
    {"name":"u","type":{"type":"fixed","name":"uuid_fixed","size":16,"logicalType":"uuid"},"field-id":10},
    {"name":"day","type":{"type":"int","logicalType":"date"},"field-id":11},
    {"name":"n","type":{"type":"long","logicalType":"timestamp-nanos"},"field-id":12},
    {"name":"lt","type":{"type":"long","logicalType":"local-timestamp-millis"},"field-id":13},
    {"name":"wrong","type":{"type":"string","logicalType":"date"},"field-id":14}
  ]})";
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(text));
  const Node& root = schema->root();
  ASSERT_EQ(root.fields.size(), 11u);
  EXPECT_EQ(root.fields[0].field_id, 1);
  EXPECT_EQ(root.fields[1].type->branches[1]->IntAttribute("element-id"), 7);
  EXPECT_EQ(root.fields[1].type->NullBranch(), 0u);
  EXPECT_EQ(root.fields[2].type->IntAttribute("key-id"), 8);
  EXPECT_EQ(root.fields[3].type->logical_type, LogicalType::kTimestampMicros);
  EXPECT_EQ(root.fields[4].type->logical_type, LogicalType::kDecimal);
  EXPECT_EQ(root.fields[4].type->precision, 9);
  EXPECT_EQ(root.fields[4].type->scale, 2);
  EXPECT_EQ(root.fields[5].type->logical_type, LogicalType::kNone);  // scale > precision: ignored
  EXPECT_EQ(root.fields[6].type->logical_type, LogicalType::kUuid);
  EXPECT_EQ(root.fields[7].type->logical_type, LogicalType::kDate);
  EXPECT_EQ(root.fields[8].type->logical_type, LogicalType::kTimestampNanos);
  EXPECT_EQ(root.fields[9].type->logical_type, LogicalType::kLocalTimestampMillis);
  EXPECT_EQ(root.fields[10].type->logical_type, LogicalType::kNone);  // date on a string
  // Every attribute survives writing: the written JSON equals the input.
  FLOE_ASSERT_OK_AND_ASSIGN(Json input, Json::Parse(text));
  EXPECT_EQ(schema->ToJson(), input) << schema->ToString();
}

TEST(SchemaTest, DecimalPrecisionMustFitFixedSize) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto fits,
      Schema::Parse(
          R"({"type":"fixed","name":"f","size":16,"logicalType":"decimal","precision":38})"));
  EXPECT_EQ(fits->root().logical_type, LogicalType::kDecimal);
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto too_big,
      Schema::Parse(
          R"({"type":"fixed","name":"f","size":16,"logicalType":"decimal","precision":39})"));
  EXPECT_EQ(too_big->root().logical_type, LogicalType::kNone);
}

TEST(SchemaTest, WritesNamespaceOnlyWhereItChanges) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(R"({"type":"record","name":"a.R","fields":[
      {"name":"x","type":{"type":"fixed","name":"F","size":2}},
      {"name":"y","type":{"type":"fixed","name":"b.G","size":2}},
      {"name":"z","type":"F"}]})"));
  EXPECT_EQ(schema->ToString(),
            R"({"type":"record","name":"R","namespace":"a","fields":[)"
            R"({"name":"x","type":{"type":"fixed","name":"F","size":2}},)"
            R"({"name":"y","type":{"type":"fixed","name":"G","namespace":"b","size":2}},)"
            R"({"name":"z","type":"F"}]})");
}

}  // namespace
}  // namespace floe::avro
