#pragma once

// The recursive-descent parser of floe's Flink SQL dialect: text in, syntax tree (ast.h) out. Every
// error is an InvalidArgument whose message starts with the line and column and says what was
// expected and what was found, e.g.
//   line 3, column 14: expected ')' after column list, found 'PARTITIONED'
// Scripts split into statements on ';' outside strings, quoted names and comments; line numbers
// stay those of the whole script.

#include <string>
#include <string_view>
#include <vector>

#include "floe/sql/syntax/ast.h"
#include "floe/util/error.h"

namespace floe::sql {

// Exactly one statement, with or without a trailing ';'.
Result<Statement> ParseStatement(std::string_view sql);

// Every statement of a script; empty statements (";;") are skipped.
Result<std::vector<Statement>> ParseScript(std::string_view script);

// A statement's text as written (without its ';') and where it starts in the script.
struct ScriptPiece {
  std::string text;
  Position position;
};

// The statements of a script, unparsed: what an interactive client needs to find the end of a
// statement. `complete` is false when the text after the last ';' holds more than whitespace and
// comments; that text is then the last piece.
struct SplitScript {
  std::vector<ScriptPiece> pieces;
  bool complete = true;
};
Result<SplitScript> SplitStatements(std::string_view script);

// A lone type ("DECIMAL(10, 2) NOT NULL") or expression: for tests, the binder and filters on a
// table given as text (scalar/table_filter.h).
Result<SqlType> ParseDataType(std::string_view text);
Result<ExprPtr> ParseExpression(std::string_view text);

}  // namespace floe::sql
