// A call's OVER clause (Flink's OVER windows and ranking functions):
//   OVER ([PARTITION BY e, ...] [ORDER BY e [ASC|DESC] [NULLS FIRST|LAST], ...]
//         [ROWS | RANGE] {BETWEEN bound AND bound | bound})
// where a bound is UNBOUNDED PRECEDING, <offset> PRECEDING, CURRENT ROW, <offset> FOLLOWING or
// UNBOUNDED FOLLOWING. Flink's named windows (WINDOW w AS ...) are not parsed.

#include <fmt/format.h>

#include <memory>

#include "floe/sql/syntax/parser_internal.h"

namespace floe::sql::parser_internal {

Result<FrameBound> Parser::ParseFrameBound() {
  FrameBound bound;
  if (AcceptKeywords({"UNBOUNDED", "PRECEDING"})) {
    bound.kind = FrameBound::Kind::kUnboundedPreceding;
    return bound;
  }
  if (AcceptKeywords({"UNBOUNDED", "FOLLOWING"})) {
    bound.kind = FrameBound::Kind::kUnboundedFollowing;
    return bound;
  }
  if (AcceptKeywords({"CURRENT", "ROW"})) {
    bound.kind = FrameBound::Kind::kCurrentRow;
    return bound;
  }
  FLOE_ASSIGN_OR_RETURN(bound.offset, ParseAdditive());
  if (AcceptKeyword("PRECEDING")) {
    bound.kind = FrameBound::Kind::kPreceding;
  } else if (AcceptKeyword("FOLLOWING")) {
    bound.kind = FrameBound::Kind::kFollowing;
  } else {
    return Expected("PRECEDING or FOLLOWING", "after a window frame offset");
  }
  return bound;
}

Result<std::shared_ptr<const OverClause>> Parser::ParseOver() {
  FLOE_RETURN_IF_ERROR(ExpectSymbol("(", "after OVER"));
  auto over = std::make_shared<OverClause>();
  if (AcceptKeyword("PARTITION")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after PARTITION"));
    do {
      FLOE_ASSIGN_OR_RETURN(ExprPtr key, ParseExpr());
      over->partition_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("ORDER")) {
    FLOE_RETURN_IF_ERROR(ExpectKeyword("BY", "after ORDER in OVER"));
    do {
      FLOE_ASSIGN_OR_RETURN(OrderItem item, ParseOrderItem());
      over->order_by.push_back(std::move(item));
    } while (AcceptSymbol(","));
  }
  if (AcceptKeyword("ROWS")) {
    over->frame = OverClause::Frame::kRows;
  } else if (AcceptKeyword("RANGE")) {
    over->frame = OverClause::Frame::kRange;
  }
  if (over->frame != OverClause::Frame::kNone) {
    if (AcceptKeyword("BETWEEN")) {
      FLOE_ASSIGN_OR_RETURN(over->start, ParseFrameBound());
      FLOE_RETURN_IF_ERROR(ExpectKeyword("AND", "between the window frame's bounds"));
      FLOE_ASSIGN_OR_RETURN(over->end, ParseFrameBound());
    } else {
      FLOE_ASSIGN_OR_RETURN(over->start, ParseFrameBound());
    }
  }
  FLOE_RETURN_IF_ERROR(ExpectSymbol(")", "to close OVER ("));
  return std::shared_ptr<const OverClause>(std::move(over));
}

}  // namespace floe::sql::parser_internal
