#pragma once

// The parser's internals, shared by the files that parse each part of the language: the token
// cursor (peek, accept, expect, errors that name the line and column) and the declarations of
// the recursive-descent methods, defined by what they parse:
//   parser.cc             entry points, names, literals and option lists
//   parser_statements.cc  statements: DDL, SET/RESET, INSERT, CALL, SHOW, EXPLAIN
//   parser_queries.cc     SELECT, VALUES, set operations, FROM items and joins
//   parser_expressions.cc expressions, from OR down to literals, calls, CASE and INTERVAL
//   parser_over.cc        a call's OVER clause: PARTITION BY, ORDER BY and the frame
//   parser_types.cc       data types
// Only those files include it; everyone else uses parser.h.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/sql/syntax/ast.h"
#include "floe/sql/syntax/lexer.h"
#include "floe/util/error.h"
#include "floe/util/strings.h"

namespace floe::sql::parser_internal {

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens)
      : source_(source), tokens_(std::move(tokens)) {}

  // The whole token run as one statement (a trailing ';' allowed), one type or one expression.
  Result<Statement> StatementToEnd();
  Result<SqlType> TypeToEnd();
  Result<ExprPtr> ExprToEnd();

 private:
  // ---- the token cursor (the longer helpers are in parser.cc) ----
  const Token& Peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Next() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  static bool IsKeyword(const Token& token, std::string_view word) {
    return token.kind == TokenKind::kIdentifier && EqualsIgnoreCase(token.text, word);
  }
  bool PeekKeyword(std::string_view word, std::size_t ahead = 0) const {
    return IsKeyword(Peek(ahead), word);
  }
  bool AcceptKeyword(std::string_view word) {
    if (!PeekKeyword(word)) return false;
    Next();
    return true;
  }
  bool AcceptKeywords(std::initializer_list<std::string_view> words) {
    std::size_t i = 0;
    for (std::string_view word : words) {
      if (!PeekKeyword(word, i++)) return false;
    }
    pos_ += words.size();
    return true;
  }
  bool PeekSymbol(std::string_view symbol, std::size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kSymbol && Peek(ahead).text == symbol;
  }
  bool AcceptSymbol(std::string_view symbol) {
    if (!PeekSymbol(symbol)) return false;
    Next();
    return true;
  }

  // The token as an error message shows it: quoted source text, or "end of input".
  std::string Found(const Token& token) const;
  std::unexpected<Error> ErrorAt(const Token& token, std::string_view message) const;
  // "expected <what> <context>, found <next token>" at the next token.
  std::unexpected<Error> Expected(std::string_view what, std::string_view context) const;
  Status ExpectKeyword(std::string_view word, std::string_view context) {
    if (AcceptKeyword(word)) return Ok();
    return Expected(word, context);
  }
  Status ExpectSymbol(std::string_view symbol, std::string_view context);
  Status ExpectEnd(std::string_view context);

  // ---- names and literals (parser.cc) ----
  bool PeekIdentifier(std::size_t ahead = 0) const {
    const Token& token = Peek(ahead);
    return token.kind == TokenKind::kQuotedIdentifier ||
           (token.kind == TokenKind::kIdentifier && !IsReservedWord(token.text));
  }
  Result<std::string> ParseIdentifier(std::string_view what);
  Result<ObjectName> ParseObjectName(std::string_view what);
  Result<std::string> ParseString(std::string_view what, std::string_view context);
  Result<int64_t> ParseInteger(std::string_view what, std::string_view context);
  // ('k' = 'v', ...)
  Result<Options> ParseOptions(std::string_view context);
  Result<std::vector<std::string>> ParseNameList(std::string_view what, std::string_view context);
  bool AcceptIfExists() { return AcceptKeywords({"IF", "EXISTS"}); }
  bool AcceptIfNotExists() { return AcceptKeywords({"IF", "NOT", "EXISTS"}); }

  // ---- statements (parser_statements.cc) ----
  Result<Statement> ParseStatement();
  Result<StatementBody> ParseBody();
  Result<StatementBody> ParseCreate();
  Result<StatementBody> ParseCreateTable();
  Status ParsePrimaryKey(std::vector<std::string>& primary_key);
  Status ExpectNotEnforced();
  // A column, or a table constraint, inside CREATE TABLE (...).
  Status ParseTableElement(CreateTable& create);
  // metadata: whether METADATA columns may follow (CREATE TABLE; not ALTER TABLE's Iceberg tables).
  Result<ColumnDef> ParseColumn(bool metadata);
  Result<PartitionField> ParsePartitionField();
  Result<StatementBody> ParseDrop();
  Result<StatementBody> ParseAlter();
  Status ParsePartitionAlias(AlterTable& alter);
  // ADD/MODIFY: one column, or a parenthesised list of columns and a primary key.
  Status ParseAlterColumns(AlterTable& alter);
  Result<StatementBody> ParseUse();
  Result<StatementBody> ParseShow();
  // The source text from token `first` up to (not including) token `end`, trimmed.
  std::string RawText(std::size_t first, std::size_t end) const;
  std::size_t StatementEnd() const;
  // SET 'k' = 'v' or the legacy SET k = v whose key and value are the raw text around '='.
  Result<StatementBody> ParseSet();
  Result<StatementBody> ParseReset();
  Result<Options> ParseHint();
  Result<StatementBody> ParseInsert();
  Result<StatementBody> ParseCall();

  // ---- queries (parser_queries.cc) ----
  Result<QueryPtr> ParseQuery();
  Result<StatementBody> ParseCreateView(bool temporary);
  Result<std::optional<ShowLike>> ParseShowLike();
  Result<QueryPtr> ParseQueryBody();
  Result<std::vector<CommonTableExpr>> ParseWith();
  Result<QueryPtr> ParseIntersectTerm();
  Result<QueryPtr> ParseQueryTerm();
  Result<std::optional<std::string>> ParseAlias();
  Result<TableRefPtr> ParseFrom();
  Result<TableRefPtr> ParseTablePrimary();
  Result<TableRefPtr> ParseWindowFunction();
  // expr [ASC | DESC] [NULLS FIRST | NULLS LAST]
  Result<OrderItem> ParseOrderItem();

  // ---- expressions (parser_expressions.cc) ----
  static ExprPtr MakeExpr(ExprKind kind, Position position);
  static ExprPtr Binary(std::string op, ExprPtr left, ExprPtr right);
  Result<ExprPtr> ParseExpr();
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> Literal(LiteralKind kind, const Token& token, std::string text);
  // A primary followed by subscripts and field accesses: m['k'], a[1], (r).f, m['k'].f.
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseAtom();
  // ARRAY[a, b] and MAP[k, v, ...]: a function named ARRAY or MAP over the elements.
  Result<ExprPtr> ParseConstructor();
  // The SQL-standard call forms with keywords inside the parentheses become plain calls:
  // EXTRACT(unit FROM x) -> EXTRACT(unit, x), POSITION(a IN b) -> POSITION(a, b),
  // SUBSTRING(s FROM a [FOR b]) -> SUBSTRING(s, a[, b]), TRIM([BOTH|LEADING|TRAILING] [c] FROM s)
  // -> TRIM/LTRIM/RTRIM(s[, c]). Returns null when the call has the ordinary form.
  Result<ExprPtr> ParseSpecialCall(ExprPtr expr);
  Result<ExprPtr> ParseFunction();
  // After `OVER`: (PARTITION BY ... ORDER BY ... frame).
  Result<std::shared_ptr<const OverClause>> ParseOver();
  Result<FrameBound> ParseFrameBound();
  Result<std::string> ParseIntervalUnit();
  // A unit of an INTERVAL type with its optional precision: DAY, DAY(2), SECOND(3).
  Result<std::string> ParseIntervalQualifier();
  Result<ExprPtr> ParseInterval(const Token& start);
  Result<ExprPtr> ParseCase(const Token& start);

  // ---- types (parser_types.cc) ----
  Result<std::vector<int64_t>> ParseTypeParams(std::string_view name, std::size_t max);
  Result<SqlType> ParseType();
  Result<SqlType> ParseTypeInner();

  // Recursion limit of queries, expressions and types: deeper input is an error, not a crash.
  static constexpr int kMaxDepth = 128;
  std::string_view source_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace floe::sql::parser_internal
