#include "floe/util/json.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe {
namespace {

TEST(JsonTest, ParsesAndDumpsInDocumentOrder) {
  FLOE_ASSERT_OK_AND_ASSIGN(Json json,
                            Json::Parse(R"({"b": 1, "a": [true, null, 2.5, "x\"y"], "c": {}})"));
  EXPECT_EQ(json.Dump(), R"({"b":1,"a":[true,null,2.5,"x\"y"],"c":{}})");
}

TEST(JsonTest, KeepsLargeIntegersExact) {
  FLOE_ASSERT_OK_AND_ASSIGN(Json json, Json::Parse(R"({"id": 9223372036854775807})"));
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t id, json.GetInt("id"));
  EXPECT_EQ(id, INT64_MAX);
  EXPECT_EQ(json.Dump(), R"({"id":9223372036854775807})");
}

TEST(JsonTest, EqualityIgnoresMemberOrderButNotArrayOrder) {
  FLOE_ASSERT_OK_AND_ASSIGN(Json a, Json::Parse(R"({"x": [1, 2], "y": 1.0})"));
  FLOE_ASSERT_OK_AND_ASSIGN(Json b, Json::Parse(R"({"y": 1, "x": [1, 2]})"));
  FLOE_ASSERT_OK_AND_ASSIGN(Json c, Json::Parse(R"({"y": 1, "x": [2, 1]})"));
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a == c);
}

TEST(JsonTest, CheckedAccessorsNameTheField) {
  FLOE_ASSERT_OK_AND_ASSIGN(Json json, Json::Parse(R"({"name": 3})"));
  auto name = json.GetString("name");
  ASSERT_FALSE(name.has_value());
  EXPECT_EQ(name.error().kind(), ErrorKind::kCorruptData);
  EXPECT_EQ(name.error().message(), "field 'name' must be a string, not an integer");
  auto missing = json.GetInt("missing");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message(), "missing required field 'missing'");
  FLOE_ASSERT_OK_AND_ASSIGN(auto absent, json.GetOptionalString("other"));
  EXPECT_FALSE(absent.has_value());
}

// One parser for many documents, shorter and longer ones in turn (its buffers are reused).
TEST(JsonTest, ParserParsesDocumentAfterDocument) {
  JsonParser parser;
  const std::string longer = R"({"k": ")" + std::string(5000, 'x') + R"(", "n": [1, 2]})";
  for (int round = 0; round < 3; ++round) {
    FLOE_ASSERT_OK_AND_ASSIGN(Json small, parser.Parse(R"({"a": 1})"));
    EXPECT_EQ(small.Dump(), R"({"a":1})");
    FLOE_ASSERT_OK_AND_ASSIGN(Json large, parser.Parse(longer));
    EXPECT_EQ(large.Find("k")->as_string().size(), 5000u);
  }
  EXPECT_FALSE(parser.Parse("{\"a\": "));
}

TEST(JsonTest, ParserGivesAnObjectsMembersInOrder) {
  JsonParser parser;
  std::vector<std::string> seen;
  FLOE_ASSERT_OK(parser.ForEachMember(R"({"b": 1, "a": [true], "c": "x", "b": null})",
                                      [&](std::string_view key, const Json& value) -> Status {
                                        seen.push_back(std::string(key) + "=" + value.Dump());
                                        return Ok();
                                      }));
  EXPECT_EQ(seen, (std::vector<std::string>{"b=1", "a=[true]", R"(c="x")", "b=null"}));
  auto none = [](std::string_view, const Json&) -> Status { return Ok(); };
  Status array = parser.ForEachMember("[1]", none);
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().kind(), ErrorKind::kInvalidArgument);
  Status broken = parser.ForEachMember("{\"a\"", none);
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind(), ErrorKind::kCorruptData);
  // The callback's error stops the walk.
  int calls = 0;
  Status stopped = parser.ForEachMember(R"({"a": 1, "b": 2})", [&](std::string_view, const Json&) {
    ++calls;
    return Status(InvalidArgument("no"));
  });
  EXPECT_FALSE(stopped);
  EXPECT_EQ(calls, 1);
}

TEST(JsonTest, RejectsMalformedText) {
  auto result = Json::Parse(R"({"a": )");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kCorruptData);
}

TEST(JsonTest, EscapesControlCharacters) {
  std::string out;
  AppendJsonString(out, std::string("a\x01\n", 3));
  EXPECT_EQ(out, R"("a\u0001\n")");
}

}  // namespace
}  // namespace floe
