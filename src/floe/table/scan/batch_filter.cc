#include "floe/table/scan/batch_filter.h"

#include <cmath>
#include <compare>
#include <cstring>
#include <string_view>

namespace floe::table {

namespace {

using expr::Op;

std::partial_ordering CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? std::partial_ordering::less : std::partial_ordering::greater;
  return a.size() <=> b.size();
}

bool Matches(Op op, std::partial_ordering c) {
  switch (op) {
    case Op::kLt:
      return c < 0;
    case Op::kLtEq:
      return c <= 0;
    case Op::kGt:
      return c > 0;
    case Op::kGtEq:
      return c >= 0;
    case Op::kEq:
      return c == 0;
    case Op::kNotEq:
      return c != 0;
    default:
      return false;
  }
}

// Applies a comparison-like predicate with typed values: get(i) reads row i, lit(k) literal k,
// cmp orders them.
template <typename Get, typename Lit, typename Cmp>
void CompareLoop(const expr::Expression& p, const ColumnPath& column, int64_t n, Get get, Lit lit,
                 Cmp cmp, uint8_t* out) {
  const Op op = p.op();
  const bool null_result = op == Op::kNotEq || op == Op::kNotIn;
  const size_t literals = p.literals().size();
  for (int64_t i = 0; i < n; ++i) {
    if (column.IsNull(i)) {
      out[i] = null_result;
      continue;
    }
    const auto v = get(i);
    if (op == Op::kIn || op == Op::kNotIn) {
      bool found = false;
      for (size_t k = 0; k < literals && !found; ++k) found = cmp(v, lit(k)) == 0;
      out[i] = found == (op == Op::kIn);
    } else {
      out[i] = Matches(op, cmp(v, lit(0)));
    }
  }
}

Status EvaluatePredicate(const expr::Expression& p, const ColumnPath& column, int64_t n,
                         uint8_t* out) {
  const Array& a = column.leaf;
  switch (p.op()) {
    case Op::kIsNull:
      for (int64_t i = 0; i < n; ++i) out[i] = column.IsNull(i);
      return Ok();
    case Op::kNotNull:
      for (int64_t i = 0; i < n; ++i) out[i] = !column.IsNull(i);
      return Ok();
    case Op::kIsNan:
    case Op::kNotNan: {
      const bool want = p.op() == Op::kIsNan;
      for (int64_t i = 0; i < n; ++i) {
        bool nan = false;
        if (!column.IsNull(i)) {
          nan = a.kind() == TypeKind::kFloat32   ? std::isnan(a.Value<float>(i))
                : a.kind() == TypeKind::kFloat64 ? std::isnan(a.Value<double>(i))
                                                 : false;
        }
        out[i] = column.IsNull(i) ? !want : nan == want;
      }
      return Ok();
    }
    case Op::kStartsWith:
    case Op::kNotStartsWith: {
      const bool want = p.op() == Op::kStartsWith;
      const std::string& prefix = p.literal().bytes_value();
      for (int64_t i = 0; i < n; ++i) {
        out[i] = column.IsNull(i) ? !want : a.GetView(i).starts_with(prefix) == want;
      }
      return Ok();
    }
    default:
      break;
  }
  const auto& lits = p.literals();
  auto spaceship = [](auto x, auto y) -> std::partial_ordering { return x <=> y; };
  switch (a.kind()) {
    case TypeKind::kBool:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.GetBool(i); },
          [&](size_t k) { return lits[k].bool_value(); }, spaceship, out);
      return Ok();
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.Value<int32_t>(i); },
          [&](size_t k) { return lits[k].int_value(); }, spaceship, out);
      return Ok();
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.Value<int64_t>(i); },
          [&](size_t k) { return lits[k].long_value(); }, spaceship, out);
      return Ok();
    case TypeKind::kFloat32:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.Value<float>(i); },
          [&](size_t k) { return lits[k].float_value(); }, CompareFloating, out);
      return Ok();
    case TypeKind::kFloat64:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.Value<double>(i); },
          [&](size_t k) { return lits[k].double_value(); }, CompareFloating, out);
      return Ok();
    case TypeKind::kDecimal128:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.GetDecimal(i); },
          [&](size_t k) { return lits[k].decimal_value(); }, spaceship, out);
      return Ok();
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kLargeString:
    case TypeKind::kLargeBinary:
    case TypeKind::kFixedSizeBinary:
      CompareLoop(
          p, column, n, [&](int64_t i) { return a.GetView(i); },
          [&](size_t k) { return std::string_view(lits[k].bytes_value()); }, CompareBytes, out);
      return Ok();
    default:
      break;
  }
  return Unsupported("filter on column {} of type {} is not supported", p.column(),
                     a.type()->ToString());
}

Status Evaluate(const expr::Expression& e, const RecordBatch& batch, const Schema& schema,
                uint8_t* out) {
  const int64_t n = batch.num_rows();
  switch (e.op()) {
    case Op::kTrue:
      std::memset(out, 1, static_cast<size_t>(n));
      return Ok();
    case Op::kFalse:
      std::memset(out, 0, static_cast<size_t>(n));
      return Ok();
    case Op::kAnd:
    case Op::kOr: {
      FLOE_RETURN_IF_ERROR(Evaluate(*e.left(), batch, schema, out));
      std::vector<uint8_t> right(static_cast<size_t>(n));
      FLOE_RETURN_IF_ERROR(Evaluate(*e.right(), batch, schema, right.data()));
      if (e.op() == Op::kAnd) {
        for (int64_t i = 0; i < n; ++i) out[i] &= right[i];
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] |= right[i];
      }
      return Ok();
    }
    case Op::kNot:
      FLOE_RETURN_IF_ERROR(Evaluate(*e.left(), batch, schema, out));
      for (int64_t i = 0; i < n; ++i) out[i] = !out[i];
      return Ok();
    default: {
      if (!e.is_bound()) return InvalidArgument("filter {} is not bound", e.ToString());
      FLOE_ASSIGN_OR_RETURN(ColumnPath column, FindColumn(batch, schema, e.field_id()));
      return EvaluatePredicate(e, column, n, out);
    }
  }
}

}  // namespace

Result<ColumnPath> FindColumn(const RecordBatch& batch, const Schema& schema, int32_t field_id) {
  std::vector<int32_t> path{field_id};
  for (auto parent = schema.FindParentId(field_id); parent; parent = schema.FindParentId(*parent)) {
    path.insert(path.begin(), *parent);
  }
  const int top = batch.schema()->FindFieldIndexById(path[0]);
  if (top < 0) return InvalidArgument("field id {} is not among the columns read", path[0]);
  ColumnPath column;
  column.leaf = batch.column(top);
  for (size_t k = 1; k < path.size(); ++k) {
    if (column.leaf.kind() != TypeKind::kStruct) {
      return InvalidArgument("field id {} is inside a list or map", field_id);
    }
    int index = -1;
    for (int f = 0; f < column.leaf.type()->num_fields(); ++f) {
      if (column.leaf.type()->field(f).field_id == path[k]) index = f;
    }
    if (index < 0) return InvalidArgument("field id {} is not among the columns read", path[k]);
    Array child = column.leaf.field(index);
    if (column.leaf.null_count() != 0) column.parents.push_back(column.leaf);
    column.leaf = std::move(child);
  }
  return column;
}

Result<std::vector<uint8_t>> EvaluateFilter(const expr::Expression& bound, const RecordBatch& batch,
                                            const Schema& schema) {
  std::vector<uint8_t> out(static_cast<size_t>(batch.num_rows()));
  FLOE_RETURN_IF_ERROR(Evaluate(bound, batch, schema, out.data()));
  return out;
}

}  // namespace floe::table
