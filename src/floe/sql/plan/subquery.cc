#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/aggregate_internal.h"
#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/project_internal.h"
#include "floe/sql/plan/select_internal.h"
#include "floe/sql/plan/sources_internal.h"
#include "floe/sql/plan/subquery_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql::plan {
namespace {

// One WHERE conjunct with a subquery, NOTs taken off.
struct SubqueryPredicate {
  const Expr* conjunct = nullptr;
  const Expr* operand = nullptr;  // IN's left side; null for EXISTS
  const Query* query = nullptr;
  bool negated = false;
};

std::optional<SubqueryPredicate> AsSubqueryPredicate(const Expr& conjunct) {
  SubqueryPredicate out{.conjunct = &conjunct};
  const Expr* expr = &conjunct;
  while (expr->kind == ExprKind::kUnary && expr->op == "NOT") {
    out.negated = !out.negated;
    expr = expr->args[0].get();
  }
  if (expr->kind == ExprKind::kIn && expr->query) {
    out.negated = out.negated != expr->negated;
    out.operand = expr->args[0].get();
    out.query = expr->query.get();
    return out;
  }
  if (expr->kind == ExprKind::kSubquery && expr->op == "EXISTS") {
    out.query = expr->query.get();
    return out;
  }
  return std::nullopt;
}

// A subquery whose FROM, WHERE and select list the planner takes apart itself, so that its WHERE
// may name outer columns.
bool IsPlainSelect(const Query& query) {
  return query.kind == Query::Kind::kSelect && query.from && !query.distinct &&
         !IsAggregateQuery(query) && query.order_by.empty() && !query.limit && !query.offset;
}

// The subquery side: its rows, the key expressions over them and the outer expressions they
// equal, in the same order (IN's value and operand first).
struct Inner {
  Relation relation;
  std::vector<ScalarExprPtr> outer_keys;
  std::vector<ScalarExprPtr> inner_keys;     // over `relation` before the key projection
  std::vector<const Expr*> inner_key_exprs;  // the correlation keys as written
  bool correlated = false;
};

Status SplitCorrelation(const Expr& conjunct, const Scope& inner, const Scope& outer, Inner& out,
                        std::vector<const Expr*>& local) {
  auto inner_bound = BindScalar(conjunct, inner);
  if (inner_bound.has_value()) {
    local.push_back(&conjunct);
    return {};
  }
  if (conjunct.kind == ExprKind::kBinary && conjunct.op == "=") {
    for (int side = 0; side < 2; ++side) {
      const Expr& mine = *conjunct.args[side];
      const Expr& theirs = *conjunct.args[1 - side];
      auto a = BindScalar(mine, inner);
      if (!a.has_value() || BindScalar(theirs, inner).has_value()) continue;
      auto b = BindScalar(theirs, outer);
      if (!b.has_value()) continue;
      out.inner_keys.push_back(*a);
      out.inner_key_exprs.push_back(&mine);
      out.outer_keys.push_back(*b);
      out.correlated = true;
      return {};
    }
  }
  std::vector<ScopeColumn> both = inner.columns();
  both.insert(both.end(), outer.columns().begin(), outer.columns().end());
  if (!BindScalar(conjunct, Scope(std::move(both))).has_value()) {
    return std::unexpected(inner_bound.error());
  }
  return Unsupported(
      "subquery condition {}: a subquery may refer to the outer query only through equalities "
      "between its columns and the outer ones (inner.k = outer.k)",
      PrintExpr(conjunct));
}

// A scope naming each column of `schema` by its index, whatever its name (names may repeat).
std::vector<ScopeColumn> IndexColumns(const BatchSchema& schema) {
  std::vector<ScopeColumn> columns;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& field = schema.field(i);
    columns.push_back(ScopeColumn{
        .name = fmt::format("$#{}", i), .type = field.type, .nullable = field.nullable});
  }
  return columns;
}

Result<ScalarExprPtr> ColumnAt(const Scope& index_scope, int i) {
  return BindScalar(*ColumnRef(fmt::format("$#{}", i), Position{}), index_scope);
}

// Splits the WHERE of a plain subquery into correlation keys (added to `out`) and the conditions
// on its own rows, which filter `out.relation`.
Status FilterInner(PlannerContext& context, const Query& query, const Scope& outer, Inner& out) {
  Scope inner = out.relation.scope();
  std::vector<const Expr*> local;
  if (query.where) {
    std::vector<const Expr*> conjuncts;
    SplitConjuncts(*query.where, conjuncts);
    for (const Expr* conjunct : conjuncts) {
      if (ContainsSubquery(*conjunct)) {
        return Unsupported("nested subqueries are not supported: {}", PrintExpr(*conjunct));
      }
      FLOE_RETURN_IF_ERROR(SplitCorrelation(*conjunct, inner, outer, out, local));
    }
  }
  if (!local.empty()) {
    ExprPtr filter = AndAll(local);
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*filter, inner));
    if (bound->type()->kind() != floe::TypeKind::kBool) {
      return InvalidArgument("WHERE {} is not a boolean", PrintExpr(*filter));
    }
    Projection projection{.filter = std::move(bound)};
    const BatchSchema& schema = *out.relation.stream.schema();
    Scope by_index(IndexColumns(schema));
    for (int i = 0; i < schema.num_fields(); ++i) {
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, ColumnAt(by_index, i));
      projection.columns.push_back(std::move(column));
      projection.names.push_back(schema.field(i).name);
    }
    context.Note(fmt::format("Calc(where=[{}])", projection.filter->ToString()));
    out.relation.stream =
        Project(out.relation.stream, std::move(projection), context.UniqueName("SubqueryFilter"));
  }
  return {};
}

Result<Inner> PlanInner(PlannerContext& context, const SubqueryPredicate& predicate,
                        const Scope& outer) {
  const Query& query = *predicate.query;
  if (!IsPlainSelect(query)) {
    // Planned as a query of its own: it cannot name outer columns.
    Result<Relation> planned = PlanQueryNode(context, query);
    if (!planned.has_value()) {
      Error error = std::move(planned).error();
      error.AddContext(fmt::format(
          "{} (only a SELECT ... FROM ... WHERE without aggregates, GROUP BY, DISTINCT, ORDER BY "
          "or LIMIT may refer to the outer query)",
          PrintExpr(*predicate.conjunct)));
      return std::unexpected(std::move(error));
    }
    Inner out{.relation = std::move(planned).value()};
    if (predicate.operand != nullptr) {
      if (out.relation.columns.size() != 1) {
        return InvalidArgument("the subquery of {} returns {} columns; IN needs exactly one",
                               PrintExpr(*predicate.conjunct), out.relation.columns.size());
      }
      FLOE_ASSIGN_OR_RETURN(
          ScalarExprPtr column,
          BindScalar(*ColumnRef(out.relation.stream.schema()->field(0).name, Position{}),
                     Scope::ForSchema(*out.relation.stream.schema())));
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, BindScalar(*predicate.operand, outer));
      out.inner_keys.push_back(std::move(column));
      out.outer_keys.push_back(std::move(operand));
    }
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(Relation relation, PlanFrom(context, *query.from,
                                                    QueryBlockColumnUse(query), query.where.get()));
  Inner out{.relation = std::move(relation)};
  if (predicate.operand != nullptr) {
    if (query.items.size() != 1 || query.items[0].expr->kind == ExprKind::kStar) {
      return InvalidArgument("the subquery of {} must select exactly one column",
                             PrintExpr(*predicate.conjunct));
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column,
                          BindScalar(*query.items[0].expr, out.relation.scope()));
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, BindScalar(*predicate.operand, outer));
    out.inner_keys.push_back(std::move(column));
    out.outer_keys.push_back(std::move(operand));
  }
  FLOE_RETURN_IF_ERROR(FilterInner(context, query, outer, out));
  return out;
}

// `exprs` as the columns of `stream` (cast to `types`), after its own columns when `keep` is set.
Result<stream::DataStream> ProjectKeys(PlannerContext& context, const stream::DataStream& stream,
                                       std::vector<ScalarExprPtr> exprs,
                                       const std::vector<DataTypePtr>& types, bool keep,
                                       std::string_view name) {
  Projection projection;
  if (keep) {
    Scope scope(IndexColumns(*stream.schema()));
    for (int i = 0; i < stream.schema()->num_fields(); ++i) {
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, ColumnAt(scope, i));
      projection.columns.push_back(std::move(column));
      projection.names.push_back(stream.schema()->field(i).name);
    }
  }
  for (size_t i = 0; i < exprs.size(); ++i) {
    ScalarExprPtr key = std::move(exprs[i]);
    if (!key->type()->Equals(*types[i])) {
      FLOE_ASSIGN_OR_RETURN(key, CastScalar(std::move(key), types[i]));
    }
    projection.columns.push_back(std::move(key));
    projection.names.push_back(fmt::format("$key{}", i));
  }
  return Project(stream, std::move(projection), context.UniqueName(name));
}

// The type each key pair compares as, and the pairs as EXPLAIN shows them.
Result<std::vector<DataTypePtr>> KeyTypes(const Inner& inner, const Expr& what,
                                          std::vector<std::string>& shown) {
  std::vector<DataTypePtr> types;
  for (size_t i = 0; i < inner.outer_keys.size(); ++i) {
    const DataTypePtr& a = inner.outer_keys[i]->type();
    const DataTypePtr& b = inner.inner_keys[i]->type();
    std::optional<DataTypePtr> common = scalar::CommonType(a, b);
    if (!common) {
      return InvalidArgument("{}: {} ({}) cannot be compared with {} ({})", PrintExpr(what),
                             inner.outer_keys[i]->ToString(), a->ToString(),
                             inner.inner_keys[i]->ToString(), b->ToString());
    }
    types.push_back(*common);
    shown.push_back(
        fmt::format("{} = {}", inner.outer_keys[i]->ToString(), inner.inner_keys[i]->ToString()));
  }
  return types;
}

// The outer side of a join with a subquery: its stream, with the key expressions projected after
// its own columns unless each is already a column of the key's type.
struct OuterSide {
  stream::DataStream stream;
  std::vector<int> keys;
};

Result<OuterSide> ProjectOuterKeys(PlannerContext& context, const stream::DataStream& input,
                                   const std::vector<ScalarExprPtr>& keys,
                                   const std::vector<DataTypePtr>& types) {
  OuterSide out{.stream = input};
  bool projected = false;
  for (size_t i = 0; i < keys.size(); ++i) {
    std::optional<int> column = keys[i]->column_index();
    if (!column || !keys[i]->type()->Equals(*types[i])) projected = true;
    out.keys.push_back(column.value_or(-1));
  }
  if (!projected) return out;
  const int width = input.schema()->num_fields();
  FLOE_ASSIGN_OR_RETURN(out.stream,
                        ProjectKeys(context, input, keys, types, /*keep=*/true, "SubqueryOperand"));
  for (size_t i = 0; i < out.keys.size(); ++i) out.keys[i] = width + static_cast<int>(i);
  return out;
}

// Both sides of a join of `input` with a subquery, keyed for `predicate`: the subquery's keys
// alone (0, 1, ...) on the right, the outer query with its key columns on the left, all of the
// types they compare as; `shown` is what the plan notes say of the keys.
struct KeyedSides {
  OuterSide left;
  stream::DataStream right;
  std::vector<int> right_keys;
  std::vector<std::string> shown;
};

Result<KeyedSides> KeySides(PlannerContext& context, const stream::DataStream& input,
                            const SubqueryPredicate& predicate, const Inner& inner) {
  std::vector<std::string> shown;
  FLOE_ASSIGN_OR_RETURN(std::vector<DataTypePtr> types,
                        KeyTypes(inner, *predicate.conjunct, shown));
  FLOE_ASSIGN_OR_RETURN(stream::DataStream right,
                        ProjectKeys(context, inner.relation.stream, inner.inner_keys, types,
                                    /*keep=*/false, "SubqueryKeys"));
  FLOE_ASSIGN_OR_RETURN(OuterSide left, ProjectOuterKeys(context, input, inner.outer_keys, types));
  std::vector<int> right_keys;
  for (size_t i = 0; i < types.size(); ++i) right_keys.push_back(static_cast<int>(i));
  return KeyedSides{.left = std::move(left),
                    .right = std::move(right),
                    .right_keys = std::move(right_keys),
                    .shown = std::move(shown)};
}

// The first columns of `joined` (the outer query's `original` columns), then `extra` (bound over
// IndexColumns of `joined`), with `filter` (over `joined`'s rows) applied; none of it when nothing
// changes.
Result<stream::DataStream> KeepOuterColumns(PlannerContext& context, stream::DataStream joined,
                                            const BatchSchema& original,
                                            std::vector<ScalarExprPtr> extra,
                                            std::vector<std::string> extra_names,
                                            ScalarExprPtr filter = nullptr) {
  const int width = original.num_fields();
  if (!filter && joined.schema()->num_fields() == width + static_cast<int>(extra.size())) {
    bool same = true;
    for (size_t i = 0; i < extra.size(); ++i) {
      same = same && extra[i]->column_index() == width + static_cast<int>(i);
    }
    if (same) return joined;
  }
  Scope scope(IndexColumns(*joined.schema()));
  Projection projection{.filter = std::move(filter)};
  for (int i = 0; i < width; ++i) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, ColumnAt(scope, i));
    projection.columns.push_back(std::move(column));
    projection.names.push_back(original.field(i).name);
  }
  for (size_t i = 0; i < extra.size(); ++i) {
    projection.columns.push_back(std::move(extra[i]));
    projection.names.push_back(std::move(extra_names[i]));
  }
  return Project(joined, std::move(projection), context.UniqueName("SubqueryResult"));
}

// `input` with a column `name` appended: the mark of `predicate` (TRUE, FALSE or NULL) per row.
Result<Relation> MarkJoinInner(PlannerContext& context, Relation input,
                               const SubqueryPredicate& predicate, Inner inner,
                               const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(KeyedSides sides, KeySides(context, input.stream, predicate, inner));
  std::optional<std::pair<int, int>> in;
  std::vector<int> left_keys = sides.left.keys;
  std::vector<int> right_keys = std::move(sides.right_keys);
  if (predicate.operand != nullptr) {
    // IN's operand and value come first; the rest are correlation keys.
    in = std::make_pair(left_keys[0], right_keys[0]);
    left_keys.erase(left_keys.begin());
    right_keys.erase(right_keys.begin());
  }
  FLOE_ASSIGN_OR_RETURN(stream::DataStream marked,
                        exec::MarkJoin(sides.left.stream, sides.right, std::move(left_keys),
                                       std::move(right_keys), in, name));
  context.Note(fmt::format("MarkJoin(mark=[{}], keys=[{}])", name, fmt::join(sides.shown, ", ")));
  const int width = sides.left.stream.schema()->num_fields();
  Scope scope(IndexColumns(*marked.schema()));
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr mark, ColumnAt(scope, width));
  FLOE_ASSIGN_OR_RETURN(input.stream, KeepOuterColumns(context, marked, *input.stream.schema(),
                                                       {std::move(mark)}, {name}));
  input.columns.push_back(
      ScopeColumn{.name = name, .type = floe::DataType::Bool(), .nullable = true});
  return input;
}

Result<Relation> PlanPredicate(PlannerContext& context, Relation input,
                               const SubqueryPredicate& predicate) {
  const Scope outer = input.scope();
  FLOE_ASSIGN_OR_RETURN(Inner inner, PlanInner(context, predicate, outer));
  if (!inner.relation.bounded) {
    return Unsupported("{}: the subquery reads an unbounded (streaming) input",
                       PrintExpr(*predicate.conjunct));
  }
  const bool is_in = predicate.operand != nullptr;
  exec::JoinKind kind = predicate.negated ? exec::JoinKind::kLeftAnti : exec::JoinKind::kLeftSemi;
  if (is_in && predicate.negated) {
    // IN's key comes first. Correlated, SQL's null rules apply per correlated group, which the
    // mark join follows; the anti join does when no null can arise.
    bool nullable = inner.outer_keys[0]->nullable() || inner.inner_keys[0]->nullable();
    if (!inner.correlated) {
      kind = exec::JoinKind::kNullAwareAnti;
    } else if (nullable) {
      const BatchSchemaPtr original = input.stream.schema();
      FLOE_ASSIGN_OR_RETURN(Relation marked,
                            MarkJoinInner(context, input, predicate, std::move(inner), "$not_in"));
      Scope scope(IndexColumns(*marked.stream.schema()));
      auto is_false = std::make_unique<Expr>();
      is_false->kind = ExprKind::kUnary;
      is_false->op = "NOT";
      is_false->args.push_back(ColumnRef(fmt::format("$#{}", original->num_fields()), Position{}));
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr filter, BindScalar(*is_false, scope));
      FLOE_ASSIGN_OR_RETURN(input.stream, KeepOuterColumns(context, marked.stream, *original, {},
                                                           {}, std::move(filter)));
      return input;
    }
  }

  FLOE_ASSIGN_OR_RETURN(KeyedSides sides, KeySides(context, input.stream, predicate, inner));
  std::string_view name = kind == exec::JoinKind::kLeftSemi        ? "LeftSemiJoin"
                          : kind == exec::JoinKind::kNullAwareAnti ? "NullAwareLeftAntiJoin"
                                                                   : "LeftAntiJoin";
  FLOE_ASSIGN_OR_RETURN(stream::DataStream joined,
                        exec::Join(sides.left.stream, sides.right, kind, sides.left.keys,
                                   std::move(sides.right_keys)));
  context.Note(fmt::format("{}(keys=[{}])", name, fmt::join(sides.shown, ", ")));
  FLOE_ASSIGN_OR_RETURN(input.stream,
                        KeepOuterColumns(context, joined, *input.stream.schema(), {}, {}));
  return input;
}

bool IsScalarSubquery(const Expr& expr) {
  return expr.kind == ExprKind::kSubquery && expr.op != "EXISTS" && expr.query != nullptr;
}

// A scalar subquery the planner decorrelates: one SELECT item over FROM and WHERE, with no
// grouping, ordering or nested subquery. Others are planned whole and cannot be correlated.
bool IsDecorrelatable(const Query& query) {
  if (query.kind != Query::Kind::kSelect || !query.from || query.distinct ||
      !query.group_by.empty() || query.having || !query.order_by.empty() || query.limit ||
      query.offset || query.items.size() != 1 || query.items[0].expr->kind == ExprKind::kStar) {
    return false;
  }
  return !ContainsSubquery(*query.items[0].expr) &&
         !(query.where && ContainsSubquery(*query.where));
}

// `relation` with `single` (one row, one column: the value) crossed onto every row. The one row
// is broadcast, so the outer rows keep their parallelism.
Result<Relation> CrossSingleRow(PlannerContext& context, Relation relation,
                                const stream::DataStream& single, const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(relation.stream,
                        exec::Join(relation.stream, single, exec::JoinKind::kCross, {}, {}));
  context.Note(fmt::format("NestedLoopJoin(joinType=[CrossJoin], right=[{}])", name));
  const Field& field = single.schema()->field(0);
  relation.columns.push_back(
      ScopeColumn{.name = name, .type = field.type, .nullable = field.nullable});
  return relation;
}

// A scalar subquery that cannot name the outer query's columns, planned as a query of its own.
Result<Relation> PlanWholeScalar(PlannerContext& context, Relation relation, const Expr& node,
                                 const std::string& name) {
  const std::string text = PrintExpr(node);
  Result<Relation> planned = PlanQueryNode(context, *node.query);
  if (!planned.has_value()) {
    Error error = std::move(planned).error();
    error.AddContext(fmt::format(
        "scalar subquery {} (only a single SELECT ... FROM ... WHERE without GROUP BY, HAVING, "
        "DISTINCT, ORDER BY, LIMIT or nested subqueries may refer to the outer query)",
        text));
    return std::unexpected(std::move(error));
  }
  if (!planned->bounded) {
    return Unsupported("scalar subquery {}: over an unbounded (streaming) input", text);
  }
  FLOE_ASSIGN_OR_RETURN(stream::DataStream single,
                        exec::SingleValue(planned->stream, name, "scalar subquery " + text));
  context.Note(fmt::format("SingleValue({})", name));
  return CrossSingleRow(context, std::move(relation), single, name);
}

// A decorrelatable scalar subquery: grouped by its correlation keys (an aggregate) and LEFT
// joined on them, so that an outer row with no inner rows gets what the aggregate gives over no
// rows (COUNT: 0, else NULL); not an aggregate, LEFT joined on the keys with at most one match per
// outer row (NULL for none). Uncorrelated, the single row is crossed onto every outer row.
Result<Relation> PlanScalarColumn(PlannerContext& context, Relation relation, const Expr& node,
                                  const std::string& name) {
  const Query& query = *node.query;
  if (!IsDecorrelatable(query)) return PlanWholeScalar(context, std::move(relation), node, name);
  const std::string what = "scalar subquery " + PrintExpr(node);
  FLOE_ASSIGN_OR_RETURN(
      Relation from, PlanFrom(context, *query.from, QueryBlockColumnUse(query), query.where.get()));
  if (!from.bounded) return Unsupported("{}: over an unbounded (streaming) input", what);
  Inner inner{.relation = std::move(from)};
  FLOE_RETURN_IF_ERROR_CTX(FilterInner(context, query, relation.scope(), inner), what);
  const Expr& item = *query.items[0].expr;
  const size_t key_count = inner.inner_keys.size();
  std::vector<std::string> shown;
  FLOE_ASSIGN_OR_RETURN(std::vector<DataTypePtr> types, KeyTypes(inner, node, shown));

  // The inner side: the keys (cast to the types they compare as) and what the value is computed
  // from after the join: the value itself, or the aggregated columns (the value of a missing
  // group is not NULL for every aggregate).
  std::optional<stream::DataStream> right;
  std::vector<ScopeColumn> value_columns;  // the inner side's columns other than the keys
  ExprPtr value_expr;                      // over value_columns
  bool keys_last = false;                  // keys after value_columns, not before
  if (IsAggregateQuery(query)) {
    std::vector<ExprPtr> group_by;
    for (const Expr* key : inner.inner_key_exprs) group_by.push_back(CloneExpr(*key));
    auto plan = AggregatePlan::Make(context, inner.relation, nullptr, group_by, {&item});
    if (!plan.has_value()) return std::unexpected(std::move(plan.error().AddContext(what)));
    const Relation& aggregated = plan->output();
    if (key_count == 0) {
      // One row, even over no rows.
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr value,
                            BindScalar(*plan->Rewrite(item), aggregated.scope()));
      Projection projection{.columns = {std::move(value)}, .names = {name}};
      stream::DataStream single =
          Project(aggregated.stream, std::move(projection), context.UniqueName("Scalar"));
      return CrossSingleRow(context, std::move(relation), single, name);
    }
    // The group columns are the keys; ProjectKeys adds them cast, after the aggregated columns.
    Scope index_scope(IndexColumns(*aggregated.stream.schema()));
    std::vector<ScalarExprPtr> keys;
    for (size_t i = 0; i < key_count; ++i) {
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr key, ColumnAt(index_scope, static_cast<int>(i)));
      keys.push_back(std::move(key));
    }
    FLOE_ASSIGN_OR_RETURN(right, ProjectKeys(context, aggregated.stream, std::move(keys), types,
                                             /*keep=*/true, "ScalarKeys"));
    value_columns = aggregated.columns;
    value_expr = plan->RewriteNullExtended(item);
    keys_last = true;
  } else {
    // The select item sees the subquery's rows only: outer columns are named in WHERE.
    auto bound = BindScalar(item, inner.relation.scope());
    if (!bound.has_value()) return std::unexpected(std::move(bound.error().AddContext(what)));
    ScalarExprPtr value = *bound;
    if (key_count == 0) {
      Projection projection{.columns = {std::move(value)}, .names = {"$value"}};
      stream::DataStream values =
          Project(inner.relation.stream, std::move(projection), context.UniqueName("Scalar"));
      FLOE_ASSIGN_OR_RETURN(stream::DataStream single, exec::SingleValue(values, name, what));
      context.Note(fmt::format("SingleValue({})", name));
      return CrossSingleRow(context, std::move(relation), single, name);
    }
    std::vector<ScalarExprPtr> columns = inner.inner_keys;
    std::vector<DataTypePtr> column_types = types;
    columns.push_back(value);
    column_types.push_back(value->type());
    FLOE_ASSIGN_OR_RETURN(right, ProjectKeys(context, inner.relation.stream, std::move(columns),
                                             column_types, /*keep=*/false, "ScalarKeys"));
    value_columns.push_back(ScopeColumn{.name = "$value", .type = value->type()});
    value_expr = ColumnRef("$value", Position{});
  }

  FLOE_ASSIGN_OR_RETURN(OuterSide left,
                        ProjectOuterKeys(context, relation.stream, inner.outer_keys, types));
  const int right_width = right->schema()->num_fields();
  const int first_key = keys_last ? right_width - static_cast<int>(key_count) : 0;
  std::vector<int> right_keys;
  for (size_t i = 0; i < key_count; ++i) right_keys.push_back(first_key + static_cast<int>(i));
  // Grouped, a key has one row; otherwise an outer row with two matches fails the query.
  const exec::JoinKind kind = keys_last ? exec::JoinKind::kLeft : exec::JoinKind::kLeftSingle;
  FLOE_ASSIGN_OR_RETURN(stream::DataStream joined, exec::Join(left.stream, *right, kind, left.keys,
                                                              std::move(right_keys), {}, what));
  context.Note(fmt::format("{}(keys=[{}], right=[{}])",
                           keys_last ? "LeftOuterJoin" : "LeftSingleJoin", fmt::join(shown, ", "),
                           name));

  // The value over the joined rows, naming only the subquery's columns (the others are named
  // by index, which SQL text cannot write).
  const int left_width = left.stream.schema()->num_fields();
  std::vector<ScopeColumn> scope = IndexColumns(*joined.schema());
  const int value_start = left_width + (keys_last ? 0 : static_cast<int>(key_count));
  for (size_t i = 0; i < value_columns.size(); ++i) {
    ScopeColumn& column = scope[value_start + static_cast<int>(i)];
    column.qualifier = value_columns[i].qualifier;
    column.name = value_columns[i].name;
  }
  auto bound = BindScalar(*value_expr, Scope(std::move(scope)));
  if (!bound.has_value()) return std::unexpected(std::move(bound.error().AddContext(what)));
  ScalarExprPtr value = *bound;
  FLOE_ASSIGN_OR_RETURN(
      relation.stream,
      KeepOuterColumns(context, joined, *relation.stream.schema(), {value}, {name}));
  relation.columns.push_back(
      ScopeColumn{.name = name, .type = value->type(), .nullable = value->nullable()});
  return relation;
}

std::string SubqueryColumnName(size_t index) { return fmt::format("$subquery{}", index); }

}  // namespace

bool ContainsSubquery(const Expr& expr) {
  if (expr.query) return true;
  for (const ExprPtr& arg : expr.args) {
    if (arg && ContainsSubquery(*arg)) return true;
  }
  return false;
}

ExprPtr SubqueryColumns::Replace(const Expr& expr) {
  return RewriteExpr(expr, [this](const Expr& node) -> ExprPtr {
    if (!node.query) return nullptr;
    Found found{.node = &node};
    if (node.kind == ExprKind::kIn) found.operand = Replace(*node.args[0]);
    found_.push_back(std::move(found));
    ExprPtr column = ColumnRef(SubqueryColumnName(found_.size() - 1), node.position);
    if (node.kind != ExprKind::kIn || !node.negated) return column;
    auto negated = std::make_unique<Expr>();
    negated->kind = ExprKind::kUnary;
    negated->op = "NOT";
    negated->position = node.position;
    negated->args.push_back(std::move(column));
    return negated;
  });
}

std::vector<const Expr*> SubqueryColumns::pending_operands() const {
  std::vector<const Expr*> out;
  for (size_t i = joined_; i < found_.size(); ++i) {
    if (found_[i].operand) out.push_back(found_[i].operand.get());
  }
  return out;
}

Result<Relation> SubqueryColumns::Join(PlannerContext& context, Relation relation,
                                       const std::function<ExprPtr(const Expr&)>& over) {
  for (; joined_ < found_.size(); ++joined_) {
    const Found& found = found_[joined_];
    const Expr& node = *found.node;
    const std::string name = SubqueryColumnName(joined_);
    const std::string kind = IsScalarSubquery(node) ? "scalar subquery" : "subquery predicate";
    if (!context.batch()) {
      return Unsupported(
          "{} {}: supported in batch mode only (SET 'execution.runtime-mode' = 'batch'): floe has "
          "no streaming join",
          kind, PrintExpr(node));
    }
    if (!relation.bounded) {
      return Unsupported("{} {}: over an unbounded (streaming) input", kind, PrintExpr(node));
    }
    if (IsScalarSubquery(node)) {
      FLOE_ASSIGN_OR_RETURN(relation, PlanScalarColumn(context, std::move(relation), node, name));
      continue;
    }
    ExprPtr operand;
    if (found.operand) operand = over ? over(*found.operand) : CloneExpr(*found.operand);
    SubqueryPredicate predicate{
        .conjunct = &node, .operand = operand.get(), .query = node.query.get()};
    FLOE_ASSIGN_OR_RETURN(Inner inner, PlanInner(context, predicate, relation.scope()));
    if (!inner.relation.bounded) {
      return Unsupported("{}: the subquery reads an unbounded (streaming) input", PrintExpr(node));
    }
    FLOE_ASSIGN_OR_RETURN(
        relation, MarkJoinInner(context, std::move(relation), predicate, std::move(inner), name));
  }
  return relation;
}

Result<Relation> PlanSubqueryPredicates(PlannerContext& context, Relation input, const Expr& where,
                                        SubqueryColumns& subqueries, ExprPtr& remaining) {
  std::vector<const Expr*> conjuncts;
  SplitConjuncts(where, conjuncts);
  std::vector<const Expr*> plain;
  std::vector<SubqueryPredicate> predicates;
  std::vector<ExprPtr> rest_owned;
  for (const Expr* conjunct : conjuncts) {
    if (!ContainsSubquery(*conjunct)) {
      plain.push_back(conjunct);
    } else if (std::optional<SubqueryPredicate> predicate = AsSubqueryPredicate(*conjunct)) {
      predicates.push_back(*predicate);
    } else {
      rest_owned.push_back(subqueries.Replace(*conjunct));
    }
  }
  if (!predicates.empty() && !context.batch()) {
    return Unsupported(
        "{}: IN and EXISTS subqueries are supported in batch mode only (SET "
        "'execution.runtime-mode' = 'batch'): floe has no streaming join",
        PrintExpr(*predicates[0].conjunct));
  }
  if (!predicates.empty() && !input.bounded) {
    return Unsupported("{}: a subquery condition over an unbounded (streaming) input",
                       PrintExpr(*predicates[0].conjunct));
  }
  if (!plain.empty()) {
    // The conditions without subqueries first: the subqueries then meet only the rows they keep
    // (a correlated scalar subquery fails only for rows that reach it).
    ExprPtr filter = AndAll(plain);
    if (ContainsAggregate(*filter)) {
      return InvalidArgument("aggregate calls are not allowed in WHERE: {}", PrintExpr(*filter));
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*filter, input.scope()));
    if (bound->type()->kind() != floe::TypeKind::kBool) {
      return InvalidArgument("WHERE {} is not a boolean", PrintExpr(*filter));
    }
    context.Note(fmt::format("Calc(where=[{}])", bound->ToString()));
    FLOE_ASSIGN_OR_RETURN(input.stream, KeepOuterColumns(context, input.stream,
                                                         *input.stream.schema(), {}, {}, bound));
  }
  for (const SubqueryPredicate& predicate : predicates) {
    FLOE_ASSIGN_OR_RETURN(input, PlanPredicate(context, std::move(input), predicate));
  }
  std::vector<const Expr*> rest;
  for (const ExprPtr& expr : rest_owned) rest.push_back(expr.get());
  remaining = AndAll(rest);
  return input;
}

}  // namespace floe::sql::plan
