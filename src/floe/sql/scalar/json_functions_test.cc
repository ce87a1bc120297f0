// JSON_EXISTS, JSON_VALUE and JSON_QUERY against DuckDB's JSON functions over documents built
// from the sample rows, and the defaults of Flink's ON EMPTY / ON ERROR clauses.

#include <gtest/gtest.h>

#include "floe/sql/scalar/peer_check_test_support.h"

namespace floe::sql::scalar {
namespace {

using testing::EvalOne;
using testing::ExpectSameAsDuckDb;

TEST(JsonFunctionsTest, LikeDuckDb) {
  // {"k": "<s>", "n": [<i>, <x>], "o": {"j": <j>}}
  const std::string floe_doc =
      "CONCAT('{\"k\": \"', s, '\", \"n\": [', CAST(i AS STRING), ', 2.5], \"o\": {\"j\": ', "
      "COALESCE(CAST(j AS STRING), 'null'), '}}')";
  const std::string duck_doc =
      "'{\"k\": \"' || s || '\", \"n\": [' || CAST(i AS VARCHAR) || ', 2.5], \"o\": {\"j\": ' || "
      "COALESCE(CAST(j AS VARCHAR), 'null') || '}}'";
  auto both = [&](std::string floe_call, std::string duck_call) {
    const auto put = [](std::string text, const std::string& doc) {
      return text.replace(text.find("DOC"), 3, doc);
    };
    return testing::PeerCase{put(std::move(floe_call), floe_doc),
                             put(std::move(duck_call), duck_doc)};
  };
  ExpectSameAsDuckDb({
      both("JSON_VALUE(DOC, '$.k')", "json_extract_string(DOC, '$.k')"),
      both("JSON_VALUE(DOC, 'lax $.n[0]')", "json_extract_string(DOC, '$.n[0]')"),
      both("JSON_VALUE(DOC, '$.n[1]')", "json_extract_string(DOC, '$.n[1]')"),
      both("JSON_VALUE(DOC, '$.o.j')", "json_extract_string(DOC, '$.o.j')"),
      both("JSON_QUERY(DOC, '$.o')", "json_extract(DOC, '$.o')"),
      both("JSON_QUERY(DOC, '$.n')", "json_extract(DOC, '$.n')"),
      both("JSON_EXISTS(DOC, '$.o.j')", "json_exists(DOC, '$.o.j')"),
      both("JSON_EXISTS(DOC, '$.o.x')", "json_exists(DOC, '$.o.x')"),
  });
}

TEST(JsonFunctionsTest, FlinkDefaults) {
  // Flink docs: JSON_EXISTS('{"a": true}', '$.a') is TRUE, '$.b' FALSE, '$.a[0]' FALSE in lax
  // mode; 'strict $.b' is an error, FALSE ON ERROR by default.
  EXPECT_EQ(EvalOne("JSON_EXISTS('{\"a\": true}', '$.a')"), "true");
  EXPECT_EQ(EvalOne("JSON_EXISTS('{\"a\": true}', '$.b')"), "false");
  EXPECT_EQ(EvalOne("JSON_EXISTS('{\"a\": [{\"b\": 1}]}', '$.a[0].b')"), "true");
  EXPECT_EQ(EvalOne("JSON_EXISTS('{\"a\": [{\"b\": 1}]}', 'lax $.a[1]')"), "false");
  EXPECT_EQ(EvalOne("JSON_EXISTS('{\"a\": true}', 'strict $.b')"), "false");
  EXPECT_EQ(EvalOne("JSON_EXISTS('not json', '$.a')"), "false");
  EXPECT_EQ(EvalOne("JSON_EXISTS(NULL, '$.a')"), "NULL");
  // JSON_VALUE: a scalar as text; NULL for a container (NULL ON ERROR), a missing path (NULL ON
  // EMPTY) and bad JSON.
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a\": true}', '$.a')"), "true");
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a\": {\"b\": 7}}', '$.a.b')"), "7");
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a b\": \"x\"}', '$.\"a b\"')"), "x");
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a\": [1, 2]}', '$.a')"), "NULL");
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a\": null}', '$.a')"), "NULL");
  EXPECT_EQ(EvalOne("JSON_VALUE('{\"a\": 1}', '$.b')"), "NULL");
  EXPECT_EQ(EvalOne("JSON_VALUE('[1', '$[0]')"), "NULL");
  // JSON_QUERY: a container as JSON text; a scalar is NULL without a wrapper; [*] selects each
  // element, and more than one value is NULL ON ERROR.
  EXPECT_EQ(EvalOne("JSON_QUERY('{\"a\": {\"b\": [1, \"x\"]}}', '$.a')"), "{\"b\":[1,\"x\"]}");
  EXPECT_EQ(EvalOne("JSON_QUERY('{\"a\": 1}', '$.a')"), "NULL");
  EXPECT_EQ(EvalOne("JSON_QUERY('[[1], [2]]', '$[*]')"), "NULL");
  EXPECT_EQ(EvalOne("JSON_QUERY('[[1], [2]]', '$[1]')"), "[2]");
  EXPECT_EQ(EvalOne("JSON_VALUE('{}', 'a')"),
            "BIND ERROR: line 1, column 1: JSON_VALUE: invalid JSON path 'a': a JSON path starts "
            "with '$'");
  EXPECT_EQ(EvalOne("JSON_VALUE('{}', '$[x]')"),
            "BIND ERROR: line 1, column 1: JSON_VALUE: invalid JSON path '$[x]': an array index, "
            "not 'x'");
}

}  // namespace
}  // namespace floe::sql::scalar
