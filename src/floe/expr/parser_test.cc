#include "floe/expr/parser.h"

#include <gtest/gtest.h>

#include <string>

namespace floe::expr {
namespace {

std::string P(std::string_view text) {
  auto e = ParseFilter(text);
  EXPECT_TRUE(e.has_value()) << text << ": " << e.error().ToString();
  return e ? (*e)->ToString() : "";
}

std::string Err(std::string_view text) {
  auto e = ParseFilter(text);
  EXPECT_FALSE(e.has_value()) << text;
  return e ? "" : e.error().message();
}

TEST(ParserTest, Comparisons) {
  EXPECT_EQ(P("id > 5 and category = 'a'"), "(id > 5 and category = 'a')");
  EXPECT_EQ(P("id >= -5"), "id >= -5");
  EXPECT_EQ(P("id<=5"), "id <= 5");
  EXPECT_EQ(P("id <> 5"), "id != 5");
  EXPECT_EQ(P("id != 5"), "id != 5");
  EXPECT_EQ(P("id == 5"), "id = 5");
  EXPECT_EQ(P("5 < id"), "id > 5");
  EXPECT_EQ(P("price = 12.50"), "price = 12.50");
  EXPECT_EQ(P("x = 1e3"), "x = 1000");
  EXPECT_EQ(P("loc.lat < 1"), "loc.lat < 1");
  EXPECT_EQ(P("\"my col\" = 'it''s'"), "my col = 'it's'");
  EXPECT_EQ(P("flag = true"), "flag = true");
}

TEST(ParserTest, TestsSetsPrefixesAndLogic) {
  EXPECT_EQ(P("a IS NULL or b is not null"), "(a is null or b is not null)");
  EXPECT_EQ(P("d is nan and not (d IS NOT NaN)"), "(d is nan and not(d is not nan))");
  EXPECT_EQ(P("c in ('a', 'b')"), "c in ('a', 'b')");
  EXPECT_EQ(P("c NOT IN (1,2,3)"), "c not in (1, 2, 3)");
  EXPECT_EQ(P("c like 'ab%'"), "c starts_with 'ab'");
  EXPECT_EQ(P("c not like 'ab%'"), "c not_starts_with 'ab'");
  EXPECT_EQ(P("a = 1 or b = 2 and c = 3"), "(a = 1 or (b = 2 and c = 3))");
  EXPECT_EQ(P("(a = 1 or b = 2) and c = 3"), "((a = 1 or b = 2) and c = 3)");
  EXPECT_EQ(P("true and a = 1"), "a = 1");
  EXPECT_EQ(P("not false"), "true");
}

TEST(ParserTest, ErrorsSayWhereAndWhat) {
  EXPECT_NE(Err("id >").find("at the end"), std::string::npos);
  EXPECT_NE(Err("id > 5 5").find("offset 7"), std::string::npos);
  EXPECT_NE(Err("id = 'abc").find("unterminated"), std::string::npos);
  EXPECT_NE(Err("(id = 1").find("')'"), std::string::npos);
  EXPECT_NE(Err("c like 'a%b'").find("LIKE"), std::string::npos);
  EXPECT_NE(Err("id ~ 1").find("'~'"), std::string::npos);
  Err("id in ()");
  Err("id is 5");
  Err("and = 1");
  Err("");
  Err("id = 99999999999999999999");
  EXPECT_NE(Err(std::string(5000, '(') + "a = 1" + std::string(5000, ')')).find("deep"),
            std::string::npos);
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_NE(Err(nots + "a = 1").find("deep"), std::string::npos);
}

}  // namespace
}  // namespace floe::expr
