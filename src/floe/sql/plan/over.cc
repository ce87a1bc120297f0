#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/over_internal.h"
#include "floe/sql/plan/project_internal.h"
#include "floe/sql/syntax/printer.h"
#include "floe/util/strings.h"

namespace floe::sql::plan {
namespace {

std::optional<exec::RankKind> RankKindOf(const Expr& call) {
  if (call.kind != ExprKind::kFunction || call.name.size() != 1) return std::nullopt;
  std::string name = AsciiUpper(call.name[0]);
  if (name == "ROW_NUMBER") return exec::RankKind::kRowNumber;
  if (name == "RANK") return exec::RankKind::kRank;
  if (name == "DENSE_RANK") return exec::RankKind::kDenseRank;
  return std::nullopt;
}

void CollectOver(const Expr& expr, std::vector<const Expr*>& calls) {
  if (expr.over) {
    calls.push_back(&expr);
    return;
  }
  for (const ExprPtr& arg : expr.args) {
    if (arg) CollectOver(*arg, calls);
  }
}

std::optional<int64_t> IntegerLiteral(const Expr& expr) {
  if (expr.kind != ExprKind::kLiteral || expr.literal != LiteralKind::kInteger) return std::nullopt;
  int64_t value = 0;
  const char* end = expr.text.data() + expr.text.size();
  auto [ptr, error] = std::from_chars(expr.text.data(), end, value);
  if (error != std::errc() || ptr != end) return std::nullopt;
  return value;
}

bool NamesColumn(const Expr& expr, const std::string& name) {
  return expr.kind == ExprKind::kColumn && EqualsIgnoreCase(expr.name.back(), name);
}

// The largest rank a conjunct lets through, when it bounds column `name` by a constant.
std::optional<int64_t> RankBound(const Expr& conjunct, const std::string& name) {
  if (conjunct.kind == ExprKind::kBetween && !conjunct.negated &&
      NamesColumn(*conjunct.args[0], name)) {
    return IntegerLiteral(*conjunct.args[2]);
  }
  if (conjunct.kind != ExprKind::kBinary || conjunct.args.size() != 2) return std::nullopt;
  std::string op = conjunct.op;
  const Expr* constant = conjunct.args[1].get();
  if (!NamesColumn(*conjunct.args[0], name)) {
    if (!NamesColumn(*conjunct.args[1], name)) return std::nullopt;
    constant = conjunct.args[0].get();
    if (op == ">=") {
      op = "<=";
    } else if (op == ">") {
      op = "<";
    }
  }
  std::optional<int64_t> value = IntegerLiteral(*constant);
  if (!value) return std::nullopt;
  if (op == "<=" || op == "=") return *value;
  if (op == "<") return *value - 1;
  return std::nullopt;
}

std::unexpected<Error> ErrorAt(const Expr& expr, std::string_view message) {
  return InvalidArgument("{}", AtPosition(expr.position, message));
}

// The column of `relation` (after `projection`'s pass-through columns) that holds `expr`: an
// input column as it is, or a new column of `projection`.
Result<int> KeyColumn(const Expr& expr, const Relation& relation, Projection& projection,
                      std::vector<ScopeColumn>& added) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(expr, relation.scope()));
  if (std::optional<int> column = bound->column_index()) return *column;
  int column = static_cast<int>(projection.columns.size());
  std::string name = fmt::format("$key{}", column);
  added.push_back({.name = name, .type = bound->type(), .nullable = bound->nullable()});
  projection.columns.push_back(std::move(bound));
  projection.names.push_back(std::move(name));
  return column;
}

// One ranking call over `relation`, whose rows `where` (may be null) filters first.
Result<Relation> PlanRank(PlannerContext& context, Relation relation, ScalarExprPtr where,
                          const Expr& call, int ordinal) {
  const OverClause& over = *call.over;
  std::optional<exec::RankKind> kind = RankKindOf(call);
  std::string function = AsciiUpper(call.name.back());
  if (!kind) {
    return Unsupported(
        "{}", AtPosition(call.position, fmt::format("{} OVER (...) is not supported yet: floe's "
                                                    "OVER windows are ROW_NUMBER, RANK and "
                                                    "DENSE_RANK",
                                                    function)));
  }
  if (!call.args.empty() || call.star || call.distinct) {
    return ErrorAt(call, fmt::format("{}() takes no arguments", function));
  }
  if (over.frame != OverClause::Frame::kNone) {
    return ErrorAt(call, fmt::format("{}() takes no window frame (ROWS/RANGE)", function));
  }
  if (over.order_by.empty()) {
    return ErrorAt(call, fmt::format("{}() needs an ORDER BY in its OVER clause", function));
  }
  if (relation.changelog) {
    return ErrorAt(call, fmt::format("{}() OVER needs an insert-only input", function));
  }
  // Every column passes through (by index: names may repeat), then the key expressions that are
  // no plain columns.
  std::vector<ScopeColumn> by_index = relation.columns;
  for (size_t i = 0; i < by_index.size(); ++i) {
    by_index[i].qualifier.clear();
    by_index[i].name = fmt::format("$#{}", i);
  }
  Scope index_scope(std::move(by_index));
  Projection projection{.filter = std::move(where)};
  for (size_t i = 0; i < relation.columns.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column,
                          BindScalar(*ColumnRef(fmt::format("$#{}", i), Position{}), index_scope));
    projection.columns.push_back(std::move(column));
    projection.names.push_back(relation.stream.schema()->field(static_cast<int>(i)).name);
  }
  std::vector<ScopeColumn> added;
  exec::RankSpec spec{.kind = *kind, .limit = context.RankLimit(&over)};
  std::vector<std::string> partition_texts;
  std::vector<std::string> order_texts;
  for (const ExprPtr& key : over.partition_by) {
    FLOE_ASSIGN_OR_RETURN(int column, KeyColumn(*key, relation, projection, added));
    spec.partition_columns.push_back(column);
    partition_texts.push_back(PrintExpr(*key));
  }
  for (const OrderItem& item : over.order_by) {
    FLOE_ASSIGN_OR_RETURN(int column, KeyColumn(*item.expr, relation, projection, added));
    spec.order.push_back({.column = column,
                          .descending = item.descending,
                          .nulls_first = item.nulls_first.value_or(!item.descending)});
    order_texts.push_back(PrintExpr(*item.expr) + (item.descending ? " DESC" : " ASC"));
  }
  FLOE_ASSIGN_OR_RETURN(spec.state_ttl_ms, context.session().config().state_ttl_ms());
  spec.rank_name = fmt::format("$over{}", ordinal);
  // Deduplication: ROW_NUMBER = 1 over the time attribute. Keeping the first row waits for the
  // watermark, so that its result is final; keeping the last lets a newer row of the same time
  // win, as Flink's does.
  bool on_rowtime =
      spec.order.size() == 1 && relation.rowtime >= 0 && spec.order[0].column == relation.rowtime;
  bool dedup = *kind == exec::RankKind::kRowNumber && spec.limit == 1 && on_rowtime;
  if (dedup && !spec.order[0].descending && !context.batch()) {
    spec.keep_first_rowtime = relation.rowtime;
  }
  spec.newer_first = on_rowtime && spec.order[0].descending;
  // A window Top-N (or deduplication): partitioned by a window table function's window end, each
  // window is ranked once, when the watermark completes it.
  bool windowed =
      relation.window_end >= 0 && std::ranges::find(spec.partition_columns, relation.window_end) !=
                                      spec.partition_columns.end();
  if (windowed && !context.batch()) {
    spec.window_end = relation.window_end;
    spec.keep_first_rowtime = -1;
  }

  stream::DataStream projected =
      Project(relation.stream, std::move(projection), context.UniqueName("OverInput"));
  FLOE_ASSIGN_OR_RETURN(stream::DataStream ranked, exec::Rank(projected, spec));
  if (windowed) {
    context.Note(fmt::format("WindowRank(rankType=[{}], partitionBy=[{}], orderBy=[{}]{})",
                             function, fmt::join(partition_texts, ", "),
                             fmt::join(order_texts, ", "),
                             spec.limit ? fmt::format(", rankRange=[1..{}]", *spec.limit) : ""));
  } else if (dedup) {
    context.Note(fmt::format("Deduplicate(keep=[{}], key=[{}], order=[{}])",
                             spec.order[0].descending ? "LastRow" : "FirstRow",
                             fmt::join(partition_texts, ", "), order_texts[0]));
  } else {
    context.Note(fmt::format("Rank(rankType=[{}], partitionBy=[{}], orderBy=[{}]{})", function,
                             fmt::join(partition_texts, ", "), fmt::join(order_texts, ", "),
                             spec.limit ? fmt::format(", rankRange=[1..{}]", *spec.limit) : ""));
  }
  std::vector<ScopeColumn> columns = std::move(relation.columns);
  for (ScopeColumn& column : added) columns.push_back(std::move(column));
  columns.push_back({.name = spec.rank_name, .type = DataType::Int64(), .nullable = false});
  return Relation{
      .stream = ranked,
      .columns = std::move(columns),
      .bounded = relation.bounded,
      .changelog = !context.batch() && spec.keep_first_rowtime < 0 && spec.window_end < 0,
      .rowtime = relation.rowtime,
      .window_end = relation.window_end};
}

}  // namespace

bool ContainsOver(const Expr& expr) {
  std::vector<const Expr*> calls;
  CollectOver(expr, calls);
  return !calls.empty();
}

void RegisterRankFilters(PlannerContext& context, const Query& query) {
  if (!query.where || !query.from || query.from->kind != TableRef::Kind::kSubquery) return;
  const Query& inner = *query.from->query;
  if (inner.kind != Query::Kind::kSelect) return;
  std::vector<const Expr*> conjuncts;
  SplitConjuncts(*query.where, conjuncts);
  for (const SelectItem& item : inner.items) {
    if (!item.alias || !item.expr->over || !RankKindOf(*item.expr)) continue;
    for (const Expr* conjunct : conjuncts) {
      std::optional<int64_t> bound = RankBound(*conjunct, *item.alias);
      if (bound && *bound >= 1) context.SetRankLimit(item.expr->over.get(), *bound);
    }
  }
}

Result<Relation> PlanOverCalls(PlannerContext& context, Relation input, ScalarExprPtr where,
                               const std::vector<ExprPtr*>& exprs) {
  std::vector<const Expr*> calls;
  for (const ExprPtr* expr : exprs) CollectOver(**expr, calls);
  Relation relation = std::move(input);
  for (size_t i = 0; i < calls.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(
        relation, PlanRank(context, std::move(relation), i == 0 ? std::move(where) : nullptr,
                           *calls[i], static_cast<int>(i)));
  }
  for (ExprPtr* expr : exprs) {
    *expr = RewriteExpr(**expr, [&](const Expr& node) -> ExprPtr {
      for (size_t i = 0; i < calls.size(); ++i) {
        if (&node == calls[i]) return ColumnRef(fmt::format("$over{}", i), node.position);
      }
      return nullptr;
    });
  }
  return relation;
}

}  // namespace floe::sql::plan
