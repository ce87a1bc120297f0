#include "floe/sql/syntax/lexer.h"

#include <gtest/gtest.h>

namespace floe::sql {
namespace {

std::vector<Token> LexOk(std::string_view source) {
  auto tokens = Lex(source);
  EXPECT_TRUE(tokens.has_value()) << tokens.error().ToString();
  return tokens.value_or(std::vector<Token>{});
}

std::string LexError(std::string_view source) {
  auto tokens = Lex(source);
  EXPECT_FALSE(tokens.has_value());
  return tokens ? "" : tokens.error().message();
}

TEST(LexerTest, KindsTextAndPositions) {
  std::vector<Token> tokens = LexOk("SELECT `a``b`, 'it''s'\n  FROM t$snapshots -- done\n;");
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kIdentifier);
  EXPECT_EQ(tokens[0].text, "SELECT");
  EXPECT_EQ(tokens[1].kind, TokenKind::kQuotedIdentifier);
  EXPECT_EQ(tokens[1].text, "a`b");
  EXPECT_EQ(tokens[1].position.column, 8);
  EXPECT_EQ(tokens[1].length, 6u);
  EXPECT_EQ(tokens[2].text, ",");
  EXPECT_EQ(tokens[3].kind, TokenKind::kString);
  EXPECT_EQ(tokens[3].text, "it's");
  EXPECT_EQ(tokens[4].text, "FROM");
  EXPECT_EQ(tokens[4].position.line, 2);
  EXPECT_EQ(tokens[4].position.column, 3);
  EXPECT_EQ(tokens[5].text, "t$snapshots");
  EXPECT_EQ(tokens[6].text, ";");
  EXPECT_EQ(tokens[6].position.line, 3);
  EXPECT_EQ(tokens[7].kind, TokenKind::kEnd);
}

TEST(LexerTest, Numbers) {
  std::vector<Token> tokens = LexOk("42 4.2 .5 5. 1e3 2.5E-2 7e+1");
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kInteger);
  EXPECT_EQ(tokens[1].kind, TokenKind::kDecimal);
  EXPECT_EQ(tokens[2].kind, TokenKind::kDecimal);
  EXPECT_EQ(tokens[2].text, ".5");
  EXPECT_EQ(tokens[3].kind, TokenKind::kDecimal);
  EXPECT_EQ(tokens[4].kind, TokenKind::kDouble);
  EXPECT_EQ(tokens[5].kind, TokenKind::kDouble);
  EXPECT_EQ(tokens[5].text, "2.5E-2");
  EXPECT_EQ(tokens[6].kind, TokenKind::kDouble);
  EXPECT_EQ(LexError("1e"), "line 1, column 2: exponent without digits");
  EXPECT_EQ(LexError("12abc"), "line 1, column 3: unexpected 'a' after number");
}

TEST(LexerTest, Operators) {
  std::vector<Token> tokens = LexOk("<> != <= >= || => < > = + - * / % ( ) [ ] : . ,");
  std::vector<std::string> texts;
  for (const Token& token : tokens) {
    if (token.kind == TokenKind::kSymbol) texts.push_back(token.text);
  }
  EXPECT_EQ(texts,
            (std::vector<std::string>{"<>", "!=", "<=", ">=", "||", "=>", "<", ">", "=", "+", "-",
                                      "*",  "/",  "%",  "(",  ")",  "[",  "]", ":", ".", ","}));
  // No '>>' token, so that nested ARRAY<ARRAY<INT>> closes twice.
  tokens = LexOk(">>");
  EXPECT_EQ(tokens.size(), 3u);
}

TEST(LexerTest, CommentsAndHints) {
  std::vector<Token> tokens = LexOk("a /* x\n y */ b -- c\nd /*+ OPTIONS('k'='v') */ e");
  std::vector<std::string> texts;
  for (const Token& token : tokens) texts.push_back(token.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "b", "d", "/*+", "OPTIONS", "(", "k", "=", "v",
                                             ")", "*/", "e", ""}));
  EXPECT_EQ(tokens[1].position.line, 2);
  EXPECT_EQ(tokens[1].position.column, 7);
  EXPECT_EQ(tokens[3].kind, TokenKind::kHintStart);
  EXPECT_EQ(tokens[10].kind, TokenKind::kHintEnd);
  // Outside a hint, */ is two operators.
  tokens = LexOk("a */ b");
  EXPECT_EQ(tokens[1].text, "*");
  EXPECT_EQ(tokens[2].text, "/");
  // A hint with no space before */ (as the connector documentation writes it).
  tokens = LexOk("/*+ OPTIONS('a'='1')*/");
  EXPECT_EQ(tokens[tokens.size() - 2].kind, TokenKind::kHintEnd);
}

TEST(LexerTest, ColumnsCountCharactersNotBytes) {
  std::vector<Token> tokens = LexOk("'héllo' x");
  EXPECT_EQ(tokens[0].text, "héllo");
  EXPECT_EQ(tokens[1].position.column, 9);
  tokens = LexOk("`naïve` y");
  EXPECT_EQ(tokens[0].text, "naïve");
  EXPECT_EQ(tokens[1].position.column, 9);
}

TEST(LexerTest, Errors) {
  EXPECT_EQ(LexError("SELECT 'abc"), "line 1, column 8: unterminated string literal");
  EXPECT_EQ(LexError("x\n  `abc"), "line 2, column 3: unterminated quoted identifier");
  EXPECT_EQ(LexError("a /* b"), "line 1, column 3: unterminated comment '/*'");
  EXPECT_EQ(LexError("a /*+ OPTIONS"), "line 1, column 3: unterminated hint '/*+'");
  EXPECT_EQ(LexError("a\n b # c"), "line 2, column 4: unexpected character '#'");
  EXPECT_EQ(LexError("a \x01"), "line 1, column 3: unexpected character byte 0x01");
  EXPECT_EQ(LexError("``"), "line 1, column 1: empty quoted identifier");
}

TEST(LexerTest, EmptyAndCommentOnlyInput) {
  EXPECT_EQ(LexOk("").size(), 1u);
  EXPECT_EQ(LexOk("  -- only a comment").size(), 1u);
  EXPECT_EQ(LexOk("/* c */").size(), 1u);
}

}  // namespace
}  // namespace floe::sql
