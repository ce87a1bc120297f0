#include "floe/sql/scalar/type_rules.h"

#include <fmt/core.h>

#include <algorithm>

namespace floe::sql::scalar {
namespace {

int IntegerRank(TypeKind kind) {
  switch (kind) {
    case TypeKind::kInt8:
      return 1;
    case TypeKind::kInt16:
      return 2;
    case TypeKind::kInt32:
      return 3;
    case TypeKind::kInt64:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

bool IsInteger(const DataType& type) { return IntegerRank(type.kind()) > 0; }
bool IsFloating(const DataType& type) {
  return type.kind() == TypeKind::kFloat32 || type.kind() == TypeKind::kFloat64;
}
bool IsDecimal(const DataType& type) { return type.kind() == TypeKind::kDecimal128; }
bool IsNumeric(const DataType& type) {
  return IsInteger(type) || IsFloating(type) || IsDecimal(type);
}
bool IsString(const DataType& type) {
  return type.kind() == TypeKind::kString || type.kind() == TypeKind::kLargeString;
}
bool IsNullType(const DataType& type) { return type.kind() == TypeKind::kNull; }

std::string SqlTypeName(const DataType& type) {
  switch (type.kind()) {
    case TypeKind::kNull:
      return "NULL";
    case TypeKind::kBool:
      return "BOOLEAN";
    case TypeKind::kInt8:
      return "TINYINT";
    case TypeKind::kInt16:
      return "SMALLINT";
    case TypeKind::kInt32:
      return "INT";
    case TypeKind::kInt64:
      return "BIGINT";
    case TypeKind::kFloat32:
      return "FLOAT";
    case TypeKind::kFloat64:
      return "DOUBLE";
    case TypeKind::kDecimal128:
      return fmt::format("DECIMAL({}, {})", type.precision(), type.scale());
    case TypeKind::kDate32:
      return "DATE";
    case TypeKind::kTime64:
      return "TIME";
    case TypeKind::kTimestamp:
      return fmt::format("{}({})", type.utc() ? "TIMESTAMP_LTZ" : "TIMESTAMP",
                         type.unit() == TimeUnit::kNano ? 9 : 6);
    case TypeKind::kString:
    case TypeKind::kLargeString:
      return "STRING";
    case TypeKind::kBinary:
    case TypeKind::kLargeBinary:
      return "BYTES";
    case TypeKind::kFixedSizeBinary:
      return fmt::format("BINARY({})", type.byte_width());
    case TypeKind::kList:
      return fmt::format("ARRAY<{}>", SqlTypeName(*type.field(0).type));
    case TypeKind::kMap:
      return fmt::format("MAP<{}, {}>", SqlTypeName(*type.key_field().type),
                         SqlTypeName(*type.item_field().type));
    case TypeKind::kStruct: {
      std::string out = "ROW<";
      for (int i = 0; i < type.num_fields(); ++i) {
        if (i) out += ", ";
        out += type.field(i).name + " " + SqlTypeName(*type.field(i).type);
      }
      return out + ">";
    }
    default:
      return type.ToString();
  }
}

DataTypePtr IntegerAsDecimal(const DataType& type) {
  switch (type.kind()) {
    case TypeKind::kInt8:
      return DataType::Decimal128(3, 0);
    case TypeKind::kInt16:
      return DataType::Decimal128(5, 0);
    case TypeKind::kInt32:
      return DataType::Decimal128(10, 0);
    default:
      return DataType::Decimal128(19, 0);
  }
}

DataTypePtr AdjustedDecimal(int precision, int scale) {
  if (precision <= 38) return DataType::Decimal128(std::max(precision, 1), scale);
  const int integer_digits = precision - scale;
  const int min_scale = std::min(scale, 6);
  return DataType::Decimal128(38, std::max(38 - integer_digits, min_scale));
}

DataTypePtr WiderNumeric(const DataTypePtr& a, const DataTypePtr& b) {
  if (a->kind() == TypeKind::kFloat64 || b->kind() == TypeKind::kFloat64)
    return DataType::Float64();
  if (a->kind() == TypeKind::kFloat32 || b->kind() == TypeKind::kFloat32) {
    return IsDecimal(*a) || IsDecimal(*b) ? DataType::Float64() : DataType::Float32();
  }
  if (IsDecimal(*a) || IsDecimal(*b)) {
    DataTypePtr da = IsDecimal(*a) ? a : IntegerAsDecimal(*a);
    DataTypePtr db = IsDecimal(*b) ? b : IntegerAsDecimal(*b);
    const int scale = std::max(da->scale(), db->scale());
    const int integer_digits =
        std::max(da->precision() - da->scale(), db->precision() - db->scale());
    return DataType::Decimal128(std::min(38, integer_digits + scale), scale);
  }
  return IntegerRank(a->kind()) >= IntegerRank(b->kind()) ? a : b;
}

bool SameSqlType(const DataType& a, const DataType& b) {
  if (!a.Equals(b) || a.precision() != b.precision()) return false;
  for (int i = 0; i < a.num_fields(); ++i) {
    if (!SameSqlType(*a.field(i).type, *b.field(i).type)) return false;
  }
  return true;
}

std::optional<DataTypePtr> CommonType(const DataTypePtr& a, const DataTypePtr& b) {
  if (IsNullType(*a)) return b;
  if (IsNullType(*b)) return a;
  // Equal types may still differ in a time's precision (Equals ignores it): the wider one, and
  // nested types meet member by member below.
  if (a->Equals(*b) && !a->is_nested()) return a->precision() >= b->precision() ? a : b;
  if (IsNumeric(*a) && IsNumeric(*b)) return WiderNumeric(a, b);
  if (IsString(*a) && IsString(*b)) return DataType::String();
  const bool a_time = a->kind() == TypeKind::kTimestamp || a->kind() == TypeKind::kDate32;
  const bool b_time = b->kind() == TypeKind::kTimestamp || b->kind() == TypeKind::kDate32;
  if (a_time && b_time) {
    if (a->kind() == TypeKind::kDate32) return b;
    if (b->kind() == TypeKind::kDate32) return a;
    if (a->utc() != b->utc()) return std::nullopt;
    // The wider precision, as Flink's common type of TIMESTAMP(p) and TIMESTAMP(q).
    return DataType::Timestamp(a->unit() == TimeUnit::kNano || b->unit() == TimeUnit::kNano
                                   ? TimeUnit::kNano
                                   : TimeUnit::kMicro,
                               a->utc(), std::max(a->precision(), b->precision()));
  }
  if (a->kind() == TypeKind::kTime64 && b->kind() == TypeKind::kTime64) {
    return DataType::Time64(TimeUnit::kMicro, std::max(a->precision(), b->precision()));
  }
  if (a->is_binary_like() && b->is_binary_like() && !IsString(*a) && !IsString(*b)) {
    return DataType::Binary();
  }
  if (a->is_nested() && a->kind() == b->kind() && a->num_fields() == b->num_fields()) {
    // ARRAY, MAP and ROW meet element by element (field by field); nullable where either is.
    auto merge = [](const Field& x, const Field& y) -> std::optional<Field> {
      std::optional<DataTypePtr> type = CommonType(x.type, y.type);
      if (!type) return std::nullopt;
      Field out = x;
      out.type = *type;
      out.nullable = x.nullable || y.nullable;
      return out;
    };
    if (a->kind() == TypeKind::kMap) {
      std::optional<Field> key = merge(a->key_field(), b->key_field());
      std::optional<Field> item = merge(a->item_field(), b->item_field());
      if (!key || !item) return std::nullopt;
      return DataType::Map(*key, *item, a->keys_sorted() && b->keys_sorted());
    }
    std::vector<Field> fields;
    for (int i = 0; i < a->num_fields(); ++i) {
      std::optional<Field> field = merge(a->field(i), b->field(i));
      if (!field) return std::nullopt;
      fields.push_back(std::move(*field));
    }
    if (a->kind() == TypeKind::kList) return DataType::List(std::move(fields[0]));
    return DataType::Struct(std::move(fields));
  }
  return std::nullopt;
}

}  // namespace floe::sql::scalar
