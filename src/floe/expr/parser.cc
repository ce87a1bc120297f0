#include "floe/expr/parser.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace floe::expr {

namespace {

constexpr int kMaxDepth = 100;

enum class Tok : unsigned char {
  kEnd,
  kIdent,
  kQuotedIdent,
  kString,
  kNumber,
  kOp,
  kLParen,
  kRParen,
  kComma
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  size_t offset = 0;
};

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

Result<std::vector<Token>> Lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.offset = i;
    if (c == '(' || c == ')' || c == ',') {
      t.kind = c == '(' ? Tok::kLParen : c == ')' ? Tok::kRParen : Tok::kComma;
      t.text = std::string(1, c);
      ++i;
    } else if (c == '\'' || c == '"' || c == '`') {
      t.kind = c == '\'' ? Tok::kString : Tok::kQuotedIdent;
      ++i;
      bool closed = false;
      while (i < s.size()) {
        if (s[i] == c) {
          if (i + 1 < s.size() && s[i + 1] == c) {
            t.text += c;
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        t.text += s[i++];
      }
      if (!closed) return InvalidArgument("filter: unterminated quote at offset {}", t.offset);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      t.kind = Tok::kNumber;
      while (i < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
              ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
        t.text += s[i++];
      }
    } else if (IsIdentStart(c)) {
      t.kind = Tok::kIdent;
      while (i < s.size() && IsIdentChar(s[i])) t.text += s[i++];
    } else if (c == '<' || c == '>' || c == '=' || c == '!') {
      t.kind = Tok::kOp;
      t.text = std::string(1, c);
      ++i;
      if (i < s.size() && (s[i] == '=' || (c == '<' && s[i] == '>'))) t.text += s[i++];
      if (t.text == "!") return InvalidArgument("filter: '!' at offset {} must be '!='", t.offset);
    } else if (c == '-' || c == '+') {
      t.kind = Tok::kOp;
      t.text = std::string(1, c);
      ++i;
    } else {
      return InvalidArgument("filter: unexpected character '{}' at offset {}", c, i);
    }
    out.push_back(std::move(t));
  }
  out.push_back(Token{Tok::kEnd, "", s.size()});
  return out;
}

bool Keyword(const Token& t, std::string_view word) {
  if (t.kind != Tok::kIdent || t.text.size() != word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(t.text[i])) != word[i]) return false;
  }
  return true;
}

bool IsReserved(const Token& t) {
  for (std::string_view w :
       {"AND", "OR", "NOT", "IS", "IN", "LIKE", "NULL", "NAN", "TRUE", "FALSE"}) {
    if (Keyword(t, w)) return true;
  }
  return false;
}

Result<Literal> NumberLiteral(const std::string& text, bool negative, size_t offset) {
  std::string full = (negative ? "-" : "") + text;
  bool fractional = text.find('.') != std::string::npos;
  bool exponent = text.find_first_of("eE") != std::string::npos;
  if (exponent) {
    char* end = nullptr;
    double v = std::strtod(full.c_str(), &end);
    if (end != full.c_str() + full.size()) {
      return InvalidArgument("filter: bad number '{}' at offset {}", text, offset);
    }
    return Literal::Double(v);
  }
  if (!fractional) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(full.data(), full.data() + full.size(), v);
    if (ec != std::errc() || ptr != full.data() + full.size()) {
      return InvalidArgument("filter: bad or too large integer '{}' at offset {}", text, offset);
    }
    return Literal::Long(v);
  }
  size_t dot = text.find('.');
  if (text.find('.', dot + 1) != std::string::npos) {
    return InvalidArgument("filter: bad number '{}' at offset {}", text, offset);
  }
  int128_t unscaled = 0;
  int digits = 0;
  for (char c : text) {
    if (c == '.') continue;
    if (c < '0' || c > '9') {
      return InvalidArgument("filter: bad number '{}' at offset {}", text, offset);
    }
    if (unscaled != 0 || c != '0') ++digits;
    if (digits > 38) return InvalidArgument("filter: number '{}' has too many digits", text);
    unscaled = unscaled * 10 + (c - '0');
  }
  int scale = static_cast<int>(text.size() - dot - 1);
  if (scale > 38) return InvalidArgument("filter: number '{}' has too many digits", text);
  return Literal::Decimal(negative ? -unscaled : unscaled, 38, scale);
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Result<ExprPtr> Parse() {
    FLOE_ASSIGN_OR_RETURN(auto e, ParseOr(0));
    if (Peek().kind != Tok::kEnd) return Expected("AND, OR or the end");
    return e;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < t_.size() ? t_[i] : t_.back();
  }
  const Token& Next() {
    const Token& t = Peek();
    if (pos_ < t_.size() - 1) ++pos_;
    return t;
  }
  std::unexpected<Error> Expected(std::string_view what) const {
    const Token& t = Peek();
    if (t.kind == Tok::kEnd) return InvalidArgument("filter: expected {} at the end", what);
    return InvalidArgument("filter: expected {} at offset {}, found '{}'", what, t.offset, t.text);
  }

  Result<ExprPtr> ParseOr(int depth) {
    FLOE_ASSIGN_OR_RETURN(auto left, ParseAnd(depth));
    while (Keyword(Peek(), "OR")) {
      Next();
      FLOE_ASSIGN_OR_RETURN(auto right, ParseAnd(depth));
      left = Or(left, right);
    }
    return left;
  }

  Result<ExprPtr> ParseAnd(int depth) {
    FLOE_ASSIGN_OR_RETURN(auto left, ParseNot(depth));
    while (Keyword(Peek(), "AND")) {
      Next();
      FLOE_ASSIGN_OR_RETURN(auto right, ParseNot(depth));
      left = And(left, right);
    }
    return left;
  }

  Result<ExprPtr> ParseNot(int depth) {
    if (depth > kMaxDepth) return InvalidArgument("filter: nested more than {} deep", kMaxDepth);
    if (Keyword(Peek(), "NOT")) {
      Next();
      FLOE_ASSIGN_OR_RETURN(auto inner, ParseNot(depth + 1));
      return Not(inner);
    }
    return ParsePrimary(depth);
  }

  Result<ExprPtr> ParsePrimary(int depth) {
    const Token& t = Peek();
    if (t.kind == Tok::kLParen) {
      Next();
      FLOE_ASSIGN_OR_RETURN(auto inner, ParseOr(depth + 1));
      if (Peek().kind != Tok::kRParen) return Expected("')'");
      Next();
      return inner;
    }
    if (Keyword(t, "TRUE") && !IsComparison(Peek(1))) {
      Next();
      return True();
    }
    if (Keyword(t, "FALSE") && !IsComparison(Peek(1))) {
      Next();
      return False();
    }
    if (t.kind == Tok::kNumber || t.kind == Tok::kString || IsSign(t) || Keyword(t, "TRUE") ||
        Keyword(t, "FALSE")) {
      // literal op column
      FLOE_ASSIGN_OR_RETURN(auto value, ParseLiteral());
      if (!IsComparison(Peek())) return Expected("a comparison operator");
      Op op = ComparisonOp(Next().text);
      FLOE_ASSIGN_OR_RETURN(auto column, ParseColumn());
      return Predicate(FlipOp(op), std::move(column), {std::move(value)});
    }
    FLOE_ASSIGN_OR_RETURN(auto column, ParseColumn());
    return ParsePredicate(std::move(column));
  }

  static bool IsComparison(const Token& t) { return t.kind == Tok::kOp && !IsSign(t); }
  static bool IsSign(const Token& t) {
    return t.kind == Tok::kOp && (t.text == "-" || t.text == "+");
  }
  static Op ComparisonOp(const std::string& op) {
    if (op == "<") return Op::kLt;
    if (op == "<=") return Op::kLtEq;
    if (op == ">") return Op::kGt;
    if (op == ">=") return Op::kGtEq;
    if (op == "!=" || op == "<>") return Op::kNotEq;
    return Op::kEq;  // "=" and "=="
  }

  Result<std::string> ParseColumn() {
    const Token& t = Peek();
    if (t.kind == Tok::kQuotedIdent) {
      if (t.text.empty()) return Expected("a column name");
      return Next().text;
    }
    if (t.kind != Tok::kIdent || IsReserved(t)) return Expected("a column name");
    if (t.text.back() == '.' || t.text.find("..") != std::string::npos) {
      return InvalidArgument("filter: bad column name '{}' at offset {}", t.text, t.offset);
    }
    return Next().text;
  }

  Result<Literal> ParseLiteral() {
    const Token& t = Peek();
    if (t.kind == Tok::kString) return Literal::String(Next().text);
    if (Keyword(t, "TRUE") || Keyword(t, "FALSE")) return Literal::Boolean(Keyword(Next(), "TRUE"));
    bool negative = false;
    if (IsSign(t)) negative = Next().text == "-";
    if (Peek().kind != Tok::kNumber) return Expected("a number");
    const Token& n = Next();
    return NumberLiteral(n.text, negative, n.offset);
  }

  Result<ExprPtr> ParsePredicate(std::string column) {
    if (Keyword(Peek(), "IS")) {
      Next();
      bool negated = false;
      if (Keyword(Peek(), "NOT")) {
        Next();
        negated = true;
      }
      if (Keyword(Peek(), "NULL")) {
        Next();
        return negated ? NotNull(std::move(column)) : IsNull(std::move(column));
      }
      if (Keyword(Peek(), "NAN")) {
        Next();
        return negated ? NotNan(std::move(column)) : IsNan(std::move(column));
      }
      return Expected("NULL or NAN");
    }
    bool negated = false;
    if (Keyword(Peek(), "NOT")) {
      Next();
      negated = true;
      if (!Keyword(Peek(), "IN") && !Keyword(Peek(), "LIKE")) return Expected("IN or LIKE");
    }
    if (Keyword(Peek(), "IN")) {
      Next();
      if (Peek().kind != Tok::kLParen) return Expected("'('");
      Next();
      std::vector<Literal> values;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(auto v, ParseLiteral());
        values.push_back(std::move(v));
        if (Peek().kind == Tok::kComma) {
          Next();
          continue;
        }
        if (Peek().kind == Tok::kRParen) {
          Next();
          break;
        }
        return Expected("',' or ')'");
      }
      return negated ? NotIn(std::move(column), std::move(values))
                     : In(std::move(column), std::move(values));
    }
    if (Keyword(Peek(), "LIKE")) {
      Next();
      if (Peek().kind != Tok::kString) return Expected("a pattern string");
      const Token& p = Next();
      std::string prefix = p.text;
      if (prefix.empty() || prefix.back() != '%' ||
          prefix.find_first_of("%_") != prefix.size() - 1) {
        return InvalidArgument(
            "filter: LIKE pattern '{}' at offset {} must be a prefix followed by one '%'", p.text,
            p.offset);
      }
      prefix.pop_back();
      return negated ? NotStartsWith(std::move(column), std::move(prefix))
                     : StartsWith(std::move(column), std::move(prefix));
    }
    if (!IsComparison(Peek())) return Expected("a comparison, IS, IN or LIKE");
    Op op = ComparisonOp(Next().text);
    FLOE_ASSIGN_OR_RETURN(auto value, ParseLiteral());
    return Predicate(op, std::move(column), {std::move(value)});
  }

  std::vector<Token> t_;
  size_t pos_ = 0;
};

}  // namespace

Result<ExprPtr> ParseFilter(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(auto tokens, Lex(text));
  return Parser(std::move(tokens)).Parse();
}

}  // namespace floe::expr
