#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/aggregate_internal.h"
#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/names_internal.h"
#include "floe/sql/plan/over_internal.h"
#include "floe/sql/plan/project_internal.h"
#include "floe/sql/plan/select_internal.h"
#include "floe/sql/plan/sources_internal.h"
#include "floe/sql/plan/subquery_internal.h"
#include "floe/sql/plan/with_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/sql/syntax/printer.h"
#include "floe/stream/collection_source.h"

namespace floe::sql::plan {
namespace {

// The type both sides of a UNION column (or the rows of a VALUES column) become: Flink's
// widening, as the binder applies it to CASE and IN (scalar/type_rules.h).
Result<DataTypePtr> UnifiedType(const DataTypePtr& a, const DataTypePtr& b, std::string_view what) {
  std::optional<DataTypePtr> common = scalar::CommonType(a, b);
  if (!common) {
    return InvalidArgument("{}: types {} and {} have no common type", what, a->ToString(),
                           b->ToString());
  }
  return *common;
}

// ORDER BY, LIMIT and OFFSET as the select block resolved them: sort keys over the projected
// columns (the output columns, then hidden ones computed only to sort by).
struct Ordering {
  std::vector<exec::SortKey> keys;
  std::optional<int64_t> limit;
  int64_t offset = 0;
};

Result<int64_t> NonNegativeConstant(const Expr& expr, std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(Value value, EvaluateConstant(expr));
  if (!value.is<int64_t>() || value.get<int64_t>() < 0) {
    return InvalidArgument("{} must be a non-negative integer, not {}", what, PrintExpr(expr));
  }
  return value.get<int64_t>();
}

Status ResolveLimit(const Query& query, Ordering& ordering) {
  if (query.limit) {
    FLOE_ASSIGN_OR_RETURN(int64_t limit, NonNegativeConstant(*query.limit, "LIMIT"));
    ordering.limit = limit;
  }
  if (query.offset) {
    FLOE_ASSIGN_OR_RETURN(ordering.offset, NonNegativeConstant(*query.offset, "OFFSET"));
  }
  return {};
}

Relation OutputRelation(stream::DataStream stream, bool bounded, bool changelog) {
  std::vector<ScopeColumn> columns = ColumnsOf(*stream.schema(), "");
  for (ScopeColumn& column : columns) column.field_id.reset();
  return Relation{
      .stream = stream, .columns = std::move(columns), .bounded = bounded, .changelog = changelog};
}

// Sort and/or limit `relation`, whose first `visible` columns are the result.
Result<Relation> ApplyOrdering(PlannerContext& context, Relation relation, const Ordering& ordering,
                               int visible) {
  stream::DataStream stream = relation.stream;
  if (!ordering.keys.empty()) {
    if (!relation.bounded) {
      return Unsupported(
          "ORDER BY over an unbounded (streaming) input is not supported: Flink sorts streams only "
          "on a time attribute; use batch mode or a bounded read");
    }
    std::vector<std::string> shown;
    for (const exec::SortKey& key : ordering.keys) {
      shown.push_back(fmt::format("{} {}", stream.schema()->field(key.column).name,
                                  key.descending ? "DESC" : "ASC"));
    }
    FLOE_ASSIGN_OR_RETURN(stream,
                          exec::Sort(stream, ordering.keys, ordering.limit, ordering.offset));
    context.Note(fmt::format("Sort(orderBy=[{}]{}{})", fmt::join(shown, ", "),
                             ordering.limit ? fmt::format(", limit={}", *ordering.limit) : "",
                             ordering.offset ? fmt::format(", offset={}", ordering.offset) : ""));
  } else if (ordering.limit || ordering.offset > 0) {
    FLOE_ASSIGN_OR_RETURN(stream, exec::Limit(stream, ordering.limit, ordering.offset));
    context.Note(fmt::format("Limit({}offset={})",
                             ordering.limit ? fmt::format("limit={}, ", *ordering.limit) : "",
                             ordering.offset));
  }
  if (visible < stream.schema()->num_fields()) {
    Scope scope = Scope::ForSchema(*stream.schema());
    Projection drop;
    for (int i = 0; i < visible; ++i) {
      FLOE_ASSIGN_OR_RETURN(
          ScalarExprPtr column,
          BindScalar(*ColumnRef(stream.schema()->field(i).name, Position{}), scope));
      drop.columns.push_back(std::move(column));
      drop.names.push_back(stream.schema()->field(i).name);
    }
    stream = Project(stream, std::move(drop), context.UniqueName("DropSortColumns"));
  }
  return OutputRelation(stream, relation.bounded, relation.changelog);
}

// ORDER BY of VALUES and UNION: positions and output column names only.
Result<Relation> OrderOutput(PlannerContext& context, Relation relation, const Query& query) {
  Ordering ordering;
  FLOE_RETURN_IF_ERROR(ResolveLimit(query, ordering));
  Scope scope(relation.columns);
  for (const OrderItem& item : query.order_by) {
    int column = -1;
    if (item.expr->kind == ExprKind::kLiteral && item.expr->literal == LiteralKind::kInteger) {
      column = std::stoi(item.expr->text) - 1;
      if (column < 0 || column >= static_cast<int>(relation.columns.size())) {
        return InvalidArgument("ORDER BY position {} is not in the select list", item.expr->text);
      }
    } else {
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*item.expr, scope));
      if (!bound->column_index()) {
        return Unsupported("ORDER BY {}: only result columns can order a VALUES or UNION",
                           PrintExpr(*item.expr));
      }
      column = *bound->column_index();
    }
    ordering.keys.push_back(
        exec::SortKey{.column = column,
                      .descending = item.descending,
                      .nulls_first = item.nulls_first.value_or(!item.descending)});
  }
  int visible = static_cast<int>(relation.columns.size());
  return ApplyOrdering(context, std::move(relation), ordering, visible);
}

// Casts every column of `relation` to `types` where they differ.
Result<Relation> CastColumns(PlannerContext& context, Relation relation,
                             const std::vector<DataTypePtr>& types) {
  bool same = true;
  for (size_t i = 0; i < types.size(); ++i) {
    same = same && scalar::SameSqlType(*relation.columns[i].type, *types[i]);
  }
  if (same) return relation;
  Scope scope = Scope::ForSchema(*relation.stream.schema());
  Projection cast;
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string& name = relation.stream.schema()->field(static_cast<int>(i)).name;
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column, BindScalar(*ColumnRef(name, Position{}), scope));
    if (!scalar::SameSqlType(*column->type(), *types[i])) {
      FLOE_ASSIGN_OR_RETURN(column, CastScalar(std::move(column), types[i]));
    }
    cast.columns.push_back(std::move(column));
    cast.names.push_back(name);
  }
  stream::DataStream stream =
      Project(relation.stream, std::move(cast), context.UniqueName("UnionCast"));
  return OutputRelation(stream, relation.bounded, relation.changelog);
}

Result<Relation> Distinct(PlannerContext& context, const Relation& relation) {
  std::vector<int> all;
  for (size_t i = 0; i < relation.columns.size(); ++i) all.push_back(static_cast<int>(i));
  FLOE_ASSIGN_OR_RETURN(stream::DataStream stream, exec::Aggregate(relation.stream, all, {}));
  context.Note("Distinct");
  return OutputRelation(stream, relation.bounded, relation.changelog || !context.batch());
}

// UNION, INTERSECT or EXCEPT: the branches' columns meet in their common types.
Result<Relation> PlanSetOperation(PlannerContext& context, const Query& query) {
  std::string_view what = query.kind == Query::Kind::kUnion       ? "UNION"
                          : query.kind == Query::Kind::kIntersect ? "INTERSECT"
                                                                  : "EXCEPT";
  FLOE_ASSIGN_OR_RETURN(Relation left, PlanQueryNode(context, *query.left));
  FLOE_ASSIGN_OR_RETURN(Relation right, PlanQueryNode(context, *query.right));
  if (left.columns.size() != right.columns.size()) {
    return InvalidArgument("{} branches have {} and {} columns", what, left.columns.size(),
                           right.columns.size());
  }
  std::vector<DataTypePtr> types;
  for (size_t i = 0; i < left.columns.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(DataTypePtr type, UnifiedType(left.columns[i].type, right.columns[i].type,
                                                        fmt::format("{} column {} ({})", what,
                                                                    i + 1, left.columns[i].name)));
    types.push_back(std::move(type));
  }
  FLOE_ASSIGN_OR_RETURN(left, CastColumns(context, std::move(left), types));
  FLOE_ASSIGN_OR_RETURN(right, CastColumns(context, std::move(right), types));
  const bool bounded = left.bounded && right.bounded;
  if (query.kind == Query::Kind::kUnion) {
    FLOE_ASSIGN_OR_RETURN(stream::DataStream stream, exec::UnionAll({left.stream, right.stream}));
    context.Note("UnionAll");
    Relation relation = OutputRelation(stream, bounded, left.changelog || right.changelog);
    if (!query.all) {
      FLOE_ASSIGN_OR_RETURN(relation, Distinct(context, relation));
    }
    return OrderOutput(context, std::move(relation), query);
  }
  bool intersect = query.kind == Query::Kind::kIntersect;
  FLOE_ASSIGN_OR_RETURN(
      stream::DataStream stream,
      exec::IntersectExcept(
          left.stream, right.stream,
          intersect ? exec::SetOperation::kIntersect : exec::SetOperation::kExcept, query.all));
  context.Note(fmt::format("{}(all={})", intersect ? "Intersect" : "Except", query.all));
  return OrderOutput(context, OutputRelation(stream, bounded, !context.batch()), query);
}

Result<Relation> PlanValues(PlannerContext& context, const Query& query) {
  if (query.rows.empty()) return InvalidArgument("VALUES without rows");
  size_t width = query.rows[0].size();
  Scope empty;
  std::vector<std::vector<ScalarExprPtr>> rows;
  std::vector<DataTypePtr> types(width);
  std::vector<bool> nullable(width, false);
  for (const auto& row : query.rows) {
    if (row.size() != width) {
      return InvalidArgument("VALUES rows have {} and {} values", width, row.size());
    }
    std::vector<ScalarExprPtr> bound_row;
    for (size_t c = 0; c < width; ++c) {
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*row[c], empty));
      if (types[c]) {
        FLOE_ASSIGN_OR_RETURN(types[c], UnifiedType(types[c], bound->type(),
                                                    fmt::format("VALUES column EXPR${}", c)));
      } else {
        types[c] = bound->type();
      }
      nullable[c] = nullable[c] || bound->nullable();
      bound_row.push_back(std::move(bound));
    }
    rows.push_back(std::move(bound_row));
  }
  // Evaluated once here: the rows are constants, and a bad one (1/0) fails the statement.
  auto one_row_schema = std::make_shared<BatchSchema>(std::vector<Field>{});
  FLOE_ASSIGN_OR_RETURN(RecordBatch one_row, RecordBatch::Make(one_row_schema, {}, 1));
  std::vector<Field> fields;
  std::vector<Array> columns;
  for (size_t c = 0; c < width; ++c) {
    std::vector<Value> values;
    for (const auto& row : rows) {
      ScalarExprPtr value = row[c];
      if (!scalar::SameSqlType(*value->type(), *types[c])) {
        FLOE_ASSIGN_OR_RETURN(value, CastScalar(value, types[c]));
      }
      FLOE_ASSIGN_OR_RETURN(Array array, value->Evaluate(one_row));
      values.push_back(GetValue(array, 0));
    }
    FLOE_ASSIGN_OR_RETURN(Array column, MakeArray(types[c], values));
    fields.push_back(
        Field{.name = fmt::format("EXPR${}", c), .type = types[c], .nullable = nullable[c]});
    columns.push_back(std::move(column));
  }
  auto schema = std::make_shared<BatchSchema>(std::move(fields));
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                        RecordBatch::Make(schema, std::move(columns), query.rows.size()));
  auto source = std::make_shared<stream::CollectionSource>(schema, std::vector<RecordBatch>{batch});
  context.Note(fmt::format("Values(rows={})", query.rows.size()));
  stream::DataStream stream = context.env().FromSource(source, context.UniqueName("Values"), 1);
  Relation relation = OutputRelation(stream, true, false);
  return OrderOutput(context, std::move(relation), query);
}

// FROM-less SELECT: one row with no columns.
Relation SingleRow(PlannerContext& context) {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{});
  std::vector<RecordBatch> batches;
  if (auto batch = RecordBatch::Make(schema, {}, 1); batch.has_value()) {
    batches.push_back(*batch);
  }
  auto source = std::make_shared<stream::CollectionSource>(schema, std::move(batches));
  stream::DataStream stream = context.env().FromSource(source, context.UniqueName("SingleRow"), 1);
  return Relation{.stream = stream, .columns = {}};
}

// One output column of a select block, before binding.
struct SelectColumn {
  ExprPtr expr;  // over the block's input, not yet rewritten over an aggregation
  std::string name;
};

Result<std::vector<SelectColumn>> ExpandSelectList(const Query& query, const Relation& input,
                                                   SubqueryColumns& subqueries) {
  std::vector<SelectColumn> out;
  for (size_t i = 0; i < query.items.size(); ++i) {
    const SelectItem& item = query.items[i];
    if (item.expr->kind == ExprKind::kStar) {
      bool matched = false;
      for (const ScopeColumn& column : input.columns) {
        if (!item.expr->name.empty() && column.qualifier != item.expr->name.back()) continue;
        matched = true;
        ExprPtr ref = ColumnRef(column.name, item.expr->position);
        if (!column.qualifier.empty()) ref->name.insert(ref->name.begin(), column.qualifier);
        out.push_back(SelectColumn{.expr = std::move(ref), .name = column.name});
      }
      if (!matched && !item.expr->name.empty()) {
        return InvalidArgument("unknown table '{}' in {}.* at line {}, column {}",
                               item.expr->name.back(), item.expr->name.back(),
                               item.expr->position.line, item.expr->position.column);
      }
      continue;
    }
    out.push_back(
        SelectColumn{.expr = subqueries.Replace(*item.expr),
                     .name = DefaultColumnName(*item.expr, item.alias, static_cast<int>(i))});
  }
  return out;
}

// GROUP BY keys are matched by their text after aggregation: a subquery there is not planned.
Status CheckNoGroupingSubqueries(const Query& query) {
  for (const ExprPtr& expr : query.group_by) {
    if (ContainsSubquery(*expr)) {
      return Unsupported("GROUP BY {}: subqueries are not supported in GROUP BY", PrintExpr(*expr));
    }
  }
  return {};
}

// The rows of `joined` for which `filter` (bound over `joined`) holds, with its first `width`
// columns (bound by index: names may repeat, as a join's two sides do).
Result<stream::DataStream> KeepRows(PlannerContext& context, const Relation& joined,
                                    ScalarExprPtr filter, size_t width) {
  std::vector<ScopeColumn> by_index = joined.columns;
  for (size_t i = 0; i < by_index.size(); ++i) {
    by_index[i].qualifier.clear();
    by_index[i].name = fmt::format("$#{}", i);
  }
  Scope scope(std::move(by_index));
  Projection projection{.filter = std::move(filter)};
  for (size_t i = 0; i < width; ++i) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr column,
                          BindScalar(*ColumnRef(fmt::format("$#{}", i), Position{}), scope));
    projection.columns.push_back(std::move(column));
    projection.names.push_back(joined.stream.schema()->field(static_cast<int>(i)).name);
  }
  context.Note(fmt::format("Calc(where=[{}])", projection.filter->ToString()));
  return Project(joined.stream, std::move(projection), context.UniqueName("Filter"));
}

// The rows of `input` for which `where` (which may name the subqueries' columns) holds, with
// `input`'s columns.
Result<Relation> FilterWithSubqueries(PlannerContext& context, Relation input, const Expr& where,
                                      SubqueryColumns& subqueries) {
  const size_t width = input.columns.size();
  FLOE_ASSIGN_OR_RETURN(Relation joined, subqueries.Join(context, input));
  if (ContainsAggregate(where)) {
    return InvalidArgument("aggregate calls are not allowed in WHERE: {}", PrintExpr(where));
  }
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr filter, BindScalar(where, joined.scope()));
  if (filter->type()->kind() != floe::TypeKind::kBool) {
    return InvalidArgument("WHERE {} is not a boolean", PrintExpr(where));
  }
  FLOE_ASSIGN_OR_RETURN(input.stream, KeepRows(context, joined, std::move(filter), width));
  return input;
}

Result<Relation> PlanSelect(PlannerContext& context, const Query& query) {
  ColumnUse use = QueryBlockColumnUse(query);
  RegisterRankFilters(context, query);
  FLOE_ASSIGN_OR_RETURN(Relation input, query.from
                                            ? PlanFrom(context, *query.from, use, query.where.get())
                                            : Result<Relation>(SingleRow(context)));
  FLOE_RETURN_IF_ERROR(CheckNoGroupingSubqueries(query));
  SubqueryColumns subqueries;
  const Expr* where_expr = query.where.get();
  ExprPtr where_rest;
  if (where_expr != nullptr && ContainsSubquery(*where_expr)) {
    FLOE_ASSIGN_OR_RETURN(input, PlanSubqueryPredicates(context, std::move(input), *where_expr,
                                                        subqueries, where_rest));
    where_expr = where_rest.get();
    if (where_expr != nullptr && subqueries.pending()) {
      FLOE_ASSIGN_OR_RETURN(
          input, FilterWithSubqueries(context, std::move(input), *where_expr, subqueries));
      where_expr = nullptr;
    }
  }
  ScalarExprPtr where;
  if (where_expr != nullptr) {
    if (ContainsAggregate(*where_expr)) {
      return InvalidArgument("aggregate calls are not allowed in WHERE: {}",
                             PrintExpr(*where_expr));
    }
    FLOE_ASSIGN_OR_RETURN(where, BindScalar(*where_expr, input.scope()));
    if (where->type()->kind() != floe::TypeKind::kBool) {
      return InvalidArgument("WHERE {} is not a boolean", PrintExpr(*where_expr));
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<SelectColumn> select,
                        ExpandSelectList(query, input, subqueries));
  std::vector<ExprPtr*> over_exprs;
  for (SelectColumn& column : select) {
    if (ContainsOver(*column.expr)) over_exprs.push_back(&column.expr);
  }
  if (!over_exprs.empty()) {
    if (IsAggregateQuery(query) || subqueries.pending()) {
      return Unsupported(
          "OVER windows in a query block that also aggregates or has subqueries are not "
          "supported: compute them in a subquery");
    }
    FLOE_ASSIGN_OR_RETURN(input,
                          PlanOverCalls(context, std::move(input), std::move(where), over_exprs));
  }
  ExprPtr having;
  if (query.having) having = subqueries.Replace(*query.having);
  std::vector<ExprPtr> order_exprs;
  for (const OrderItem& item : query.order_by) {
    order_exprs.push_back(subqueries.Replace(*item.expr));
  }

  // The stage the select list is evaluated over: the input, or the aggregated rows.
  Relation stage = input;
  ScalarExprPtr stage_filter = where;
  std::optional<AggregatePlan> aggregate;
  auto over_stage = [&](const Expr& expr) {
    return aggregate ? aggregate->Rewrite(expr) : CloneExpr(expr);
  };
  if (IsAggregateQuery(query)) {
    std::vector<const Expr*> exprs;
    for (const SelectColumn& column : select) exprs.push_back(column.expr.get());
    if (having) exprs.push_back(having.get());
    for (const ExprPtr& expr : order_exprs) exprs.push_back(expr.get());
    for (const Expr* operand : subqueries.pending_operands()) exprs.push_back(operand);
    FLOE_ASSIGN_OR_RETURN(AggregatePlan plan,
                          AggregatePlan::Make(context, input, where, query.group_by, exprs));
    aggregate.emplace(std::move(plan));
    stage = aggregate->output();
    stage_filter = nullptr;
    if (subqueries.pending()) {
      FLOE_ASSIGN_OR_RETURN(stage, subqueries.Join(context, std::move(stage), over_stage));
    }
    if (having) {
      FLOE_ASSIGN_OR_RETURN(stage_filter, BindScalar(*over_stage(*having), stage.scope()));
      if (stage_filter->type()->kind() != floe::TypeKind::kBool) {
        return InvalidArgument("HAVING {} is not a boolean", PrintExpr(*query.having));
      }
    }
  }
  if (subqueries.pending()) {
    if (stage_filter) {
      // WHERE first: the subqueries then see only the rows it keeps.
      FLOE_ASSIGN_OR_RETURN(
          stage.stream, KeepRows(context, stage, std::move(stage_filter), stage.columns.size()));
    }
    FLOE_ASSIGN_OR_RETURN(stage, subqueries.Join(context, std::move(stage), over_stage));
  }
  Scope scope = stage.scope();

  Projection projection;
  projection.filter = stage_filter;
  std::vector<std::string> names;
  std::vector<std::string> texts;  // the select items as written, for ORDER BY matching
  for (const SelectColumn& column : select) {
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*over_stage(*column.expr), scope));
    projection.columns.push_back(std::move(bound));
    names.push_back(column.name);
    texts.push_back(PrintExpr(*column.expr));
  }
  names = UniqueNames(std::move(names));
  int visible = static_cast<int>(names.size());

  Ordering ordering;
  FLOE_RETURN_IF_ERROR(ResolveLimit(query, ordering));
  for (size_t o = 0; o < query.order_by.size(); ++o) {
    const OrderItem& item = query.order_by[o];
    const Expr& expr = *order_exprs[o];
    int column = -1;
    if (expr.kind == ExprKind::kLiteral && expr.literal == LiteralKind::kInteger) {
      column = std::stoi(expr.text) - 1;
      if (column < 0 || column >= visible) {
        return InvalidArgument("ORDER BY position {} is not in the select list", expr.text);
      }
    } else if (expr.kind == ExprKind::kColumn && expr.name.size() == 1) {
      auto alias = std::find(names.begin(), names.begin() + visible, expr.name[0]);
      if (alias != names.begin() + visible) column = static_cast<int>(alias - names.begin());
    }
    if (column < 0) {
      auto same = std::find(texts.begin(), texts.end(), PrintExpr(expr));
      if (same != texts.end()) column = static_cast<int>(same - texts.begin());
    }
    if (column < 0) {
      if (query.distinct) {
        return InvalidArgument("ORDER BY {} must be in the select list of a SELECT DISTINCT",
                               PrintExpr(expr));
      }
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*over_stage(expr), scope));
      column = static_cast<int>(projection.columns.size());
      projection.columns.push_back(std::move(bound));
      names.push_back(fmt::format("$sort{}", column));
    }
    ordering.keys.push_back(
        exec::SortKey{.column = column,
                      .descending = item.descending,
                      .nulls_first = item.nulls_first.value_or(!item.descending)});
  }
  projection.names = names;

  std::vector<std::string> shown;
  for (size_t i = 0; i < projection.columns.size(); ++i) {
    shown.push_back(fmt::format("{} AS {}", projection.columns[i]->ToString(), names[i]));
  }
  std::string note = fmt::format("Calc(select=[{}]", fmt::join(shown, ", "));
  if (projection.filter) note += fmt::format(", where=[{}]", projection.filter->ToString());
  context.Note(note + ")");
  stream::DataStream stream =
      Project(stage.stream, std::move(projection), context.UniqueName("Calc"));
  Relation relation = OutputRelation(stream, stage.bounded, stage.changelog);
  if (query.distinct) {
    FLOE_ASSIGN_OR_RETURN(relation, Distinct(context, relation));
  }
  return ApplyOrdering(context, std::move(relation), ordering, visible);
}

}  // namespace

Result<Relation> PlanQueryNode(PlannerContext& context, const Query& query) {
  WithQueries with(context, query.with);
  switch (query.kind) {
    case Query::Kind::kSelect:
      return PlanSelect(context, query);
    case Query::Kind::kValues:
      return PlanValues(context, query);
    case Query::Kind::kUnion:
    case Query::Kind::kIntersect:
    case Query::Kind::kExcept:
      return PlanSetOperation(context, query);
  }
  return InternalError("unknown query kind");
}

}  // namespace floe::sql::plan
