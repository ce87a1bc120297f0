#include "floe/sql/syntax/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "floe/util/strings.h"

namespace floe::sql {
namespace {

bool IsIdentifierStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

bool IsIdentifierPart(unsigned char c) {
  return IsIdentifierStart(c) || (c >= '0' && c <= '9') || c == '$';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    bool in_hint = false;
    while (true) {
      FLOE_RETURN_IF_ERROR(SkipSpaceAndComments());
      Token token;
      token.position = position_;
      token.offset = offset_;
      if (AtEnd()) {
        if (in_hint) {
          return InvalidArgument("{}", AtPosition(hint_start_, "unterminated hint '/*+'"));
        }
        token.kind = TokenKind::kEnd;
        tokens.push_back(std::move(token));
        return tokens;
      }
      char c = Peek();
      if (!in_hint && c == '/' && Peek(1) == '*' && Peek(2) == '+') {
        Advance(3);
        token.kind = TokenKind::kHintStart;
        token.text = "/*+";
        in_hint = true;
        hint_start_ = token.position;
      } else if (in_hint && c == '*' && Peek(1) == '/') {
        Advance(2);
        token.kind = TokenKind::kHintEnd;
        token.text = "*/";
        in_hint = false;
      } else if (c == '\'') {
        FLOE_RETURN_IF_ERROR(ReadQuoted('\'', "string literal", token.text));
        token.kind = TokenKind::kString;
      } else if (c == '`') {
        FLOE_RETURN_IF_ERROR(ReadQuoted('`', "quoted identifier", token.text));
        if (token.text.empty()) {
          return InvalidArgument("{}", AtPosition(token.position, "empty quoted identifier"));
        }
        token.kind = TokenKind::kQuotedIdentifier;
      } else if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
        FLOE_RETURN_IF_ERROR(ReadNumber(token));
      } else if (IsIdentifierStart(static_cast<unsigned char>(c))) {
        while (!AtEnd() && IsIdentifierPart(static_cast<unsigned char>(Peek()))) Advance(1);
        token.kind = TokenKind::kIdentifier;
        token.text = std::string(source_.substr(token.offset, offset_ - token.offset));
      } else {
        FLOE_RETURN_IF_ERROR(ReadSymbol(token));
      }
      token.length = offset_ - token.offset;
      tokens.push_back(std::move(token));
    }
  }

 private:
  bool AtEnd() const { return offset_ >= source_.size(); }
  char Peek(std::size_t ahead = 0) const {
    return offset_ + ahead < source_.size() ? source_[offset_ + ahead] : '\0';
  }

  // Moves over `count` bytes, keeping line and column (in characters) current.
  void Advance(std::size_t count) {
    for (std::size_t i = 0; i < count && !AtEnd(); ++i) {
      unsigned char c = static_cast<unsigned char>(source_[offset_++]);
      if (c == '\n') {
        ++position_.line;
        position_.column = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++position_.column;
      }
    }
  }

  Status SkipSpaceAndComments() {
    while (!AtEnd()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        Advance(1);
      } else if (c == '-' && Peek(1) == '-') {
        while (!AtEnd() && Peek() != '\n') Advance(1);
      } else if (c == '/' && Peek(1) == '*' && Peek(2) != '+') {
        Position start = position_;
        Advance(2);
        while (!AtEnd() && !(Peek() == '*' && Peek(1) == '/')) Advance(1);
        if (AtEnd()) return InvalidArgument("{}", AtPosition(start, "unterminated comment '/*'"));
        Advance(2);
      } else {
        break;
      }
    }
    return Ok();
  }

  // Reads a `quote`-delimited run in which a doubled quote stands for one.
  Status ReadQuoted(char quote, std::string_view what, std::string& out) {
    Position start = position_;
    Advance(1);
    while (true) {
      if (AtEnd())
        return InvalidArgument("{}", AtPosition(start, fmt::format("unterminated {}", what)));
      char c = Peek();
      if (c == quote) {
        if (Peek(1) == quote) {
          out.push_back(quote);
          Advance(2);
          continue;
        }
        Advance(1);
        return Ok();
      }
      out.push_back(c);
      Advance(1);
    }
  }

  Status ReadNumber(Token& token) {
    token.kind = TokenKind::kInteger;
    while (IsDigit(Peek())) Advance(1);
    if (Peek() == '.') {
      token.kind = TokenKind::kDecimal;
      Advance(1);
      while (IsDigit(Peek())) Advance(1);
    }
    if (Peek() == 'e' || Peek() == 'E') {
      std::size_t digits = (Peek(1) == '+' || Peek(1) == '-') ? 2 : 1;
      if (!IsDigit(Peek(digits))) {
        return InvalidArgument("{}", AtPosition(position_, "exponent without digits"));
      }
      token.kind = TokenKind::kDouble;
      Advance(digits);
      while (IsDigit(Peek())) Advance(1);
    }
    if (IsIdentifierPart(static_cast<unsigned char>(Peek()))) {
      return InvalidArgument(
          "{}", AtPosition(position_, fmt::format("unexpected '{}' after number", Peek())));
    }
    token.text = std::string(source_.substr(token.offset, offset_ - token.offset));
    return Ok();
  }

  Status ReadSymbol(Token& token) {
    static constexpr std::string_view kTwo[] = {"<>", "!=", "<=", ">=", "||", "=>"};
    token.kind = TokenKind::kSymbol;
    for (std::string_view two : kTwo) {
      if (source_.substr(offset_, 2) == two) {
        token.text = std::string(two);
        Advance(2);
        return Ok();
      }
    }
    static constexpr std::string_view kOne = "(),.;=<>+-*/%[]:";
    char c = Peek();
    if (kOne.find(c) == std::string_view::npos) {
      unsigned char u = static_cast<unsigned char>(c);
      std::string shown =
          u >= 0x20 && u < 0x7F ? fmt::format("'{}'", c) : fmt::format("byte 0x{:02x}", u);
      return InvalidArgument("{}",
                             AtPosition(position_, fmt::format("unexpected character {}", shown)));
    }
    token.text = std::string(1, c);
    Advance(1);
    return Ok();
  }

  std::string_view source_;
  std::size_t offset_ = 0;
  Position position_;
  Position hint_start_;
};

}  // namespace

bool IsReservedWord(std::string_view word) {
  static constexpr std::array<std::string_view, 38> kReserved = {
      "ALL",    "AND",   "AS",     "BETWEEN", "BY",        "CASE",  "CROSS", "DISTINCT",
      "ELSE",   "END",   "ESCAPE", "EXCEPT",  "FALSE",     "FROM",  "FULL",  "GROUP",
      "HAVING", "IN",    "INNER",  "IS",      "INTERSECT", "JOIN",  "LEFT",  "LIKE",
      "LIMIT",  "NOT",   "NULL",   "OFFSET",  "ON",        "OR",    "ORDER", "RIGHT",
      "SELECT", "THEN",  "UNION",  "VALUES",  "WHEN",      "WHERE",
  };
  return std::ranges::find(kReserved, AsciiUpper(word)) != kReserved.end();
}

Result<std::vector<Token>> Lex(std::string_view source) { return Lexer(source).Run(); }

std::string AtPosition(Position position, std::string_view message) {
  return fmt::format("line {}, column {}: {}", position.line, position.column, message);
}

}  // namespace floe::sql
