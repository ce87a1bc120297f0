#include "floe/sql/plan/ast_rewrite_internal.h"
#include "floe/util/strings.h"

namespace floe::sql::plan {
namespace {

void CollectTableRefUse(const TableRef& ref, ColumnUse& use) {
  if (ref.kind == TableRef::Kind::kJoin) {
    if (ref.left) CollectTableRefUse(*ref.left, use);
    if (ref.right) CollectTableRefUse(*ref.right, use);
    if (ref.on) CollectColumnUse(*ref.on, use);
  }
}

}  // namespace

ExprPtr RewriteExpr(const Expr& expr, const std::function<ExprPtr(const Expr&)>& replace) {
  if (ExprPtr replaced = replace(expr)) return replaced;
  auto copy = std::make_unique<Expr>();
  copy->kind = expr.kind;
  copy->position = expr.position;
  copy->literal = expr.literal;
  copy->text = expr.text;
  copy->interval_unit = expr.interval_unit;
  copy->op = expr.op;
  copy->name = expr.name;
  copy->type = expr.type;
  copy->negated = expr.negated;
  copy->distinct = expr.distinct;
  copy->star = expr.star;
  copy->has_else = expr.has_else;
  copy->over = expr.over;
  copy->args.reserve(expr.args.size());
  for (const ExprPtr& arg : expr.args) {
    copy->args.push_back(arg ? RewriteExpr(*arg, replace) : nullptr);
  }
  // Subqueries are not planned inside expressions; the binder reports them.
  return copy;
}

ExprPtr CloneExpr(const Expr& expr) {
  return RewriteExpr(expr, [](const Expr&) { return ExprPtr(); });
}

ExprPtr ColumnRef(std::string name, Position position) {
  auto ref = std::make_unique<Expr>();
  ref->kind = ExprKind::kColumn;
  ref->position = position;
  ref->name = {std::move(name)};
  return ref;
}

void SplitConjuncts(const Expr& expr, std::vector<const Expr*>& out) {
  if (expr.kind == ExprKind::kBinary && EqualsIgnoreCase(expr.op, "AND") && expr.args.size() == 2) {
    SplitConjuncts(*expr.args[0], out);
    SplitConjuncts(*expr.args[1], out);
    return;
  }
  out.push_back(&expr);
}

ExprPtr AndAll(const std::vector<const Expr*>& conjuncts) {
  ExprPtr result;
  for (const Expr* conjunct : conjuncts) {
    ExprPtr copy = CloneExpr(*conjunct);
    if (!result) {
      result = std::move(copy);
      continue;
    }
    auto both = std::make_unique<Expr>();
    both->kind = ExprKind::kBinary;
    both->op = "AND";
    both->position = result->position;
    both->args.push_back(std::move(result));
    both->args.push_back(std::move(copy));
    result = std::move(both);
  }
  return result;
}

bool ColumnUse::Needs(const std::string& qualifier, const std::string& column) const {
  if (all || star_qualifiers.contains(qualifier)) return true;
  return names.contains(AsciiLower(column));
}

void CollectColumnUse(const Expr& expr, ColumnUse& use) {
  // Every part: `s.f` may be column f of table s or field f of column s.
  if (expr.kind == ExprKind::kColumn) {
    for (const std::string& part : expr.name) use.names.insert(AsciiLower(part));
  }
  if (expr.kind == ExprKind::kStar) {
    if (expr.name.empty()) {
      use.all = true;
    } else {
      use.star_qualifiers.insert(expr.name.back());
    }
  }
  for (const ExprPtr& arg : expr.args) {
    if (arg) CollectColumnUse(*arg, use);
  }
  if (expr.over) {
    for (const ExprPtr& key : expr.over->partition_by) CollectColumnUse(*key, use);
    for (const OrderItem& item : expr.over->order_by) CollectColumnUse(*item.expr, use);
  }
  if (expr.query) use.all = true;  // a correlated subquery could name anything
}

ColumnUse QueryBlockColumnUse(const Query& query) {
  ColumnUse use;
  for (const SelectItem& item : query.items) CollectColumnUse(*item.expr, use);
  if (query.where) CollectColumnUse(*query.where, use);
  for (const ExprPtr& group : query.group_by) CollectColumnUse(*group, use);
  if (query.having) CollectColumnUse(*query.having, use);
  for (const OrderItem& order : query.order_by) CollectColumnUse(*order.expr, use);
  if (query.from) CollectTableRefUse(*query.from, use);
  return use;
}

}  // namespace floe::sql::plan
