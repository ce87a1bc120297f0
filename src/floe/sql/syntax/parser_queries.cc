// Queries: WITH, SELECT and VALUES, UNION/INTERSECT/EXCEPT, ORDER BY and LIMIT, FROM items and joins.
// Part of the parser (parser_internal.h).

#include <fmt/format.h>

#include "floe/sql/syntax/parser_internal.h"
#include "floe/util/strings.h"

namespace floe::sql::parser_internal {

Result<OrderItem> Parser::ParseOrderItem() {
  OrderItem item;
  FLOE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
  if (AcceptKeyword("DESC")) {
    item.descending = true;
  } else {
    AcceptKeyword("ASC");
  }
  if (AcceptKeyword("NULLS")) {
    if (AcceptKeyword("FIRST")) {
      item.nulls_first = true;
    } else if (AcceptKeyword("LAST")) {
      item.nulls_first = false;
    } else {
      return Expected("FIRST or LAST", "after NULLS");
    }
  }
  return item;
}

Result<QueryPtr> Parser::ParseQuery() {
  if (++depth_ > kMaxDepth) {
    return ErrorAt(Peek(), fmt::format("query nested deeper than {} levels", kMaxDepth));
  }
  auto query = ParseQueryBody();
  --depth_;
  return query;
}

// WITH name [(columns)] AS (query), ...
Result<std::vector<CommonTableExpr>> Parser::ParseWith() {
  std::vector<CommonTableExpr> with;
  do {
    CommonTableExpr cte{.position = Peek().position};
    FLOE_ASSIGN_OR_RETURN(cte.name, ParseIdentifier("name of a WITH query"));
    if (AcceptSymbol("(")) {
      do {
        FLOE_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("column name"));
        cte.columns.push_back(std::move(column));
      } while (AcceptSymbol(","));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the WITH query's columns"));
    }
    FLOE_RETURN_IF_ERROR(ExpectKeyword("AS", "after the WITH query's name"));
    FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "to open the WITH query"));
    FLOE_ASSIGN_OR_RETURN(cte.query, ParseQuery());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the WITH query"));
    with.push_back(std::move(cte));
  } while (AcceptSymbol(","));
  return with;
}

// Set operations bind as in standard SQL (and Calcite): INTERSECT before UNION and EXCEPT, which
// associate to the left.
Result<QueryPtr> Parser::ParseQueryBody() {
  std::vector<CommonTableExpr> with;
  if (AcceptKeyword("WITH")) {
    FLOE_ASSIGN_OR_RETURN(with, ParseWith());
  }
  FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseIntersectTerm());
  while (PeekKeyword("UNION") || PeekKeyword("EXCEPT")) {
    auto set = std::make_unique<Query>();
    set->kind = IsKeyword(Next(), "UNION") ? Query::Kind::kUnion : Query::Kind::kExcept;
    set->all = AcceptKeyword("ALL");
    if (!set->all) AcceptKeyword("DISTINCT");
    set->left = std::move(query);
    FLOE_ASSIGN_OR_RETURN(set->right, ParseIntersectTerm());
    query = std::move(set);
  }
  if (!with.empty()) {
    // A parenthesised body's own WITH queries come after (and so shadow) these.
    for (CommonTableExpr& inner : query->with) with.push_back(std::move(inner));
    query->with = std::move(with);
  }
  if (AcceptKeyword("ORDER")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after ORDER"));
    do {
      FLOE_ASSIGN_OR_RETURN(OrderItem item, ParseOrderItem());
      query->order_by.push_back(std::move(item));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("LIMIT")) {
    FLOE_ASSIGN_OR_RETURN(query->limit, ParseUnary());
  }
  if (AcceptKeyword("OFFSET")) {
    FLOE_ASSIGN_OR_RETURN(query->offset, ParseUnary());
    AcceptKeyword("ROWS") || AcceptKeyword("ROW");
  }
  return query;
}

Result<QueryPtr> Parser::ParseIntersectTerm() {
  FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseQueryTerm());
  while (AcceptKeyword("INTERSECT")) {
    auto set = std::make_unique<Query>();
    set->kind = Query::Kind::kIntersect;
    set->all = AcceptKeyword("ALL");
    if (!set->all) AcceptKeyword("DISTINCT");
    set->left = std::move(query);
    FLOE_ASSIGN_OR_RETURN(set->right, ParseQueryTerm());
    query = std::move(set);
  }
  return query;
}

Result<QueryPtr> Parser::ParseQueryTerm() {
  if (AcceptSymbol("(")) {
    FLOE_ASSIGN_OR_RETURN(QueryPtr query, ParseQuery());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the parenthesised query"));
    return query;
  }
  auto query = std::make_unique<Query>();
  if (AcceptKeyword("VALUES")) {
    query->kind = Query::Kind::kValues;
    do {
      FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "to open a VALUES row"));
      std::vector<ExprPtr> row;
      do {
        FLOE_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
        row.push_back(std::move(value));
      } while (AcceptSymbol(","));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close a VALUES row"));
      query->rows.push_back(std::move(row));
    } while (AcceptSymbol(","));
    return query;
  }
  FLOE_RETURN_IF_ERROR(ExpectKeyword("SELECT", "to start a query"));
  query->kind = Query::Kind::kSelect;
  if (AcceptKeyword("DISTINCT")) {
    query->distinct = true;
  } else {
    AcceptKeyword("ALL");
  }
  do {
    SelectItem item;
    if (PeekSymbol("*")) {
      auto star = std::make_unique<Expr>();
      star->kind = ExprKind::kStar;
      star->position = Next().position;
      item.expr = std::move(star);
    } else {
      FLOE_ASSIGN_OR_RETURN(item.expr, ParseExpr());
      FLOE_ASSIGN_OR_RETURN(item.alias, ParseAlias());
    }
    query->items.push_back(std::move(item));
  } while (AcceptSymbol(","));
  if (AcceptKeyword("FROM")) {
    FLOE_ASSIGN_OR_RETURN(query->from, ParseFrom());
  }
  if (AcceptKeyword("WHERE")) {
    FLOE_ASSIGN_OR_RETURN(query->where, ParseExpr());
  }
  if (AcceptKeyword("GROUP")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after GROUP"));
    do {
      FLOE_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
      query->group_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("HAVING")) {
    FLOE_ASSIGN_OR_RETURN(query->having, ParseExpr());
  }
  return query;
}

Result<std::optional<std::string>> Parser::ParseAlias() {
  if (AcceptKeyword("AS")) {
    FLOE_ASSIGN_OR_RETURN(std::string alias, ParseIdentifier("alias after AS"));
    return alias;
  }
  if (PeekIdentifier()) return std::optional<std::string>(Next().text);
  return std::optional<std::string>();
}

Result<TableRefPtr> Parser::ParseFrom() {
  FLOE_ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
  while (true) {
    JoinKind kind;
    if (AcceptSymbol(",")) {
      kind = JoinKind::kComma;
    } else if (AcceptKeywords({"CROSS", "JOIN"})) {
      kind = JoinKind::kCross;
    } else if (AcceptKeyword("JOIN") || AcceptKeywords({"INNER", "JOIN"})) {
      kind = JoinKind::kInner;
    } else if (AcceptKeyword("LEFT") || AcceptKeyword("RIGHT") || AcceptKeyword("FULL")) {
      const Token& side = tokens_[pos_ - 1];
      kind = IsKeyword(side, "LEFT")    ? JoinKind::kLeft
             : IsKeyword(side, "RIGHT") ? JoinKind::kRight
                                        : JoinKind::kFull;
      AcceptKeyword("OUTER");
      FLOE_RETURN_IF_ERROR(ExpectKeyword("JOIN", fmt::format("after {}", AsciiUpper(side.text))));
    } else {
      return left;
    }
    auto join = std::make_unique<TableRef>();
    join->kind = TableRef::Kind::kJoin;
    join->join = kind;
    join->left = std::move(left);
    FLOE_ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
    if (kind != JoinKind::kComma && kind != JoinKind::kCross) {
      FLOE_RETURN_IF_ERROR(ExpectKeyword("ON", "after the joined table"));
      FLOE_ASSIGN_OR_RETURN(join->on, ParseExpr());
    }
    left = std::move(join);
  }
}

// TABLE(f(TABLE t, DESCRIPTOR(c), arg, ...)), arguments positional or `NAME => value`.
Result<TableRefPtr> Parser::ParseWindowFunction() {
  auto ref = std::make_unique<TableRef>();
  ref->kind = TableRef::Kind::kWindow;
  ref->position = Peek().position;
  pos_ += 2;
  FLOE_ASSIGN_OR_RETURN(std::string function, ParseIdentifier("window function name"));
  ref->window_function = AsciiUpper(function);
  FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after the window function's name"));
  do {
    std::string name;
    // Argument names may be reserved words (OFFSET).
    if ((PeekIdentifier() || Peek().kind == TokenKind::kIdentifier) && PeekSymbol("=>", 1)) {
      name = AsciiUpper(Peek().text);
      pos_ += 2;
    }
    if (AcceptKeyword("TABLE")) {
      if (ref->left) return ErrorAt(Peek(), "a window function takes one TABLE");
      if (!name.empty() && name != "DATA") return ErrorAt(Peek(), "TABLE is the DATA argument");
      ref->left = std::make_unique<TableRef>();
      FLOE_ASSIGN_OR_RETURN(ref->left->name, ParseObjectName("table name"));
    } else if (AcceptKeyword("DESCRIPTOR")) {
      if (!name.empty() && name != "TIMECOL") {
        return ErrorAt(Peek(), "DESCRIPTOR is the TIMECOL argument");
      }
      FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after DESCRIPTOR"));
      FLOE_ASSIGN_OR_RETURN(ref->time_column, ParseIdentifier("time attribute column"));
      FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close DESCRIPTOR"));
    } else {
      WindowArgument argument{.name = std::move(name)};
      FLOE_ASSIGN_OR_RETURN(argument.value, ParseExpr());
      ref->window_arguments.push_back(std::move(argument));
    }
  } while (AcceptSymbol(","));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the window function's arguments"));
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close TABLE("));
  if (!ref->left) return ErrorAt(Peek(), fmt::format("{} needs TABLE t", ref->window_function));
  if (ref->time_column.empty()) {
    return ErrorAt(Peek(), fmt::format("{} needs DESCRIPTOR(time column)", ref->window_function));
  }
  FLOE_ASSIGN_OR_RETURN(ref->alias, ParseAlias());
  return ref;
}

Result<TableRefPtr> Parser::ParseTablePrimary() {
  if (PeekKeyword("TABLE") && PeekSymbol("(", 1)) return ParseWindowFunction();
  auto ref = std::make_unique<TableRef>();
  if (AcceptSymbol("(")) {
    ref->kind = TableRef::Kind::kSubquery;
    FLOE_ASSIGN_OR_RETURN(ref->query, ParseQuery());
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the subquery"));
  } else {
    FLOE_ASSIGN_OR_RETURN(ref->name, ParseObjectName("table name"));
    if (Peek().kind == TokenKind::kHintStart) {
      Next();
      FLOE_ASSIGN_OR_RETURN(ref->hints, ParseHint());
    }
  }
  FLOE_ASSIGN_OR_RETURN(ref->alias, ParseAlias());
  if (ref->alias && AcceptSymbol("(")) {
    do {
      FLOE_ASSIGN_OR_RETURN(std::string column, ParseIdentifier("column alias"));
      ref->column_aliases.push_back(std::move(column));
    } while (AcceptSymbol(","));
    FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close the column aliases"));
  }
  return ref;
}

}  // namespace floe::sql::parser_internal
