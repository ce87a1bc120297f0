#include <fmt/format.h>
#include <fmt/ranges.h>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/join_internal.h"
#include "floe/sql/plan/sources_internal.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql::plan {
namespace {

exec::JoinKind ExecKind(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner:
      return exec::JoinKind::kInner;
    case JoinKind::kLeft:
      return exec::JoinKind::kLeft;
    case JoinKind::kRight:
      return exec::JoinKind::kRight;
    case JoinKind::kFull:
      return exec::JoinKind::kFull;
    case JoinKind::kCross:
    case JoinKind::kComma:
      return exec::JoinKind::kCross;
  }
  return exec::JoinKind::kInner;
}

std::string_view KindName(exec::JoinKind kind) {
  switch (kind) {
    case exec::JoinKind::kInner:
      return "InnerJoin";
    case exec::JoinKind::kLeft:
      return "LeftOuterJoin";
    case exec::JoinKind::kLeftSingle:
      return "LeftSingleJoin";
    case exec::JoinKind::kRight:
      return "RightOuterJoin";
    case exec::JoinKind::kFull:
      return "FullOuterJoin";
    case exec::JoinKind::kCross:
      return "CrossJoin";
    case exec::JoinKind::kLeftSemi:
      return "LeftSemiJoin";
    case exec::JoinKind::kLeftAnti:
      return "LeftAntiJoin";
    case exec::JoinKind::kNullAwareAnti:
      return "NullAwareLeftAntiJoin";
  }
  return "Join";
}

// The column index when `expr` binds in `scope` to a bare column.
std::optional<int> BareColumn(const Expr& expr, const Scope& scope) {
  if (expr.kind != ExprKind::kColumn) return std::nullopt;
  auto bound = BindScalar(expr, scope);
  if (!bound.has_value()) return std::nullopt;
  return (*bound)->column_index();
}

}  // namespace

Result<Relation> PlanJoin(PlannerContext& context, const TableRef& ref, const ColumnUse& use,
                          const Expr* where) {
  // WHERE conjuncts may be pushed into the scans of an inner join's sides; under an outer join a
  // pushed filter would turn matches into null-extended rows (WHERE b.x IS NULL).
  bool inner =
      ref.join == JoinKind::kInner || ref.join == JoinKind::kCross || ref.join == JoinKind::kComma;
  const Expr* pushable = inner ? where : nullptr;
  FLOE_ASSIGN_OR_RETURN(Relation left, PlanFrom(context, *ref.left, use, pushable));
  FLOE_ASSIGN_OR_RETURN(Relation right, PlanFrom(context, *ref.right, use, pushable));
  if (!left.bounded || !right.bounded) {
    return Unsupported(
        "a JOIN of an unbounded (streaming) input is not supported: floe joins bounded inputs; "
        "use batch mode ('execution.runtime-mode' = 'batch') or bounded reads");
  }
  exec::JoinKind kind = ExecKind(ref.join);
  Scope left_scope(left.columns);
  Scope right_scope(right.columns);
  std::vector<ScopeColumn> columns = left.columns;
  columns.insert(columns.end(), right.columns.begin(), right.columns.end());
  Scope joined_scope(columns);

  std::vector<int> left_keys;
  std::vector<int> right_keys;
  std::vector<const Expr*> residual;
  std::vector<std::string> key_text;
  if (ref.on) {
    std::vector<const Expr*> conjuncts;
    SplitConjuncts(*ref.on, conjuncts);
    for (const Expr* conjunct : conjuncts) {
      if (conjunct->kind == ExprKind::kBinary && conjunct->op == "=" &&
          conjunct->args.size() == 2) {
        const Expr& a = *conjunct->args[0];
        const Expr& b = *conjunct->args[1];
        std::optional<int> l = BareColumn(a, left_scope);
        std::optional<int> r = BareColumn(b, right_scope);
        if (!l || !r) {
          l = BareColumn(b, left_scope);
          r = BareColumn(a, right_scope);
        }
        if (l && r && left.columns[*l].type->Equals(*right.columns[*r].type)) {
          left_keys.push_back(*l);
          right_keys.push_back(*r);
          key_text.push_back(PrintExpr(*conjunct));
          continue;
        }
      }
      residual.push_back(conjunct);
    }
  }
  exec::JoinCondition condition;
  std::string condition_text;
  if (!residual.empty()) {
    ExprPtr on = AndAll(residual);
    FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(*on, joined_scope));
    if (bound->type()->kind() != floe::TypeKind::kBool) {
      return InvalidArgument("JOIN condition {} is not a boolean", PrintExpr(*on));
    }
    condition_text = bound->ToString();
    condition = [bound](const RecordBatch& joined) { return bound->Evaluate(joined); };
  }
  if (kind != exec::JoinKind::kCross && left_keys.empty() && !condition) {
    return InvalidArgument("JOIN without an ON condition");
  }
  if (kind == exec::JoinKind::kCross && !left_keys.empty()) kind = exec::JoinKind::kInner;
  FLOE_ASSIGN_OR_RETURN(
      stream::DataStream stream,
      exec::Join(left.stream, right.stream, kind, left_keys, right_keys, std::move(condition)));
  std::string note = fmt::format("{}(", KindName(kind));
  if (!key_text.empty()) note += "keys=[" + fmt::format("{}", fmt::join(key_text, " AND ")) + "]";
  if (!condition_text.empty()) {
    note += fmt::format("{}condition=[{}]", key_text.empty() ? "" : ", ", condition_text);
  }
  context.Note(note + ")");
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& field = stream.schema()->field(static_cast<int>(i));
    columns[i].type = field.type;
    columns[i].nullable = field.nullable;
  }
  return Relation{.stream = stream, .columns = std::move(columns), .bounded = true};
}

}  // namespace floe::sql::plan
