#include "floe/sql/plan/subquery.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/aggregate.h"
#include "floe/sql/plan/ast_rewrite.h"
#include "floe/sql/plan/project.h"
#include "floe/sql/plan/select.h"
#include "floe/sql/plan/sources.h"
#include "floe/sql/printer.h"
#include "floe/sql/scalar/type_rules.h"

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

// The subquery side: a stream whose first columns are the join keys, and the outer expressions
// they equal, in the same order.
struct Inner {
  Relation relation;
  std::vector<ScalarExprPtr> outer_keys;
  std::vector<ScalarExprPtr> inner_keys;  // over `relation` before the key projection
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

Result<Inner> PlanInner(PlannerContext& context, const SubqueryPredicate& predicate,
                        const Scope& outer) {
  const Query& query = *predicate.query;
  if (!IsPlainSelect(query)) {
    // Planned as a query of its own: it cannot name outer columns.
    FLOE_ASSIGN_OR_RETURN(Relation relation, PlanQueryNode(context, query));
    Inner out{.relation = std::move(relation)};
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
  Scope inner = out.relation.scope();
  if (predicate.operand != nullptr) {
    if (query.items.size() != 1 || query.items[0].expr->kind == ExprKind::kStar) {
      return InvalidArgument("the subquery of {} must select exactly one column",
                             PrintExpr(*predicate.conjunct));
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, BindScalar(*query.items[0].expr, inner));
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr operand, BindScalar(*predicate.operand, outer));
    out.inner_keys.push_back(std::move(column));
    out.outer_keys.push_back(std::move(operand));
  }
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
    for (size_t i = 0; i < out.relation.columns.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(
          ScalarExprPtr column,
          BindScalar(
              *ColumnRef(out.relation.stream.schema()->field(static_cast<int>(i)).name, Position{}),
              Scope::ForSchema(*out.relation.stream.schema())));
      projection.columns.push_back(std::move(column));
      projection.names.push_back(out.relation.stream.schema()->field(static_cast<int>(i)).name);
    }
    context.Note(fmt::format("Calc(where=[{}])", projection.filter->ToString()));
    out.relation.stream =
        Project(out.relation.stream, std::move(projection), context.UniqueName("SubqueryFilter"));
  }
  return out;
}

// `exprs` as the columns of `stream` (cast to `types`), after its own columns when `keep` is set.
Result<stream::DataStream> ProjectKeys(PlannerContext& context, const stream::DataStream& stream,
                                       std::vector<ScalarExprPtr> exprs,
                                       const std::vector<DataTypePtr>& types, bool keep,
                                       std::string_view name) {
  Projection projection;
  if (keep) {
    Scope scope = Scope::ForSchema(*stream.schema());
    for (int i = 0; i < stream.schema()->num_fields(); ++i) {
      const std::string& field = stream.schema()->field(i).name;
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, BindScalar(*ColumnRef(field, Position{}), scope));
      projection.columns.push_back(std::move(column));
      projection.names.push_back(fmt::format("$c{}", i));
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
    // IN's key comes first. Correlated, SQL's null rules would apply per correlated group: only
    // the case where they cannot arise is planned.
    bool nullable = inner.outer_keys[0]->nullable() || inner.inner_keys[0]->nullable();
    if (!inner.correlated) {
      kind = exec::JoinKind::kNullAwareAnti;
    } else if (nullable) {
      return Unsupported(
          "{}: a correlated NOT IN over nullable columns is not supported; write NOT EXISTS, or "
          "filter out the nulls",
          PrintExpr(*predicate.conjunct));
    }
  }

  std::vector<DataTypePtr> types;
  std::vector<std::string> shown;
  for (size_t i = 0; i < inner.outer_keys.size(); ++i) {
    const DataTypePtr& a = inner.outer_keys[i]->type();
    const DataTypePtr& b = inner.inner_keys[i]->type();
    std::optional<DataTypePtr> common = scalar::CommonType(a, b);
    if (!common) {
      return InvalidArgument("{}: {} ({}) cannot be compared with {} ({})",
                             PrintExpr(*predicate.conjunct), inner.outer_keys[i]->ToString(),
                             a->ToString(), inner.inner_keys[i]->ToString(), b->ToString());
    }
    types.push_back(*common);
    shown.push_back(
        fmt::format("{} = {}", inner.outer_keys[i]->ToString(), inner.inner_keys[i]->ToString()));
  }
  FLOE_ASSIGN_OR_RETURN(stream::DataStream right,
                        ProjectKeys(context, inner.relation.stream, inner.inner_keys, types,
                                    /*keep=*/false, "SubqueryKeys"));
  std::vector<int> left_keys;
  std::vector<int> right_keys;
  stream::DataStream left = input.stream;
  bool projected = false;
  for (size_t i = 0; i < inner.outer_keys.size(); ++i) {
    std::optional<int> column = inner.outer_keys[i]->column_index();
    if (!column || !inner.outer_keys[i]->type()->Equals(*types[i])) projected = true;
    left_keys.push_back(column.value_or(-1));
    right_keys.push_back(static_cast<int>(i));
  }
  const int width = input.stream.schema()->num_fields();
  if (projected) {
    FLOE_ASSIGN_OR_RETURN(left, ProjectKeys(context, input.stream, inner.outer_keys, types,
                                            /*keep=*/true, "SubqueryOperand"));
    for (size_t i = 0; i < left_keys.size(); ++i) left_keys[i] = width + static_cast<int>(i);
  }
  std::string_view name = kind == exec::JoinKind::kLeftSemi        ? "LeftSemiJoin"
                          : kind == exec::JoinKind::kNullAwareAnti ? "NullAwareLeftAntiJoin"
                                                                   : "LeftAntiJoin";
  FLOE_ASSIGN_OR_RETURN(stream::DataStream joined,
                        exec::Join(left, right, kind, std::move(left_keys), std::move(right_keys)));
  context.Note(fmt::format("{}(keys=[{}])", name, fmt::join(shown, ", ")));
  if (projected) {
    Projection back;
    Scope scope = Scope::ForSchema(*joined.schema());
    for (int i = 0; i < width; ++i) {
      FLOE_ASSIGN_OR_RETURN(
          ScalarExprPtr column,
          BindScalar(*ColumnRef(joined.schema()->field(i).name, Position{}), scope));
      back.columns.push_back(std::move(column));
      back.names.push_back(input.stream.schema()->field(i).name);
    }
    joined = Project(joined, std::move(back), context.UniqueName("DropSubqueryKeys"));
  }
  input.stream = joined;
  return input;
}

}  // namespace

bool ContainsSubquery(const Expr& expr) {
  if (expr.query) return true;
  for (const ExprPtr& arg : expr.args) {
    if (arg && ContainsSubquery(*arg)) return true;
  }
  return false;
}

namespace {

bool IsScalarSubquery(const Expr& expr) {
  return expr.kind == ExprKind::kSubquery && expr.op != "EXISTS" && expr.query != nullptr;
}

Status CheckOnlyScalarSubqueries(const Expr& expr) {
  if (expr.query && !IsScalarSubquery(expr)) {
    return Unsupported(
        "{}: IN and EXISTS subqueries are supported as conditions and-ed into WHERE, not inside "
        "other expressions",
        PrintExpr(expr));
  }
  if (IsScalarSubquery(expr)) return {};
  for (const ExprPtr& arg : expr.args) {
    if (arg) FLOE_RETURN_IF_ERROR(CheckOnlyScalarSubqueries(*arg));
  }
  return {};
}

std::string ScalarColumnName(size_t index) { return fmt::format("$scalar{}", index); }

}  // namespace

Result<ExprPtr> ScalarSubqueries::Replace(const Expr& expr) {
  FLOE_RETURN_IF_ERROR(CheckOnlyScalarSubqueries(expr));
  return RewriteExpr(expr, [this](const Expr& node) -> ExprPtr {
    if (!IsScalarSubquery(node)) return nullptr;
    found_.push_back(&node);
    return ColumnRef(ScalarColumnName(found_.size() - 1), node.position);
  });
}

Result<Relation> ScalarSubqueries::Join(PlannerContext& context, Relation relation) {
  for (; joined_ < found_.size(); ++joined_) {
    const Expr& node = *found_[joined_];
    const std::string text = PrintExpr(node);
    if (!context.batch()) {
      return Unsupported(
          "scalar subquery {}: supported in batch mode only (SET 'execution.runtime-mode' = "
          "'batch'): floe has no streaming join",
          text);
    }
    Result<Relation> planned = PlanQueryNode(context, *node.query);
    if (!planned.has_value()) {
      Error error = std::move(planned).error();
      error.AddContext(fmt::format(
          "scalar subquery {} (it cannot refer to the outer query's columns: correlated scalar "
          "subqueries are not supported)",
          text));
      return std::unexpected(std::move(error));
    }
    if (!planned->bounded || !relation.bounded) {
      return Unsupported("scalar subquery {}: over an unbounded (streaming) input", text);
    }
    const std::string name = ScalarColumnName(joined_);
    FLOE_ASSIGN_OR_RETURN(stream::DataStream single,
                          exec::SingleValue(planned->stream, name, "scalar subquery " + text));
    FLOE_ASSIGN_OR_RETURN(relation.stream,
                          exec::Join(relation.stream, single, exec::JoinKind::kCross, {}, {}));
    context.Note(fmt::format("SingleValue({}) NestedLoopJoin(joinType=[CrossJoin])", name));
    relation.columns.push_back(
        ScopeColumn{.name = name, .type = single.schema()->field(0).type, .nullable = true});
  }
  return relation;
}

Result<Relation> PlanSubqueryPredicates(PlannerContext& context, Relation input, const Expr& where,
                                        ScalarSubqueries& scalars, ExprPtr& remaining) {
  std::vector<const Expr*> conjuncts;
  SplitConjuncts(where, conjuncts);
  std::vector<SubqueryPredicate> predicates;
  std::vector<ExprPtr> rest_owned;
  for (const Expr* conjunct : conjuncts) {
    if (std::optional<SubqueryPredicate> predicate = AsSubqueryPredicate(*conjunct)) {
      predicates.push_back(*predicate);
    } else {
      FLOE_ASSIGN_OR_RETURN(ExprPtr replaced, scalars.Replace(*conjunct));
      rest_owned.push_back(std::move(replaced));
    }
  }
  std::vector<const Expr*> rest;
  for (const ExprPtr& expr : rest_owned) rest.push_back(expr.get());
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
  for (const SubqueryPredicate& predicate : predicates) {
    FLOE_ASSIGN_OR_RETURN(input, PlanPredicate(context, std::move(input), predicate));
  }
  remaining = AndAll(rest);
  return input;
}

}  // namespace floe::sql::plan
