#include "floe/expr/manifest_evaluator.h"

#include <cmath>

#include "floe/expr/projection.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::expr {

namespace {

constexpr size_t kInLimit = 200;

bool IsFloating(const TypePtr& t) {
  return t->id() == TypeId::kFloat || t->id() == TypeId::kDouble;
}

Result<std::optional<Literal>> Decode(const std::optional<std::string>& bytes, const Expression& p,
                                      const char* which) {
  if (!bytes) return std::optional<Literal>();
  auto v = Literal::FromBinary(p.type(), *bytes);
  if (!v) {
    return std::unexpected(std::move(
        v.error().AddContext(fmt::format("{} bound of partition field {}", which, p.column()))));
  }
  return std::optional<Literal>(std::move(v).value());
}

// Every value of the field is null: nulls present, no bound, and (for floats) no NaN.
bool AllNull(const PartitionFieldSummary& s, const Expression& p) {
  if (!s.contains_null || s.lower_bound) return false;
  if (IsFloating(p.type())) return s.contains_nan.has_value() && !*s.contains_nan;
  return true;
}

bool AllNan(const PartitionFieldSummary& s) {
  return s.contains_nan.value_or(false) && !s.contains_null && !s.lower_bound && !s.upper_bound;
}

int ComparePrefix(const std::string& bound, const std::string& prefix) {
  return std::string_view(bound).substr(0, prefix.size()).compare(prefix);
}

Result<bool> Test(const Expression& p, const PartitionFieldSummary& s) {
  switch (p.op()) {
    case Op::kIsNull:
      return s.contains_null;
    case Op::kNotNull:
      return !AllNull(s, p);
    case Op::kIsNan:
      if (s.contains_nan.has_value() && !*s.contains_nan) return false;
      return !AllNull(s, p);
    case Op::kNotNan:
      return !AllNan(s);
    case Op::kNotEq:
    case Op::kNotIn:
      return true;
    default:
      break;
  }
  FLOE_ASSIGN_OR_RETURN(auto lower, Decode(s.lower_bound, p, "lower"));
  FLOE_ASSIGN_OR_RETURN(auto upper, Decode(s.upper_bound, p, "upper"));
  if (p.op() == Op::kNotStartsWith) {
    if (s.contains_null) return true;
    const std::string& prefix = p.literal().bytes_value();
    return !(lower && upper && lower->bytes_value().starts_with(prefix) &&
             upper->bytes_value().starts_with(prefix));
  }
  // Without a lower bound every value is null or NaN, and those match none of the rest.
  if (!lower) return false;
  switch (p.op()) {
    case Op::kLt:
      return lower->Compare(p.literal()) < 0;
    case Op::kLtEq:
      return lower->Compare(p.literal()) <= 0;
    case Op::kGt:
      return !upper || upper->Compare(p.literal()) > 0;
    case Op::kGtEq:
      return !upper || upper->Compare(p.literal()) >= 0;
    case Op::kEq:
      return lower->Compare(p.literal()) <= 0 && (!upper || upper->Compare(p.literal()) >= 0);
    case Op::kIn:
      if (p.literals().size() > kInLimit) return true;
      for (const auto& v : p.literals()) {
        if (lower->Compare(v) <= 0 && (!upper || upper->Compare(v) >= 0)) return true;
      }
      return false;
    case Op::kStartsWith: {
      const std::string& prefix = p.literal().bytes_value();
      if (ComparePrefix(lower->bytes_value(), prefix) > 0) return false;
      if (upper && ComparePrefix(upper->bytes_value(), prefix) < 0) return false;
      return true;
    }
    default:
      return true;
  }
}

Result<bool> Walk(const Expression& e, std::span<const PartitionFieldSummary> summaries,
                  const std::vector<int32_t>& field_ids) {
  switch (e.op()) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kAnd: {
      FLOE_ASSIGN_OR_RETURN(bool l, Walk(*e.left(), summaries, field_ids));
      if (!l) return false;
      return Walk(*e.right(), summaries, field_ids);
    }
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(bool l, Walk(*e.left(), summaries, field_ids));
      if (l) return true;
      return Walk(*e.right(), summaries, field_ids);
    }
    default:
      break;
  }
  for (size_t i = 0; i < field_ids.size(); ++i) {
    if (field_ids[i] == e.field_id()) return Test(e, summaries[i]);
  }
  return InternalError("partition field {} is not in the spec", e.field_id());
}

}  // namespace

Result<ManifestEvaluator> ManifestEvaluator::Make(const ExprPtr& filter, const Schema& schema,
                                                  const PartitionSpec& spec, bool case_sensitive) {
  FLOE_ASSIGN_OR_RETURN(auto bound, Bind(filter, schema, case_sensitive));
  FLOE_ASSIGN_OR_RETURN(auto projected, ProjectInclusive(bound, schema, spec));
  std::vector<int32_t> ids;
  for (const auto& f : spec.fields()) ids.push_back(f.field_id);
  return ManifestEvaluator(std::move(projected), std::move(ids));
}

Result<bool> ManifestEvaluator::MightMatch(std::span<const PartitionFieldSummary> summaries) const {
  if (summaries.size() != field_ids_.size()) {
    return InvalidArgument("manifest has {} partition field summaries, the spec has {} fields",
                           summaries.size(), field_ids_.size());
  }
  return Walk(*partition_filter_, summaries, field_ids_);
}

}  // namespace floe::expr
