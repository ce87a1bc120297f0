#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/aggregate_internal.h"
#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/sql/plan/project_internal.h"
#include "floe/sql/syntax/printer.h"
#include "floe/util/strings.h"

namespace floe::sql::plan {
namespace {

bool IsAggregateCall(const Expr& expr) {
  return expr.kind == ExprKind::kFunction && !expr.name.empty() &&
         IsAggregateFunction(expr.name.back());
}

void CollectCalls(const Expr& expr, std::vector<const Expr*>& calls) {
  if (IsAggregateCall(expr)) {
    calls.push_back(&expr);
    return;
  }
  for (const ExprPtr& arg : expr.args) {
    if (arg) CollectCalls(*arg, calls);
  }
}

Result<exec::AggregateKind> KindOf(const Expr& call) {
  std::string name = AsciiUpper(call.name.back());
  if (name == "COUNT")
    return call.star ? exec::AggregateKind::kCountStar : exec::AggregateKind::kCount;
  if (name == "SUM") return exec::AggregateKind::kSum;
  if (name == "AVG") return exec::AggregateKind::kAvg;
  if (name == "MIN") return exec::AggregateKind::kMin;
  if (name == "MAX") return exec::AggregateKind::kMax;
  return Unsupported("aggregate function {} at line {}, column {} is not supported", name,
                     call.position.line, call.position.column);
}

}  // namespace

bool IsAggregateQuery(const Query& query) {
  if (!query.group_by.empty() || query.having) return true;
  for (const SelectItem& item : query.items) {
    if (ContainsAggregate(*item.expr)) return true;
  }
  return false;
}

Result<AggregatePlan> AggregatePlan::Make(PlannerContext& context, const Relation& input,
                                          ScalarExprPtr where, const std::vector<ExprPtr>& group_by,
                                          const std::vector<const Expr*>& exprs) {
  Scope scope = input.scope();
  Projection pre;
  pre.filter = std::move(where);
  std::vector<ScopeColumn> columns;
  std::vector<std::string> group_texts;
  std::vector<int> group_indices;
  std::vector<std::string> group_notes;
  int window_end_group = -1;  // the group column that is a window TVF's window_end
  for (size_t i = 0; i < group_by.size(); ++i) {
    const Expr& group = *group_by[i];
    if (ContainsAggregate(group)) {
      return InvalidArgument("GROUP BY {} contains an aggregate call", PrintExpr(group));
    }
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(group, scope));
    ScopeColumn column{
        .name = fmt::format("$g{}", i), .type = bound->type(), .nullable = bound->nullable()};
    if (std::optional<int> index = bound->column_index()) {
      if (*index == input.window_end) window_end_group = static_cast<int>(i);
      // A grouped column keeps its name, so the select list names it as before.
      column.qualifier = input.columns[*index].qualifier;
      column.name = input.columns[*index].name;
    } else {
      group_texts.push_back(PrintExpr(group));
      group_indices.push_back(static_cast<int>(i));
    }
    group_notes.push_back(bound->ToString());
    pre.names.push_back(fmt::format("$g{}", i));
    pre.columns.push_back(std::move(bound));
    columns.push_back(std::move(column));
  }

  std::vector<const Expr*> calls;
  for (const Expr* expr : exprs) CollectCalls(*expr, calls);
  std::vector<std::string> call_texts;
  std::vector<bool> call_counts;
  std::vector<exec::AggregateCall> exec_calls;
  std::vector<std::string> call_notes;
  std::vector<DataTypePtr> argument_types;
  for (const Expr* call : calls) {
    std::string text = PrintExpr(*call);
    if (std::find(call_texts.begin(), call_texts.end(), text) != call_texts.end()) continue;
    FLOE_ASSIGN_OR_RETURN(exec::AggregateKind kind, KindOf(*call));
    exec::AggregateCall exec_call{.kind = kind,
                                  .distinct = call->distinct,
                                  .output_name = fmt::format("$a{}", call_texts.size())};
    DataTypePtr argument_type;
    if (kind != exec::AggregateKind::kCountStar) {
      if (call->args.size() != 1) {
        return InvalidArgument("{} takes one argument", text);
      }
      if (ContainsAggregate(*call->args[0])) {
        return InvalidArgument("{}: aggregate calls cannot be nested", text);
      }
      FLOE_ASSIGN_OR_RETURN(ScalarExprPtr argument, BindScalar(*call->args[0], scope));
      argument_type = argument->type();
      exec_call.argument = static_cast<int>(pre.columns.size());
      pre.names.push_back(fmt::format("$arg{}", call_texts.size()));
      pre.columns.push_back(std::move(argument));
    }
    auto result_type = exec::AggregateResultType(kind, argument_type);
    if (!result_type.has_value()) {
      Error error = result_type.error();
      error.AddContext(text);
      return std::unexpected<Error>(std::move(error));
    }
    bool nullable = kind != exec::AggregateKind::kCountStar && kind != exec::AggregateKind::kCount;
    columns.push_back(
        ScopeColumn{.name = exec_call.output_name, .type = *result_type, .nullable = nullable});
    call_notes.push_back(text);
    call_texts.push_back(std::move(text));
    call_counts.push_back(!nullable);
    exec_calls.push_back(std::move(exec_call));
  }

  std::vector<int> group_columns;
  for (size_t i = 0; i < group_by.size(); ++i) group_columns.push_back(static_cast<int>(i));
  stream::DataStream projected =
      Project(input.stream, std::move(pre), context.UniqueName("AggregateInput"));
  // Streaming GROUP BY a window's end: each window's rows once, when the watermark passes it.
  bool windowed = window_end_group >= 0 && !context.batch();
  std::optional<stream::DataStream> made;
  if (windowed) {
    FLOE_ASSIGN_OR_RETURN(made, exec::WindowAggregate(projected, group_columns,
                                                      std::move(exec_calls), window_end_group));
  } else {
    FLOE_ASSIGN_OR_RETURN(made, exec::Aggregate(projected, group_columns, std::move(exec_calls)));
  }
  stream::DataStream aggregated = *made;
  context.Note(fmt::format("{}(groupBy=[{}], select=[{}])",
                           windowed ? "WindowAggregate" : "Aggregate", fmt::join(group_notes, ", "),
                           fmt::join(call_notes, ", ")));
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& field = aggregated.schema()->field(static_cast<int>(i));
    columns[i].type = field.type;
    columns[i].nullable = field.nullable;
  }
  AggregatePlan plan(Relation{.stream = aggregated,
                              .columns = std::move(columns),
                              .bounded = input.bounded,
                              .changelog = input.changelog || (!context.batch() && !windowed)});
  plan.call_texts_ = std::move(call_texts);
  plan.call_counts_ = std::move(call_counts);
  plan.group_texts_ = std::move(group_texts);
  plan.group_columns_ = std::move(group_indices);
  return plan;
}

ExprPtr AggregatePlan::Rewrite(const Expr& expr) const {
  return RewriteExpr(expr, [this](const Expr& node) -> ExprPtr {
    if (node.kind == ExprKind::kLiteral || node.kind == ExprKind::kColumn) return nullptr;
    std::string text = PrintExpr(node);
    if (IsAggregateCall(node)) {
      auto found = std::find(call_texts_.begin(), call_texts_.end(), text);
      if (found != call_texts_.end()) {
        return ColumnRef(fmt::format("$a{}", found - call_texts_.begin()), node.position);
      }
    }
    auto group = std::find(group_texts_.begin(), group_texts_.end(), text);
    if (group != group_texts_.end()) {
      return ColumnRef(fmt::format("$g{}", group_columns_[group - group_texts_.begin()]),
                       node.position);
    }
    return nullptr;
  });
}

ExprPtr AggregatePlan::RewriteNullExtended(const Expr& expr) const {
  ExprPtr rewritten = Rewrite(expr);
  return RewriteExpr(*rewritten, [this](const Expr& node) -> ExprPtr {
    if (node.kind != ExprKind::kColumn || node.name.size() != 1) return nullptr;
    for (size_t i = 0; i < call_counts_.size(); ++i) {
      if (!call_counts_[i] || node.name[0] != fmt::format("$a{}", i)) continue;
      auto zero = std::make_unique<Expr>();
      zero->kind = ExprKind::kLiteral;
      zero->literal = LiteralKind::kInteger;
      zero->text = std::string(1, '0');  // not "0": g++ 12 -O3 warns falsely (-Wrestrict)
      zero->position = node.position;
      auto coalesce = std::make_unique<Expr>();
      coalesce->kind = ExprKind::kFunction;
      coalesce->name = {"COALESCE"};
      coalesce->position = node.position;
      coalesce->args.push_back(CloneExpr(node));
      coalesce->args.push_back(std::move(zero));
      return coalesce;
    }
    return nullptr;
  });
}

}  // namespace floe::sql::plan
