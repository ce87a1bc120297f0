#include "floe/sql/syntax/parser.h"

#include <fmt/format.h>

#include <charconv>

#include "floe/sql/syntax/parser_internal.h"

namespace floe::sql {
namespace parser_internal {

Result<Statement> Parser::StatementToEnd() {
  FLOE_ASSIGN_OR_RETURN(Statement statement, ParseStatement());
  AcceptSymbol(";");
  FLOE_RETURN_IF_ERROR(ExpectEnd("end of statement"));
  return statement;
}

Result<SqlType> Parser::TypeToEnd() {
  FLOE_ASSIGN_OR_RETURN(SqlType type, ParseType());
  FLOE_RETURN_IF_ERROR(ExpectEnd("type"));
  return type;
}

Result<ExprPtr> Parser::ExprToEnd() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr expr, ParseExpr());
  FLOE_RETURN_IF_ERROR(ExpectEnd("expression"));
  return expr;
}

std::string Parser::Found(const Token& token) const {
  // A statement of a script ends at its ';', which the split turned into the end token.
  if (token.kind == TokenKind::kEnd) return token.text == ";" ? "';'" : "end of input";
  std::string_view raw = source_.substr(token.offset, token.length);
  if (raw.size() > 40) return fmt::format("'{}...'", raw.substr(0, 40));
  return fmt::format("'{}'", raw);
}

std::unexpected<Error> Parser::ErrorAt(const Token& token, std::string_view message) const {
  return InvalidArgument("{}", AtPosition(token.position, message));
}

std::unexpected<Error> Parser::Expected(std::string_view what, std::string_view context) const {
  std::string separator = context.empty() ? "" : " ";
  return ErrorAt(Peek(),
                 fmt::format("expected {}{}{}, found {}", what, separator, context, Found(Peek())));
}

Status Parser::ExpectSymbol(std::string_view symbol, std::string_view context) {
  if (AcceptSymbol(symbol)) return Ok();
  return Expected(fmt::format("'{}'", symbol), context);
}

Status Parser::ExpectEnd(std::string_view context) {
  if (Peek().kind == TokenKind::kEnd) return Ok();
  return ErrorAt(Peek(), fmt::format("unexpected {} after {}", Found(Peek()), context));
}

Result<std::string> Parser::ParseIdentifier(std::string_view what) {
  if (!PeekIdentifier()) return Expected(what, "");
  return Next().text;
}

Result<ObjectName> Parser::ParseObjectName(std::string_view what) {
  ObjectName name;
  do {
    if (!PeekIdentifier()) return Expected(what, "");
    name.parts.push_back(Next().text);
  } while (AcceptSymbol("."));
  return name;
}

Result<std::string> Parser::ParseString(std::string_view what, std::string_view context) {
  if (Peek().kind != TokenKind::kString) return Expected(what, context);
  return Next().text;
}

Result<int64_t> Parser::ParseInteger(std::string_view what, std::string_view context) {
  if (Peek().kind != TokenKind::kInteger) return Expected(what, context);
  const Token& token = Next();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(token.text.data(), token.text.data() + token.text.size(), value);
  if (ec != std::errc() || end != token.text.data() + token.text.size()) {
    return ErrorAt(token, fmt::format("{} {} is out of range", what, token.text));
  }
  return value;
}

Result<Options> Parser::ParseOptions(std::string_view context) {
  FLOE_RETURN_IF_ERROR(ExpectSymbol("(", fmt::format("to open {}", context)));
  Options options;
  do {
    FLOE_ASSIGN_OR_RETURN(std::string key,
                          ParseString("option key string", fmt::format("in {}", context)));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("=", fmt::format("after option key '{}'", key)));
    FLOE_ASSIGN_OR_RETURN(std::string value,
                          ParseString("option value string", fmt::format("for option '{}'", key)));
    options.emplace_back(std::move(key), std::move(value));
  } while (AcceptSymbol(","));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}", context)));
  return options;
}

Result<std::vector<std::string>> Parser::ParseNameList(std::string_view what,
                                                       std::string_view context) {
  FLOE_RETURN_IF_ERROR(ExpectSymbol("(", fmt::format("to open {}", context)));
  std::vector<std::string> names;
  do {
    FLOE_ASSIGN_OR_RETURN(std::string name, ParseIdentifier(what));
    names.push_back(std::move(name));
  } while (AcceptSymbol(","));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("after {}", context)));
  return names;
}

}  // namespace parser_internal

namespace {

using parser_internal::Parser;

// The token runs between ';' at the top level of a script, each closed by an end token.
std::vector<std::vector<Token>> SplitTokens(std::vector<Token> tokens) {
  std::vector<std::vector<Token>> statements;
  std::vector<Token> current;
  for (Token& token : tokens) {
    bool is_end = token.kind == TokenKind::kEnd;
    if (is_end || (token.kind == TokenKind::kSymbol && token.text == ";")) {
      if (!current.empty()) {
        Token end = token;
        end.kind = TokenKind::kEnd;
        current.push_back(std::move(end));
        statements.push_back(std::move(current));
        current.clear();
      }
      continue;
    }
    current.push_back(std::move(token));
  }
  return statements;
}

}  // namespace

Result<Statement> ParseStatement(std::string_view sql) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(sql));
  return Parser(sql, std::move(tokens)).StatementToEnd();
}

Result<std::vector<Statement>> ParseScript(std::string_view script) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(script));
  std::vector<Statement> statements;
  for (std::vector<Token>& piece : SplitTokens(std::move(tokens))) {
    FLOE_ASSIGN_OR_RETURN(Statement statement, Parser(script, std::move(piece)).StatementToEnd());
    statements.push_back(std::move(statement));
  }
  return statements;
}

Result<SplitScript> SplitStatements(std::string_view script) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(script));
  SplitScript split;
  bool last_closed = true;
  std::size_t first = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    bool semicolon = token.kind == TokenKind::kSymbol && token.text == ";";
    if (!semicolon && token.kind != TokenKind::kEnd) continue;
    if (i > first) {
      std::size_t begin = tokens[first].offset;
      std::size_t end = tokens[i - 1].offset + tokens[i - 1].length;
      split.pieces.push_back(
          {std::string(script.substr(begin, end - begin)), tokens[first].position});
      last_closed = semicolon;
    }
    first = i + 1;
  }
  split.complete = last_closed;
  return split;
}

Result<SqlType> ParseDataType(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(text, std::move(tokens)).TypeToEnd();
}

Result<ExprPtr> ParseExpression(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  return Parser(text, std::move(tokens)).ExprToEnd();
}

}  // namespace floe::sql
