#include "floe/spec/schema_json.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/testing/testing.h"

namespace floe {
namespace {

using namespace types;

Json ParseOrDie(std::string_view text) {
  auto json = Json::Parse(text);
  EXPECT_TRUE(json.has_value()) << json.error().ToString();
  return json.value_or(Json());
}

std::string ErrorOf(const Json& json) {
  auto schema = SchemaFromJson(json);
  EXPECT_FALSE(schema.has_value()) << json.Dump();
  return schema ? std::string() : schema.error().message();
}

TEST(SchemaJsonTest, PrimitiveTypeStrings) {
  struct Case {
    std::string_view text;
    std::string expected;  // ToString of the parsed type
  };
  const Case cases[] = {
      {"boolean", "boolean"},
      {"timestamptz_ns", "timestamptz_ns"},
      {"unknown", "unknown"},
      {"variant", "variant"},
      {"decimal(9,2)", "decimal(9, 2)"},
      {"decimal(9, 2)", "decimal(9, 2)"},
      {" decimal ( 38 , 0 ) ", "decimal(38, 0)"},
      {"fixed[16]", "fixed[16]"},
      {"fixed[ 3 ]", "fixed[3]"},
      {"geometry", "geometry"},
      {"geometry(srid:4326)", "geometry(srid:4326)"},
      {"geography(srid:4326, spherical)", "geography(srid:4326, spherical)"},
      {"geography( EPSG:4326 ,karney )", "geography(EPSG:4326, karney)"},
      {"geography(OGC:CRS84)", "geography(OGC:CRS84)"},
      {"LONG", "long"},
  };
  for (const auto& c : cases) {
    auto type = PrimitiveTypeFromString(c.text);
    ASSERT_TRUE(type.has_value()) << c.text << ": " << type.error().ToString();
    EXPECT_EQ((*type)->ToString(), c.expected) << c.text;
  }
  auto geo = PrimitiveTypeFromString("geography(srid:4326, vincenty)");
  ASSERT_TRUE(geo.has_value());
  EXPECT_EQ(static_cast<const PrimitiveType&>(**geo).crs(), "srid:4326");
  EXPECT_EQ(static_cast<const PrimitiveType&>(**geo).algorithm(), "vincenty");
  for (std::string_view bad :
       {"decimal(9)", "decimal(39, 2)", "decimal(a, 2)", "decimal 9,2", "fixed[]", "fixed[-1]",
        "fixed(16)", "geometry()", "geography(srid:4326, flat)", "int32", "", "struct"}) {
    auto type = PrimitiveTypeFromString(bad);
    EXPECT_FALSE(type.has_value()) << bad;
    if (!type) {
      EXPECT_EQ(type.error().kind(), ErrorKind::kCorruptData);
    }
  }
  EXPECT_EQ(PrimitiveTypeFromString("fixed[x]").error().message(),
            "invalid type 'fixed[x]': expected fixed[L]");
}

TEST(SchemaJsonTest, SpecAppendixCExamples) {
  // The struct, list and map examples of the spec's type table, assembled into one schema.
  const Json input = ParseOrDie(R"j({
    "type": "struct", "schema-id": 3, "identifier-field-ids": [1],
    "fields": [
      {"id": 1, "name": "id", "required": true, "type": "uuid",
       "initial-default": "0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb",
       "write-default": "ec5911be-b0a7-458c-8438-c9a3e53cffae"},
      {"id": 2, "name": "data", "required": false,
       "type": {"type": "list", "element-id": 3, "element-required": true, "element": "string"}},
      {"id": 6, "name": "props", "required": false, "doc": "free-form",
       "type": {"type": "map", "key-id": 4, "key": "string", "value-id": 5,
                "value-required": false, "value": "double"}}
    ]})j");
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, SchemaFromJson(input));
  EXPECT_EQ(schema->schema_id(), 3);
  EXPECT_EQ(schema->identifier_field_ids(), std::vector<int32_t>{1});
  const NestedField* id = schema->FindField(1);
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->type->id(), TypeId::kUuid);
  EXPECT_TRUE(id->required);
  EXPECT_EQ(id->initial_default, Json("0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb"));
  EXPECT_EQ(id->write_default, Json("ec5911be-b0a7-458c-8438-c9a3e53cffae"));
  const NestedField* element = schema->FindField("data.element");
  ASSERT_NE(element, nullptr);
  EXPECT_EQ(element->id, 3);
  EXPECT_TRUE(element->required);
  EXPECT_EQ(element->type->id(), TypeId::kString);
  EXPECT_EQ(schema->FindField("props.key")->id, 4);
  EXPECT_FALSE(schema->FindField("props.value")->required);
  EXPECT_EQ(schema->FindField(6)->doc, "free-form");
  EXPECT_EQ(SchemaToJson(*schema), input);
  // Built in code, the same schema writes the same JSON.
  NestedField uuid = Required(1, "id", Uuid());
  uuid.initial_default = Json("0db3e2a8-9d1d-42b9-aa7b-74ebe558dceb");
  uuid.write_default = Json("ec5911be-b0a7-458c-8438-c9a3e53cffae");
  Schema built({uuid, Optional(2, "data", ListType::Make(3, String(), true)),
                Optional(6, "props", MapType::Make(4, String(), 5, Double(), false), "free-form")},
               3, {1});
  EXPECT_EQ(SchemaToJson(built), input);
  EXPECT_TRUE(built.SameSchema(*schema));
}

TEST(SchemaJsonTest, ToleratesUnknownMembersAndMissingSchemaId) {
  FLOE_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, SchemaFromJson(ParseOrDie(R"j({
    "type": "struct", "x-extra": {"a": 1},
    "fields": [{"id": 1, "name": "a", "required": true, "type": "long", "comment": "ignored"}]})j")));
  EXPECT_EQ(schema->schema_id(), 0);
  EXPECT_EQ(schema->fields().size(), 1u);
  EXPECT_EQ(SchemaToJson(*schema).Dump(),
            R"j({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":true,)j"
            R"j("type":"long"}]})j");
}

TEST(SchemaJsonTest, MalformedSchemasNameTheField) {
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"schema-id": 1, "fields": []})j")),
            "schema 1: missing required field 'type'");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "list", "fields": []})j")),
            "schema: 'type' must be \"struct\", found \"list\"");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "a", "required": true}]})j")),
            "schema: field 1 'a': missing required field 'type'");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "a", "required": "yes", "type": "int"}]})j")),
            "schema: field 1 'a': field 'required' must be a boolean, not a string");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "a", "required": true, "type": "int", "initial-default": "x"}]})j")),
            "schema: field 1 'a': 'initial-default': JSON int value must be a 32-bit integer, got "
            "\"x\"");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "s", "required": true, "type": {"type": "struct", "fields": [
                {"id": 2, "name": "t", "required": true, "type": "decimal(50, 2)"}]}}]})j")),
            "schema: field 1 's': field 2 't': invalid type 'decimal(50, 2)': decimal precision "
            "must be 1 to 38");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "l", "required": true, "type": {"type": "list",
               "element-id": 2, "element-required": true, "element": "strin"}}]})j")),
            "schema: field 1 'l': list element 2: unknown type 'strin'");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "m", "required": true, "type": {"type": "map",
               "key-id": 2, "key": "string", "value-id": 3, "value": "int"}}]})j")),
            "schema: field 1 'm': missing required field 'value-required'");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "g", "required": false, "type": "geometry",
               "write-default": "POINT (1 2)"}]})j")),
            "schema: field 1 'g': 'write-default' must be null for type geometry");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "schema-id": 2, "identifier-field-ids": [9],
              "fields": [{"id": 1, "name": "a", "required": true, "type": "int"}]})j")),
            "schema 2: identifier field 9 is not in the schema");
  EXPECT_EQ(ErrorOf(ParseOrDie(R"j({"type": "struct", "fields": [
              {"id": 1, "name": "a", "required": true, "type": "int"},
              {"id": 1, "name": "b", "required": true, "type": "int"}]})j")),
            "schema: schema has duplicate field id 1");
  EXPECT_FALSE(SchemaFromJson(ParseOrDie(R"j([1, 2])j")).has_value());
  EXPECT_FALSE(SchemaFromJson(ParseOrDie(R"j({"type": "struct", "fields": [7]})j")).has_value());
  EXPECT_FALSE(SchemaFromJson(ParseOrDie(R"j({"type": "struct", "fields": [{"id": 4294967296,
              "name": "a", "required": true, "type": "int"}]})j"))
                   .has_value());
}

TEST(SchemaJsonTest, DeepNestingIsRefused) {
  std::string text;
  for (int i = 0; i < 150; ++i) {
    text += R"j({"type": "list", "element-id": )j" + std::to_string(i) +
            R"j(, "element-required": true, "element": )j";
  }
  text += "\"int\"";
  text += std::string(150, '}');
  auto json = Json::Parse(text);
  ASSERT_TRUE(json.has_value());
  auto type = TypeFromJson(*json);
  ASSERT_FALSE(type.has_value());
  EXPECT_NE(type.error().message().find("nested deeper than"), std::string::npos);
}

// The schema JSON as this library writes it: Java writes no "identifier-field-ids" when empty
// (others write []), and v1 metadata may omit "schema-id", which reads as and writes 0.
Json Normalized(const Json& schema) {
  Json out = schema;
  if (const Json* ids = out.Find("identifier-field-ids");
      ids && ids->is_array() && ids->as_array().empty()) {
    auto& members = out.as_object();
    std::erase_if(members, [](const auto& m) { return m.first == "identifier-field-ids"; });
  }
  if (out.Find("schema-id") == nullptr) out.Set("schema-id", Json(0));
  return out;
}

TEST(SchemaJsonTest, RoundTripsEverySchemaInTheTestData) {
  // Every schema of every table and view metadata file other engines wrote, in the shared test
  // data.
  int schemas = 0;
  int files = 0;
  std::vector<std::string> rejected;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::TestDataDir())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    if (entry.file_size() > (4 << 20)) continue;
    auto json = Json::Parse(testing::ReadFileOrDie(entry.path()));
    if (!json || !json->is_object()) continue;
    std::vector<const Json*> found;
    if (const Json* list = json->Find("schemas"); list && list->is_array()) {
      for (const Json& s : list->as_array()) found.push_back(&s);
    }
    if (const Json* one = json->Find("schema"); one && one->is_object()) found.push_back(one);
    if (found.empty()) continue;
    ++files;
    const std::string name =
        std::filesystem::relative(entry.path(), testing::TestDataDir()).string();
    for (const Json* input : found) {
      auto schema = SchemaFromJson(*input);
      if (!schema) {
        rejected.push_back(name + ": " + schema.error().message());
        continue;
      }
      ++schemas;
      EXPECT_EQ(SchemaToJson(**schema), Normalized(*input))
          << name << "\n  in:  " << input->Dump() << "\n  out: " << SchemaToJson(**schema).Dump();
    }
  }
  EXPECT_GE(files, 200);
  EXPECT_GE(schemas, 400);
  // Only the schema that the Java suite keeps to test a missing "type" is refused (it and its
  // copy in iceberg-cpp's resources).
  for (const auto& r : rejected) {
    EXPECT_NE(r.find("MissingSchemaType"), std::string::npos) << r;
    EXPECT_NE(r.find("missing required field 'type'"), std::string::npos) << r;
  }
  EXPECT_GE(rejected.size(), 1u);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// Every way of breaking one member of one object in `json`: removing it, or giving it a value of
// each other kind. Calls visit(mutated document) for each.
void ForEachMutation(const Json& root, const std::function<void(const Json&)>& visit) {
  const Json replacements[] = {
      Json(), Json(5), Json(-1), Json("x"), Json::MakeArray(), Json::MakeObject(), Json(true)};
  // Paths are sequences of member/element indexes from the root.
  std::function<void(const Json&, std::vector<size_t>&)> walk = [&](const Json& node,
                                                                    std::vector<size_t>& path) {
    auto mutate = [&](const std::function<void(Json&)>& change) {
      Json copy = root;
      Json* target = &copy;
      for (size_t step : path) {
        target =
            target->is_object() ? &target->as_object()[step].second : &target->as_array()[step];
      }
      change(*target);
      visit(copy);
    };
    if (node.is_object()) {
      const auto& members = node.as_object();
      for (size_t i = 0; i < members.size(); ++i) {
        mutate([i](Json& target) {
          target.as_object().erase(target.as_object().begin() + static_cast<std::ptrdiff_t>(i));
        });
        for (const Json& replacement : replacements) {
          mutate([&](Json& target) { target.as_object()[i].second = replacement; });
        }
        path.push_back(i);
        walk(members[i].second, path);
        path.pop_back();
      }
    } else if (node.is_array()) {
      for (size_t i = 0; i < node.as_array().size(); ++i) {
        path.push_back(i);
        walk(node.as_array()[i], path);
        path.pop_back();
      }
    }
  };
  std::vector<size_t> path;
  walk(root, path);
}

TEST(SchemaJsonTest, BrokenSchemasFailCleanly) {
  // Mutations of real schemas: each either fails with a message or parses into a schema that
  // writes and reads back the same.
  const char* files[] = {"iceberg-java/core/src/test/resources/TableMetadataV2Valid.json",
                         "iceberg-java/core/src/test/resources/TableMetadataV3ValidMinimal.json"};
  int failures = 0;
  int successes = 0;
  for (const char* file : files) {
    auto metadata = Json::Parse(testing::ReadFileOrDie(testing::TestDataDir() / file));
    ASSERT_TRUE(metadata.has_value()) << file;
    for (const Json& schema_json : metadata->Find("schemas")->as_array()) {
      ForEachMutation(schema_json, [&](const Json& mutated) {
        auto schema = SchemaFromJson(mutated);
        if (!schema) {
          EXPECT_FALSE(schema.error().message().empty());
          ++failures;
          return;
        }
        ++successes;
        auto again = SchemaFromJson(SchemaToJson(**schema));
        ASSERT_TRUE(again.has_value()) << mutated.Dump();
        EXPECT_TRUE((*again)->SameSchema(**schema)) << mutated.Dump();
      });
    }
  }
  EXPECT_GT(failures, 100);
  EXPECT_GT(successes, 10);  // e.g. a changed doc or a removed optional member
}

}  // namespace
}  // namespace floe
