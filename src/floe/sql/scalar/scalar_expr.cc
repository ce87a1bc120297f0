#include "floe/sql/scalar/scalar_expr.h"

#include <fmt/core.h>

#include <algorithm>

#include "floe/batch/filter.h"
#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/strings.h"

namespace floe::sql {

Result<ScalarExprPtr> BindScalar(const Expr& expr, const Scope& scope) {
  return scalar::Bind(expr, scope);
}

Result<ScalarExprPtr> CastScalar(ScalarExprPtr input, const DataTypePtr& target, bool safe) {
  std::string text = fmt::format("{}({} AS {})", safe ? "TRY_CAST" : "CAST", input->ToString(),
                                 scalar::SqlTypeName(*target));
  return scalar::MakeCast(std::move(input), target, safe, std::move(text));
}

Result<DataTypePtr> ToBatchType(const SqlType& type) {
  auto param = [&](size_t i, int64_t fallback) {
    return i < type.params.size() ? type.params[i] : fallback;
  };
  switch (type.kind) {
    case SqlTypeKind::kBoolean:
      return floe::DataType::Bool();
    case SqlTypeKind::kTinyInt:
      return floe::DataType::Int8();
    case SqlTypeKind::kSmallInt:
      return floe::DataType::Int16();
    case SqlTypeKind::kInt:
      return floe::DataType::Int32();
    case SqlTypeKind::kBigInt:
      return floe::DataType::Int64();
    case SqlTypeKind::kFloat:
      return floe::DataType::Float32();
    case SqlTypeKind::kDouble:
      return floe::DataType::Float64();
    case SqlTypeKind::kDecimal: {
      // Flink's DECIMAL is DECIMAL(10, 0).
      const int64_t precision = param(0, 10);
      const int64_t scale = param(1, 0);
      if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        return InvalidArgument("DECIMAL({}, {}): precision must be 1..38 and scale 0..precision",
                               precision, scale);
      }
      return floe::DataType::Decimal128(static_cast<int32_t>(precision),
                                        static_cast<int32_t>(scale));
    }
    case SqlTypeKind::kChar:
    case SqlTypeKind::kVarChar:
    case SqlTypeKind::kString:
      return floe::DataType::String();
    case SqlTypeKind::kBinary:
    case SqlTypeKind::kVarBinary:
    case SqlTypeKind::kBytes:
      return floe::DataType::Binary();
    case SqlTypeKind::kDate:
      return floe::DataType::Date32();
    case SqlTypeKind::kTime: {
      // Flink's TIME is TIME(0). Times are micros here (Flink keeps millis), so TIME(7..9) shows
      // six digits.
      const int64_t precision = param(0, 0);
      if (precision < 0 || precision > 9) {
        return InvalidArgument("TIME({}): precision must be 0..9", precision);
      }
      return floe::DataType::Time64(TimeUnit::kMicro,
                                    static_cast<int32_t>(std::min<int64_t>(precision, 6)));
    }
    case SqlTypeKind::kTimestamp:
    case SqlTypeKind::kTimestampLtz: {
      const int64_t precision = param(0, 6);
      if (precision < 0 || precision > 9) {
        return InvalidArgument("TIMESTAMP({}): precision must be 0..9", precision);
      }
      return floe::DataType::Timestamp(precision > 6 ? TimeUnit::kNano : TimeUnit::kMicro,
                                       type.kind == SqlTypeKind::kTimestampLtz,
                                       static_cast<int32_t>(precision));
    }
    case SqlTypeKind::kTimestampTz:
      return Unsupported("TIMESTAMP WITH TIME ZONE is not supported (Flink has no such type)");
    case SqlTypeKind::kArray: {
      FLOE_ASSIGN_OR_RETURN(DataTypePtr element, ToBatchType(type.elements.at(0)));
      return floe::DataType::List(std::move(element), !type.elements[0].not_null);
    }
    case SqlTypeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(DataTypePtr key, ToBatchType(type.elements.at(0)));
      FLOE_ASSIGN_OR_RETURN(DataTypePtr value, ToBatchType(type.elements.at(1)));
      return floe::DataType::Map(std::move(key), std::move(value), !type.elements[1].not_null);
    }
    case SqlTypeKind::kMultiset: {
      // Flink stores a MULTISET<T> as a map from the element to its count.
      FLOE_ASSIGN_OR_RETURN(DataTypePtr element, ToBatchType(type.elements.at(0)));
      return floe::DataType::Map(std::move(element), floe::DataType::Int32(), false);
    }
    case SqlTypeKind::kRow: {
      std::vector<Field> fields;
      for (const RowField& field : type.fields) {
        FLOE_ASSIGN_OR_RETURN(DataTypePtr field_type, ToBatchType(field.type));
        fields.push_back({field.name, std::move(field_type), !field.type.not_null, std::nullopt});
      }
      return floe::DataType::Struct(std::move(fields));
    }
    case SqlTypeKind::kNull:
      return floe::DataType::Null();
    case SqlTypeKind::kInterval:
      return Unsupported(
          "INTERVAL {} values are not supported: INTERVAL literals work only in date and "
          "timestamp arithmetic (ts + INTERVAL '1' HOUR)",
          type.interval);
  }
  return Unsupported("unknown SQL type");
}

Result<Value> EvaluateConstant(const Expr& expr) {
  FLOE_ASSIGN_OR_RETURN(ScalarExprPtr bound, BindScalar(expr, Scope()));
  if (std::optional<Value> value = bound->constant()) return *std::move(value);
  FLOE_ASSIGN_OR_RETURN(
      RecordBatch one_row,
      RecordBatch::Make(std::make_shared<BatchSchema>(std::vector<Field>{}), {}, 1));
  FLOE_ASSIGN_OR_RETURN(Array value, bound->Evaluate(one_row));
  return GetValue(value, 0);
}

bool IsAggregateFunction(std::string_view name) {
  static constexpr std::string_view kAggregates[] = {"COUNT", "SUM", "AVG", "MIN", "MAX"};
  for (std::string_view aggregate : kAggregates) {
    if (EqualsIgnoreCase(name, aggregate)) return true;
  }
  return false;
}

bool ContainsAggregate(const Expr& expr) {
  // `SUM(x) OVER (...)` is an OVER aggregate: one value per row, not per group.
  if (expr.over) return false;
  if (expr.kind == ExprKind::kFunction && expr.name.size() == 1 &&
      IsAggregateFunction(expr.name[0])) {
    return true;
  }
  for (const ExprPtr& arg : expr.args) {
    if (arg && ContainsAggregate(*arg)) return true;
  }
  return false;
}

Result<RecordBatch> FilterBatch(const RecordBatch& input, const ScalarExpr& predicate) {
  if (predicate.type()->kind() != floe::TypeKind::kBool &&
      predicate.type()->kind() != floe::TypeKind::kNull) {
    return InvalidArgument("{}: a filter must be BOOLEAN, not {}", predicate.ToString(),
                           scalar::SqlTypeName(*predicate.type()));
  }
  FLOE_ASSIGN_OR_RETURN(Array keep, predicate.Evaluate(input));
  const int64_t n = input.num_rows();
  std::vector<uint8_t> mask(n);
  int64_t kept = 0;
  if (keep.kind() == floe::TypeKind::kBool) {
    for (int64_t i = 0; i < n; ++i) {
      mask[i] = keep.IsValid(i) && keep.GetBool(i);
      kept += mask[i];
    }
  }
  if (kept == n) return input;
  return floe::FilterBatch(input, mask);
}

}  // namespace floe::sql
