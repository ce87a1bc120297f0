#pragma once

// Writes a syntax tree back as canonical SQL text: keywords in upper case, every name backquoted,
// strings single-quoted, one statement per line, parentheses only where precedence needs them.
// Parsing the output gives the same tree, which is what round-trip tests and SHOW CREATE TABLE rely
// on.

#include <string>
#include <string_view>

#include "floe/sql/syntax/ast.h"

namespace floe::sql {

std::string PrintStatement(const Statement& statement);
std::string PrintQuery(const Query& query);
std::string PrintExpr(const Expr& expr);
std::string PrintType(const SqlType& type);
// `catalog`.`db`.`table`, for messages about a name.
std::string PrintName(const ObjectName& name);

// `name` with backquotes doubled, in backquotes; 'text' with quotes doubled, in quotes.
std::string QuoteIdentifier(std::string_view name);
std::string QuoteString(std::string_view text);

}  // namespace floe::sql
