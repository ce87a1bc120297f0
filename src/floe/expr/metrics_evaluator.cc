#include "floe/expr/metrics_evaluator.h"

#include <cmath>
#include <optional>

namespace floe::expr {

namespace {

// Beyond this many values, checking each against the bounds costs more than it saves.
constexpr size_t kInLimit = 200;

bool IsFloating(const Expression& p) {
  return p.type()->id() == TypeId::kFloat || p.type()->id() == TypeId::kDouble;
}

bool IsNan(const Literal& v) {
  if (v.type_id() == TypeId::kFloat) return std::isnan(v.float_value());
  if (v.type_id() == TypeId::kDouble) return std::isnan(v.double_value());
  return false;
}

std::optional<int64_t> Find(const std::unordered_map<int32_t, int64_t>& m, int32_t id) {
  auto it = m.find(id);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

class FileView {
 public:
  explicit FileView(const DataFileMetrics& m) : m_(m) {}

  std::optional<int64_t> values(int32_t id) const { return Find(m_.value_counts, id); }
  std::optional<int64_t> nulls(int32_t id) const { return Find(m_.null_value_counts, id); }
  std::optional<int64_t> nans(int32_t id) const { return Find(m_.nan_value_counts, id); }

  bool NullsOnly(int32_t id) const {
    auto v = values(id);
    auto n = nulls(id);
    return v && n && *v == *n;
  }
  bool NansOnly(int32_t id) const {
    auto v = values(id);
    auto n = nans(id);
    return v && n && *v == *n;
  }
  bool MayHaveNulls(int32_t id) const {
    auto n = nulls(id);
    return !n || *n > 0;
  }
  bool MayHaveNans(const Expression& p) const {
    if (!IsFloating(p)) return false;
    auto n = nans(p.field_id());
    return !n || *n > 0;
  }

  Result<std::optional<Literal>> Lower(const Expression& p) const {
    return Decode(m_.lower_bounds, p, "lower");
  }
  Result<std::optional<Literal>> Upper(const Expression& p) const {
    return Decode(m_.upper_bounds, p, "upper");
  }

 private:
  static Result<std::optional<Literal>> Decode(
      const std::unordered_map<int32_t, std::string>& bounds, const Expression& p,
      const char* which) {
    auto it = bounds.find(p.field_id());
    if (it == bounds.end()) return std::optional<Literal>();
    auto v = Literal::FromBinary(p.type(), it->second);
    if (!v) {
      return std::unexpected(std::move(v.error().AddContext(
          std::string(which) + " bound of field " + std::to_string(p.field_id()))));
    }
    // A NaN bound (written by buggy writers) says nothing about the other values.
    if (IsNan(*v)) return std::optional<Literal>();
    return std::optional<Literal>(std::move(v).value());
  }

  const DataFileMetrics& m_;
};

// The first n bytes of a bound, compared with a prefix of n bytes: bytewise order is the order of
// strings, and a string starts with the prefix exactly when its first n bytes equal it.
int ComparePrefix(const std::string& bound, const std::string& prefix) {
  return std::string_view(bound).substr(0, prefix.size()).compare(prefix);
}

Result<bool> Inclusive(const Expression& p, const FileView& f) {
  int32_t id = p.field_id();
  switch (p.op()) {
    case Op::kIsNull: {
      auto n = f.nulls(id);
      return !n || *n > 0;
    }
    case Op::kNotNull:
      return !f.NullsOnly(id);
    case Op::kIsNan: {
      auto n = f.nans(id);
      if (n && *n == 0) return false;
      return !f.NullsOnly(id);
    }
    case Op::kNotNan:
      return !f.NansOnly(id);
    case Op::kNotEq:
    case Op::kNotIn:
      return true;
    default:
      break;
  }
  if (f.NullsOnly(id) || f.NansOnly(id)) return false;
  FLOE_ASSIGN_OR_RETURN(auto lower, f.Lower(p));
  FLOE_ASSIGN_OR_RETURN(auto upper, f.Upper(p));
  switch (p.op()) {
    case Op::kLt:
      return !lower || lower->Compare(p.literal()) < 0;
    case Op::kLtEq:
      return !lower || lower->Compare(p.literal()) <= 0;
    case Op::kGt:
      return !upper || upper->Compare(p.literal()) > 0;
    case Op::kGtEq:
      return !upper || upper->Compare(p.literal()) >= 0;
    case Op::kEq:
      if (lower && lower->Compare(p.literal()) > 0) return false;
      if (upper && upper->Compare(p.literal()) < 0) return false;
      return true;
    case Op::kIn: {
      if (p.literals().size() > kInLimit) return true;
      for (const auto& v : p.literals()) {
        if ((!lower || lower->Compare(v) <= 0) && (!upper || upper->Compare(v) >= 0)) return true;
      }
      return false;
    }
    case Op::kStartsWith: {
      const std::string& prefix = p.literal().bytes_value();
      if (lower && ComparePrefix(lower->bytes_value(), prefix) > 0) return false;
      if (upper && ComparePrefix(upper->bytes_value(), prefix) < 0) return false;
      return true;
    }
    case Op::kNotStartsWith: {
      if (f.MayHaveNulls(id)) return true;
      const std::string& prefix = p.literal().bytes_value();
      // Every value between two bounds that start with the prefix starts with it too.
      if (lower && upper && lower->bytes_value().starts_with(prefix) &&
          upper->bytes_value().starts_with(prefix)) {
        return false;
      }
      return true;
    }
    default:
      return true;
  }
}

Result<bool> Strict(const Expression& p, const FileView& f) {
  int32_t id = p.field_id();
  switch (p.op()) {
    case Op::kIsNull:
      return f.NullsOnly(id);
    case Op::kNotNull: {
      auto n = f.nulls(id);
      return n && *n == 0;
    }
    case Op::kIsNan:
      return f.NansOnly(id);
    case Op::kNotNan: {
      auto n = f.nans(id);
      return (n && *n == 0) || f.NullsOnly(id);
    }
    default:
      break;
  }
  FLOE_ASSIGN_OR_RETURN(auto lower, f.Lower(p));
  FLOE_ASSIGN_OR_RETURN(auto upper, f.Upper(p));
  switch (p.op()) {
    case Op::kNotEq:
    case Op::kNotIn:
    case Op::kNotStartsWith: {
      // Nulls and NaNs satisfy these, and so do values outside [lower, upper].
      if (f.NullsOnly(id) || f.NansOnly(id)) return true;
      if (p.op() == Op::kNotStartsWith) {
        const std::string& prefix = p.literal().bytes_value();
        if (lower && ComparePrefix(lower->bytes_value(), prefix) > 0) return true;
        if (upper && ComparePrefix(upper->bytes_value(), prefix) < 0) return true;
        return false;
      }
      for (const auto& v : p.literals()) {
        bool outside = (lower && lower->Compare(v) > 0) || (upper && upper->Compare(v) < 0);
        if (!outside) return false;
      }
      return true;
    }
    default:
      break;
  }
  if (f.MayHaveNulls(id) || f.MayHaveNans(p)) return false;
  switch (p.op()) {
    case Op::kLt:
      return upper && upper->Compare(p.literal()) < 0;
    case Op::kLtEq:
      return upper && upper->Compare(p.literal()) <= 0;
    case Op::kGt:
      return lower && lower->Compare(p.literal()) > 0;
    case Op::kGtEq:
      return lower && lower->Compare(p.literal()) >= 0;
    case Op::kEq:
    case Op::kIn: {
      if (!lower || !upper || lower->Compare(*upper) != 0) return false;
      for (const auto& v : p.literals()) {
        if (lower->Compare(v) == 0) return true;
      }
      return false;
    }
    case Op::kStartsWith: {
      if (!lower || !upper) return false;
      const std::string& prefix = p.literal().bytes_value();
      return lower->bytes_value().starts_with(prefix) && upper->bytes_value().starts_with(prefix);
    }
    default:
      return false;
  }
}

template <typename Leaf>
Result<bool> Walk(const Expression& e, const FileView& f, const Leaf& leaf) {
  switch (e.op()) {
    case Op::kTrue:
      return true;
    case Op::kFalse:
      return false;
    case Op::kAnd: {
      FLOE_ASSIGN_OR_RETURN(bool l, Walk(*e.left(), f, leaf));
      if (!l) return false;
      return Walk(*e.right(), f, leaf);
    }
    case Op::kOr: {
      FLOE_ASSIGN_OR_RETURN(bool l, Walk(*e.left(), f, leaf));
      if (l) return true;
      return Walk(*e.right(), f, leaf);
    }
    case Op::kNot:
      return InvalidArgument("metrics evaluation needs NOT rewritten (use Bind)");
    default:
      if (!e.is_bound())
        return InvalidArgument("metrics evaluation: {} is not bound", e.ToString());
      return leaf(e, f);
  }
}

}  // namespace

Result<bool> InclusiveMetricsEvaluator::MightMatch(const DataFileMetrics& metrics) const {
  if (metrics.record_count == 0) return false;
  return Walk(*filter_, FileView(metrics), Inclusive);
}

Result<bool> StrictMetricsEvaluator::AllMatch(const DataFileMetrics& metrics) const {
  if (metrics.record_count == 0) return true;
  return Walk(*filter_, FileView(metrics), Strict);
}

}  // namespace floe::expr
