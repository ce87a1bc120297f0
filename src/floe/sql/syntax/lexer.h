#pragma once

// The tokenizer of floe's Flink SQL dialect. It turns statement text into tokens that carry their
// line and column (1-based, columns count characters, not UTF-8 bytes) so that every later error
// can point at the place in the user's text. Comments vanish, except optimizer hints `/*+ ... */`,
// whose delimiters become tokens and whose contents are lexed like the rest. Unterminated strings,
// quoted identifiers or comments and stray characters are errors that name their position.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::sql {

struct Position {
  int line = 1;
  int column = 1;
};

enum class TokenKind : unsigned char {
  kIdentifier,        // a plain word: a name or a keyword (keywords are matched case-insensitively)
  kQuotedIdentifier,  // `...`: always a name, never a keyword; text is unescaped
  kString,            // '...': text is the value, '' unescaped
  kInteger,           // 42
  kDecimal,           // 4.2, .5, 5.
  kDouble,            // 4.2e1, 1E-3
  kSymbol,            // ( ) , . ; = <> != < <= > >= + - * / % || [ ] => :
  kHintStart,         // /*+
  kHintEnd,           // */ closing a hint
  kEnd,               // end of input
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  Position position;
  std::size_t offset = 0;  // byte offset of the token in the source
  std::size_t length = 0;  // byte length of the token as written
};

// All tokens of `source`, ending with one kEnd token.
Result<std::vector<Token>> Lex(std::string_view source);

// True for the words that end an expression or a FROM item (FROM, WHERE, JOIN, AS...), which can
// therefore never be a bare alias or name; any case.
bool IsReservedWord(std::string_view word);

// "line 3, column 14: <message>", the prefix every SQL error uses.
std::string AtPosition(Position position, std::string_view message);

}  // namespace floe::sql
