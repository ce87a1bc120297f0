// Expressions, from OR down to literals, column references, calls, CASE and INTERVAL.
// Part of the parser (parser_internal.h).

#include <fmt/format.h>

#include "floe/sql/syntax/parser_internal.h"

namespace floe::sql::parser_internal {

ExprPtr Parser::MakeExpr(ExprKind kind, Position position) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->position = position;
  return expr;
}

ExprPtr Parser::Binary(std::string op, ExprPtr left, ExprPtr right) {
  ExprPtr expr = MakeExpr(ExprKind::kBinary, left->position);
  expr->op = std::move(op);
  expr->args.push_back(std::move(left));
  expr->args.push_back(std::move(right));
  return expr;
}

Result<ExprPtr> Parser::ParseExpr() {
  if (++depth_ > kMaxDepth) {
    return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
  }
  auto result = ParseOr();
  --depth_;
  return result;
}

Result<ExprPtr> Parser::ParseOr() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
  while (AcceptKeyword("OR")) {
    FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
    left = Binary("OR", std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseAnd() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
  while (AcceptKeyword("AND")) {
    FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
    left = Binary("AND", std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseNot() {
  if (PeekKeyword("NOT")) {
    ExprPtr expr = MakeExpr(ExprKind::kUnary, Next().position);
    expr->op = "NOT";
    if (++depth_ > kMaxDepth) {
      return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
    }
    FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseNot());
    --depth_;
    expr->args.push_back(std::move(operand));
    return expr;
  }
  return ParsePredicate();
}

Result<ExprPtr> Parser::ParsePredicate() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseAdditive());
  while (true) {
    static constexpr std::string_view kComparisons[] = {"=", "<>", "!=", "<", "<=", ">", ">="};
    if (Peek().kind == TokenKind::kSymbol &&
        std::ranges::find(kComparisons, Peek().text) != std::end(kComparisons)) {
      std::string op = Next().text;
      if (op == "!=") op = "<>";
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
      left = Binary(std::move(op), std::move(left), std::move(right));
      continue;
    }
    if (PeekKeyword("IS")) {
      ExprPtr expr = MakeExpr(ExprKind::kIsNull, left->position);
      Next();
      expr->negated = AcceptKeyword("NOT");
      if (AcceptKeyword("DISTINCT")) {
        FLOE_RETURN_IF_ERROR(ExpectKeyword("FROM", "after IS DISTINCT"));
        FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAdditive());
        left = Binary(expr->negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM", std::move(left),
                      std::move(right));
        continue;
      }
      // IS [NOT] NAN is floe's extension (Iceberg's is_nan), for filters on float columns.
      if (AcceptKeyword("NAN")) {
        expr->kind = ExprKind::kIsNan;
      } else if (AcceptKeyword("TRUE")) {
        expr->text = "TRUE";
      } else if (AcceptKeyword("FALSE")) {
        expr->text = "FALSE";
      } else if (AcceptKeyword("UNKNOWN")) {
        expr->text = "UNKNOWN";
      } else if (!AcceptKeyword("NULL")) {
        return Expected("NULL, TRUE, FALSE, UNKNOWN, DISTINCT FROM or NAN",
                        expr->negated ? "after IS NOT" : "after IS");
      }
      expr->args.push_back(std::move(left));
      left = std::move(expr);
      continue;
    }
    bool negated = PeekKeyword("NOT") &&
                   (PeekKeyword("IN", 1) || PeekKeyword("BETWEEN", 1) || PeekKeyword("LIKE", 1));
    if (negated) Next();
    if (AcceptKeyword("IN")) {
      ExprPtr expr = MakeExpr(ExprKind::kIn, left->position);
      expr->negated = negated;
      expr->args.push_back(std::move(left));
      FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after IN"));
      if (PeekKeyword("SELECT") || PeekKeyword("VALUES")) {
        FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
      } else {
        do {
          FLOE_ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
          expr->args.push_back(std::move(item));
        } while (AcceptSymbol(","));
      }
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the IN list"));
      left = std::move(expr);
    } else if (AcceptKeyword("BETWEEN")) {
      ExprPtr expr = MakeExpr(ExprKind::kBetween, left->position);
      expr->negated = negated;
      expr->args.push_back(std::move(left));
      FLOE_ASSIGN_OR_RETURN(ExprPtr low, ParseAdditive());
      FLOE_RETURN_IF_ERROR(ExpectKeyword("AND", "after the lower bound of BETWEEN"));
      FLOE_ASSIGN_OR_RETURN(ExprPtr high, ParseAdditive());
      expr->args.push_back(std::move(low));
      expr->args.push_back(std::move(high));
      left = std::move(expr);
    } else if (AcceptKeyword("LIKE")) {
      ExprPtr expr = MakeExpr(ExprKind::kLike, left->position);
      expr->negated = negated;
      expr->args.push_back(std::move(left));
      FLOE_ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
      expr->args.push_back(std::move(pattern));
      if (AcceptKeyword("ESCAPE")) {
        FLOE_ASSIGN_OR_RETURN(ExprPtr escape, ParseAdditive());
        expr->args.push_back(std::move(escape));
      }
      left = std::move(expr);
    } else {
      return left;
    }
  }
}

Result<ExprPtr> Parser::ParseAdditive() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseMultiplicative());
  while (PeekSymbol("+") || PeekSymbol("-") || PeekSymbol("||")) {
    std::string op = Next().text;
    FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseMultiplicative());
    left = Binary(std::move(op), std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseUnary());
  while (PeekSymbol("*") || PeekSymbol("/") || PeekSymbol("%")) {
    std::string op = Next().text;
    FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseUnary());
    left = Binary(std::move(op), std::move(left), std::move(right));
  }
  return left;
}

Result<ExprPtr> Parser::ParseUnary() {
  if (PeekSymbol("-") || PeekSymbol("+")) {
    const Token& token = Next();
    ExprPtr expr = MakeExpr(ExprKind::kUnary, token.position);
    expr->op = token.text;
    if (++depth_ > kMaxDepth) {
      return ErrorAt(Peek(), fmt::format("expression nested deeper than {} levels", kMaxDepth));
    }
    FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseUnary());
    --depth_;
    expr->args.push_back(std::move(operand));
    return expr;
  }
  return ParsePrimary();
}

Result<ExprPtr> Parser::Literal(LiteralKind kind, const Token& token, std::string text) {
  ExprPtr expr = MakeExpr(ExprKind::kLiteral, token.position);
  expr->literal = kind;
  expr->text = std::move(text);
  return expr;
}

Result<ExprPtr> Parser::ParsePrimary() {
  const bool parenthesised = PeekSymbol("(");
  FLOE_ASSIGN_OR_RETURN(ExprPtr expr, ParseAtom());
  while (true) {
    if (PeekSymbol("[")) {
      ExprPtr subscript = MakeExpr(ExprKind::kSubscript, Next().position);
      FLOE_ASSIGN_OR_RETURN(ExprPtr index, ParseExpr());
      FLOE_RETURN_IF_ERROR(ExpectSymbol("]", "to close the subscript"));
      subscript->args.push_back(std::move(expr));
      subscript->args.push_back(std::move(index));
      expr = std::move(subscript);
    } else if ((parenthesised ||
                (expr->kind != ExprKind::kColumn && expr->kind != ExprKind::kStar)) &&
               PeekSymbol(".") && PeekIdentifier(1)) {
      ExprPtr access = MakeExpr(ExprKind::kFieldAccess, Next().position);
      access->text = Next().text;
      access->args.push_back(std::move(expr));
      expr = std::move(access);
    } else {
      return expr;
    }
  }
}

Result<ExprPtr> Parser::ParseAtom() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
      Next();
      return Literal(LiteralKind::kInteger, token, token.text);
    case TokenKind::kDecimal:
      Next();
      return Literal(LiteralKind::kDecimal, token, token.text);
    case TokenKind::kDouble:
      Next();
      return Literal(LiteralKind::kDouble, token, token.text);
    case TokenKind::kString:
      Next();
      return Literal(LiteralKind::kString, token, token.text);
    default:
      break;
  }
  if (AcceptSymbol("(")) {
    if (PeekKeyword("SELECT") || PeekKeyword("VALUES")) {
      ExprPtr expr = MakeExpr(ExprKind::kSubquery, token.position);
      FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the subquery"));
      return expr;
    }
    FLOE_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the parenthesis"));
    return inner;
  }
  if (token.kind == TokenKind::kIdentifier) {
    if (AcceptKeyword("NULL")) return Literal(LiteralKind::kNull, token, "NULL");
    if (AcceptKeyword("TRUE")) return Literal(LiteralKind::kBoolean, token, "TRUE");
    if (AcceptKeyword("FALSE")) return Literal(LiteralKind::kBoolean, token, "FALSE");
    if (Peek(1).kind == TokenKind::kString) {
      static constexpr std::pair<std::string_view, LiteralKind> kTyped[] = {
          {"DATE", LiteralKind::kDate},
          {"TIME", LiteralKind::kTime},
          {"TIMESTAMP", LiteralKind::kTimestamp}};
      for (auto [word, kind] : kTyped) {
        if (IsKeyword(token, word)) {
          Next();
          return Literal(kind, token, Next().text);
        }
      }
    }
    if (AcceptKeyword("INTERVAL")) return ParseInterval(token);
    if (AcceptKeyword("CASE")) return ParseCase(token);
    if ((PeekKeyword("CAST") || PeekKeyword("TRY_CAST")) && PeekSymbol("(", 1)) {
      ExprPtr expr = MakeExpr(ExprKind::kCast, token.position);
      expr->op = AsciiUpper(Next().text);
      Next();
      FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
      expr->args.push_back(std::move(operand));
      FLOE_RETURN_IF_ERROR(ExpectKeyword("AS", fmt::format("in {}", expr->op)));
      FLOE_ASSIGN_OR_RETURN(expr->type, ParseType());
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", fmt::format("to close {}", expr->op)));
      return expr;
    }
  }
  // LEFT and RIGHT are reserved for joins, and also Flink's string functions.
  if ((PeekKeyword("LEFT") || PeekKeyword("RIGHT")) && PeekSymbol("(", 1)) return ParseFunction();
  if (!PeekIdentifier()) return Expected("an expression", "");
  if ((PeekKeyword("ARRAY") || PeekKeyword("MAP")) && PeekSymbol("[", 1)) {
    return ParseConstructor();
  }
  if (PeekKeyword("EXISTS") && PeekSymbol("(", 1) &&
      (PeekKeyword("SELECT", 2) || PeekKeyword("VALUES", 2))) {
    ExprPtr expr = MakeExpr(ExprKind::kSubquery, Next().position);
    expr->op = "EXISTS";
    Next();
    FLOE_ASSIGN_OR_RETURN(expr->query, ParseQuery());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close EXISTS ("));
    return expr;
  }
  if (PeekSymbol("(", 1)) return ParseFunction();
  ExprPtr expr = MakeExpr(ExprKind::kColumn, token.position);
  expr->name.push_back(Next().text);
  while (AcceptSymbol(".")) {
    if (AcceptSymbol("*")) {
      expr->kind = ExprKind::kStar;
      return expr;
    }
    FLOE_ASSIGN_OR_RETURN(std::string part, ParseIdentifier("column name after '.'"));
    expr->name.push_back(std::move(part));
  }
  return expr;
}

Result<ExprPtr> Parser::ParseConstructor() {
  ExprPtr expr = MakeExpr(ExprKind::kFunction, Peek().position);
  expr->name.push_back(AsciiUpper(Next().text));
  Next();
  if (!PeekSymbol("]")) {
    do {
      FLOE_ASSIGN_OR_RETURN(ExprPtr element, ParseExpr());
      expr->args.push_back(std::move(element));
    } while (AcceptSymbol(","));
  }
  FLOE_RETURN_IF_ERROR(ExpectSymbol("]", fmt::format("to close {}[", expr->name[0])));
  return expr;
}

Result<ExprPtr> Parser::ParseSpecialCall(ExprPtr expr) {
  const std::string name = AsciiUpper(expr->name[0]);
  if (name == "EXTRACT" && PeekIdentifier() && PeekKeyword("FROM", 1)) {
    ExprPtr unit = MakeExpr(ExprKind::kColumn, Peek().position);
    unit->name.push_back(AsciiUpper(Next().text));
    Next();
    FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
    expr->args.push_back(std::move(unit));
    expr->args.push_back(std::move(operand));
  } else if (name == "POSITION") {
    FLOE_ASSIGN_OR_RETURN(ExprPtr needle, ParseAdditive());
    if (!AcceptKeyword("IN")) return ExprPtr();
    FLOE_ASSIGN_OR_RETURN(ExprPtr haystack, ParseExpr());
    expr->args.push_back(std::move(needle));
    expr->args.push_back(std::move(haystack));
  } else if (name == "SUBSTRING") {
    FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
    if (!AcceptKeyword("FROM")) return ExprPtr();
    expr->args.push_back(std::move(text));
    FLOE_ASSIGN_OR_RETURN(ExprPtr start, ParseExpr());
    expr->args.push_back(std::move(start));
    if (AcceptKeyword("FOR")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr length, ParseExpr());
      expr->args.push_back(std::move(length));
    }
  } else if (name == "TRIM") {
    if (AcceptKeyword("LEADING")) {
      expr->name[0] = "LTRIM";
    } else if (AcceptKeyword("TRAILING")) {
      expr->name[0] = "RTRIM";
    } else if (!AcceptKeyword("BOTH")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr first, ParseExpr());
      if (!AcceptKeyword("FROM")) return ExprPtr();
      FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
      expr->args.push_back(std::move(text));
      expr->args.push_back(std::move(first));
      return expr;
    }
    ExprPtr characters;
    if (!AcceptKeyword("FROM")) {
      FLOE_ASSIGN_OR_RETURN(characters, ParseExpr());
      FLOE_RETURN_IF_ERROR(ExpectKeyword("FROM", "in TRIM"));
    }
    FLOE_ASSIGN_OR_RETURN(ExprPtr text, ParseExpr());
    expr->args.push_back(std::move(text));
    if (characters) expr->args.push_back(std::move(characters));
  } else if (name == "JSON_OBJECT" || name == "JSON_ARRAY") {
    // JSON_OBJECT([KEY] k VALUE v, ... [NULL | ABSENT ON NULL]), JSON_ARRAY(v, ... [... ON NULL]):
    // the object's keys and values alternate in args; op holds the ON NULL clause as written.
    expr->name[0] = name;
    auto on_null = [&] {
      return (PeekKeyword("NULL") || PeekKeyword("ABSENT")) && PeekKeyword("ON", 1) &&
             PeekKeyword("NULL", 2);
    };
    if (!PeekSymbol(")") && !on_null()) {
      do {
        if (name == "JSON_OBJECT") {
          if (PeekKeyword("KEY") && !PeekKeyword("VALUE", 1)) Next();
          FLOE_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
          FLOE_RETURN_IF_ERROR(ExpectKeyword("VALUE", "after a JSON_OBJECT key"));
          expr->args.push_back(std::move(key));
        }
        FLOE_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
        expr->args.push_back(std::move(value));
      } while (AcceptSymbol(","));
    }
    if (on_null()) {
      expr->op = PeekKeyword("NULL") ? "NULL ON NULL" : "ABSENT ON NULL";
      pos_ += 3;
    }
  } else {
    return ExprPtr();
  }
  FLOE_RETURN_IF_ERROR(
      ExpectSymbol(")", fmt::format("to close the arguments of {}", expr->name[0])));
  return expr;
}

Result<ExprPtr> Parser::ParseFunction() {
  ExprPtr expr = MakeExpr(ExprKind::kFunction, Peek().position);
  expr->name.push_back(Next().text);
  Next();
  {
    const size_t start = pos_;
    ExprPtr special = MakeExpr(ExprKind::kFunction, expr->position);
    special->name = expr->name;
    Result<ExprPtr> parsed = ParseSpecialCall(std::move(special));
    if (parsed && *parsed) return parsed;
    // The JSON constructors have no ordinary form to fall back to.
    const std::string upper = AsciiUpper(expr->name[0]);
    if (!parsed && (upper == "JSON_OBJECT" || upper == "JSON_ARRAY")) return parsed;
    pos_ = start;  // the ordinary form: parse again from the opening parenthesis
  }
  if (AcceptSymbol("*")) {
    expr->star = true;
  } else if (!PeekSymbol(")")) {
    if (AcceptKeyword("DISTINCT")) {
      expr->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    do {
      FLOE_ASSIGN_OR_RETURN(ExprPtr argument, ParseExpr());
      expr->args.push_back(std::move(argument));
    } while (AcceptSymbol(","));
  }
  FLOE_RETURN_IF_ERROR(
      ExpectSymbol(")", fmt::format("to close the arguments of {}", expr->name[0])));
  if (AcceptKeyword("OVER")) {
    FLOE_ASSIGN_OR_RETURN(expr->over, ParseOver());
  }
  return expr;
}

Result<std::string> Parser::ParseIntervalUnit() {
  static constexpr std::string_view kUnits[] = {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"};
  for (std::string_view unit : kUnits) {
    if (AcceptKeyword(unit)) return std::string(unit);
  }
  return Expected("YEAR, MONTH, DAY, HOUR, MINUTE or SECOND", "in INTERVAL");
}

Result<std::string> Parser::ParseIntervalQualifier() {
  FLOE_ASSIGN_OR_RETURN(std::string unit, ParseIntervalUnit());
  FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> precision, ParseTypeParams(unit, 1));
  if (!precision.empty()) unit += fmt::format("({})", precision[0]);
  return unit;
}

Result<ExprPtr> Parser::ParseInterval(const Token& start) {
  ExprPtr expr = MakeExpr(ExprKind::kLiteral, start.position);
  expr->literal = LiteralKind::kInterval;
  std::string sign;
  if (AcceptSymbol("-")) sign = "-";
  FLOE_ASSIGN_OR_RETURN(std::string text, ParseString("interval string", "after INTERVAL"));
  expr->text = sign + text;
  FLOE_ASSIGN_OR_RETURN(expr->interval_unit, ParseIntervalUnit());
  if (AcceptKeyword("TO")) {
    FLOE_ASSIGN_OR_RETURN(std::string to, ParseIntervalUnit());
    expr->interval_unit += " TO " + to;
  }
  return expr;
}

Result<ExprPtr> Parser::ParseCase(const Token& start) {
  ExprPtr expr = MakeExpr(ExprKind::kCase, start.position);
  if (PeekKeyword("WHEN")) {
    expr->args.push_back(nullptr);
  } else {
    FLOE_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
    expr->args.push_back(std::move(operand));
  }
  if (!PeekKeyword("WHEN")) return Expected("WHEN", "in CASE");
  while (AcceptKeyword("WHEN")) {
    FLOE_ASSIGN_OR_RETURN(ExprPtr when, ParseExpr());
    FLOE_RETURN_IF_ERROR(ExpectKeyword("THEN", "after WHEN condition"));
    FLOE_ASSIGN_OR_RETURN(ExprPtr then, ParseExpr());
    expr->args.push_back(std::move(when));
    expr->args.push_back(std::move(then));
  }
  if (AcceptKeyword("ELSE")) {
    expr->has_else = true;
    FLOE_ASSIGN_OR_RETURN(ExprPtr otherwise, ParseExpr());
    expr->args.push_back(std::move(otherwise));
  }
  FLOE_RETURN_IF_ERROR(ExpectKeyword("END", "to close CASE"));
  return expr;
}

}  // namespace floe::sql::parser_internal
