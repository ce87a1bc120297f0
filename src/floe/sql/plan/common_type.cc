#include "floe/sql/plan/common_type.h"

#include <algorithm>

namespace floe::sql::plan {
namespace {

using Kind = floe::TypeKind;

// Decimal digits an integer type needs; 0 for non-integers.
int IntegerDigits(Kind kind) {
  switch (kind) {
    case Kind::kInt8:
      return 3;
    case Kind::kInt16:
      return 5;
    case Kind::kInt32:
      return 10;
    case Kind::kInt64:
      return 19;
    default:
      return 0;
  }
}

bool IsFloating(Kind kind) { return kind == Kind::kFloat32 || kind == Kind::kFloat64; }

}  // namespace

Result<DataTypePtr> CommonType(const DataTypePtr& a, const DataTypePtr& b, std::string_view what) {
  if (a->Equals(*b)) return a;
  if (a->kind() == Kind::kNull) return b;
  if (b->kind() == Kind::kNull) return a;
  Kind ka = a->kind();
  Kind kb = b->kind();
  int da = IntegerDigits(ka);
  int db = IntegerDigits(kb);
  if (da > 0 && db > 0) return da >= db ? a : b;
  bool numeric_a = da > 0 || ka == Kind::kDecimal128 || IsFloating(ka);
  bool numeric_b = db > 0 || kb == Kind::kDecimal128 || IsFloating(kb);
  if (numeric_a && numeric_b) {
    if (IsFloating(ka) || IsFloating(kb)) {
      if (ka == Kind::kFloat32 && (kb == Kind::kFloat32 || !IsFloating(kb))) return a;
      if (kb == Kind::kFloat32 && !IsFloating(ka)) return b;
      return DataType::Float64();
    }
    // Decimal with an integer or another decimal: enough integer digits for both, the larger
    // scale, at most 38 digits.
    int scale = std::max(ka == Kind::kDecimal128 ? a->scale() : 0,
                         kb == Kind::kDecimal128 ? b->scale() : 0);
    int int_digits = std::max(da > 0 ? da : a->precision() - a->scale(),
                              db > 0 ? db : b->precision() - b->scale());
    return DataType::Decimal128(std::min(38, int_digits + scale), scale);
  }
  auto is_text = [](Kind kind) { return kind == Kind::kString || kind == Kind::kLargeString; };
  if (is_text(ka) && is_text(kb)) return DataType::String();
  auto is_bytes = [](Kind kind) {
    return kind == Kind::kBinary || kind == Kind::kLargeBinary || kind == Kind::kFixedSizeBinary;
  };
  if (is_bytes(ka) && is_bytes(kb)) return DataType::Binary();
  if (ka == Kind::kTimestamp && kb == Kind::kTimestamp && a->utc() == b->utc()) {
    return DataType::Timestamp(TimeUnit::kNano, a->utc());
  }
  return InvalidArgument("{}: types {} and {} have no common type", what, a->ToString(),
                         b->ToString());
}

}  // namespace floe::sql::plan
