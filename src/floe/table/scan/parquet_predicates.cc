#include "floe/table/scan/parquet_predicates.h"

#include <limits>

#include "floe/spec/type.h"
#include "floe/util/int128.h"

namespace floe::table {

namespace {

using expr::Op;
using parquet::ColumnPredicate;
using parquet::LeafConversion;
using POp = ColumnPredicate::Op;

// How the file's raw (physical) values relate to the table's values.
enum class Domain : uint8_t { kNone, kIntegral, kFloating, kBytes };

struct Mapping {
  Domain domain = Domain::kNone;
  // Integral: table value = raw value * factor (a column of a coarser time unit than the type's).
  int64_t factor = 1;
};

bool IsUnit(const DataType& type, TypeKind kind, TimeUnit unit) {
  return type.kind() == kind && type.unit() == unit;
}

Mapping MappingOf(const Type& table_type, const ParquetColumn& column) {
  const DataType& read = *column.type;
  const LeafConversion conversion = column.conversion;
  const TypeKind kind = read.kind();
  switch (table_type.id()) {
    case TypeId::kInt:
    case TypeId::kLong:
      if (conversion == LeafConversion::kInt32ToInt8 ||
          conversion == LeafConversion::kInt32ToInt16 ||
          (conversion == LeafConversion::kInt32 && kind == TypeKind::kInt32) ||
          (conversion == LeafConversion::kInt64 && kind == TypeKind::kInt64)) {
        return {Domain::kIntegral, 1};
      }
      return {};
    case TypeId::kDate:
      if (conversion == LeafConversion::kInt32 && kind == TypeKind::kDate32) {
        return {Domain::kIntegral, 1};
      }
      return {};
    case TypeId::kTime:
      if (conversion == LeafConversion::kInt64 &&
          IsUnit(read, TypeKind::kTime64, TimeUnit::kMicro)) {
        return {Domain::kIntegral, 1};
      }
      return {};
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (conversion == LeafConversion::kInt64 &&
          IsUnit(read, TypeKind::kTimestamp, TimeUnit::kMicro)) {
        return {Domain::kIntegral, 1};
      }
      if (conversion == LeafConversion::kInt64Millis) return {Domain::kIntegral, 1000};
      return {};
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (conversion == LeafConversion::kInt64 &&
          IsUnit(read, TypeKind::kTimestamp, TimeUnit::kNano)) {
        return {Domain::kIntegral, 1};
      }
      if (conversion == LeafConversion::kInt64 &&
          IsUnit(read, TypeKind::kTimestamp, TimeUnit::kMicro)) {
        return {Domain::kIntegral, 1000};
      }
      if (conversion == LeafConversion::kInt64Millis) return {Domain::kIntegral, 1000000};
      return {};
    case TypeId::kFloat:
      if (conversion == LeafConversion::kFloat) return {Domain::kFloating, 1};
      return {};
    case TypeId::kDouble:
      if (conversion == LeafConversion::kFloat || conversion == LeafConversion::kDouble) {
        return {Domain::kFloating, 1};
      }
      return {};
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(table_type);
      // Unscaled values compare like the numbers only at one scale; decimals stored as bytes
      // have no usable statistics order in the reader.
      if ((conversion == LeafConversion::kInt32Decimal ||
           conversion == LeafConversion::kInt64Decimal) &&
          kind == TypeKind::kDecimal128 && read.scale() == decimal.scale()) {
        return {Domain::kIntegral, 1};
      }
      return {};
    }
    case TypeId::kString:
    case TypeId::kBinary:
      if (conversion == LeafConversion::kBytes &&
          (kind == TypeKind::kString || kind == TypeKind::kBinary ||
           kind == TypeKind::kLargeString || kind == TypeKind::kLargeBinary)) {
        return {Domain::kBytes, 1};
      }
      return {};
    default:
      return {};
  }
}

std::optional<int128_t> IntegralValue(const Literal& literal) {
  switch (literal.type_id()) {
    case TypeId::kInt:
    case TypeId::kDate:
      return literal.int_value();
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return literal.long_value();
    case TypeId::kDecimal:
      return literal.decimal_value();
    default:
      return std::nullopt;
  }
}

// The smallest string above every string that starts with prefix, if any.
std::optional<std::string> PrefixSuccessor(std::string prefix) {
  while (!prefix.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(prefix.back());
    if (last != 0xff) {
      ++last;
      return prefix;
    }
    prefix.pop_back();
  }
  return std::nullopt;
}

class Mapper {
 public:
  Mapper(const std::unordered_map<int32_t, ParquetColumn>& columns) : columns_(columns) {}

  void Conjuncts(const expr::Expression& e) {
    if (e.op() == Op::kAnd) {
      Conjuncts(*e.left());
      Conjuncts(*e.right());
    } else if (e.is_predicate() && e.is_bound()) {
      Predicate(e);
    }
  }

  std::vector<ColumnPredicate> Take() { return std::move(out_); }

 private:
  void Predicate(const expr::Expression& p) {
    auto found = columns_.find(p.field_id());
    if (found == columns_.end()) return;
    const ParquetColumn& column = found->second;
    // An all-null (UNKNOWN) column reads as its default or partition value instead.
    if (column.conversion == LeafConversion::kNull || !column.type || !p.type()) return;
    switch (p.op()) {
      case Op::kIsNull:
        Emit(column, POp::kIsNull, int64_t{0});
        return;
      case Op::kNotNull:
        Emit(column, POp::kNotNull, int64_t{0});
        return;
      default:
        break;
    }
    const Mapping mapping = MappingOf(*p.type(), column);
    if (mapping.domain == Domain::kNone || p.literals().empty()) return;
    switch (p.op()) {
      case Op::kLt:
        Compare(column, mapping, POp::kLt, p.literal(), false);
        return;
      case Op::kLtEq:
        Compare(column, mapping, POp::kLe, p.literal(), false);
        return;
      case Op::kGt:
        Compare(column, mapping, POp::kGt, p.literal(), false);
        return;
      case Op::kGtEq:
        Compare(column, mapping, POp::kGe, p.literal(), false);
        return;
      case Op::kEq:
        Compare(column, mapping, POp::kEq, p.literal(), false);
        return;
      case Op::kIn: {
        // A matching row lies between the least and the greatest value of the list.
        const Literal* lo = &p.literals().front();
        const Literal* hi = lo;
        for (const Literal& v : p.literals()) {
          const std::partial_ordering lo_order = v.Compare(*lo);
          const std::partial_ordering hi_order = v.Compare(*hi);
          if (lo_order == std::partial_ordering::unordered ||
              hi_order == std::partial_ordering::unordered) {
            return;
          }
          if (lo_order < 0) lo = &v;
          if (hi_order > 0) hi = &v;
        }
        Compare(column, mapping, POp::kGe, *lo, true);
        Compare(column, mapping, POp::kLe, *hi, true);
        return;
      }
      case Op::kStartsWith: {
        if (mapping.domain != Domain::kBytes) return;
        const std::string& prefix = p.literal().bytes_value();
        if (prefix.empty()) return;
        Emit(column, POp::kGe, prefix);
        if (auto successor = PrefixSuccessor(prefix)) Emit(column, POp::kLt, *successor);
        return;
      }
      default:
        return;
    }
  }

  // Emits what `raw op literal` (the literal in table values) becomes for the file's raw values.
  // from_in: the bound comes from an IN list, whose values are never NaN.
  void Compare(const ParquetColumn& column, const Mapping& mapping, POp op, const Literal& literal,
               bool from_in) {
    if (literal.is_null()) return;
    switch (mapping.domain) {
      case Domain::kIntegral: {
        const std::optional<int128_t> value = IntegralValue(literal);
        if (!value) return;
        const int128_t k = mapping.factor;
        int128_t raw = *value;
        if (k != 1) {
          switch (op) {
            case POp::kLt:
            case POp::kGe:
              raw = CeilDiv128(*value, k);
              break;
            case POp::kLe:
            case POp::kGt:
              raw = FloorDiv128(*value, k);
              break;
            case POp::kEq:
              if (*value % k != 0) return;
              raw = *value / k;
              break;
            default:
              return;
          }
        }
        if (raw < std::numeric_limits<int64_t>::min() ||
            raw > std::numeric_limits<int64_t>::max()) {
          return;
        }
        Emit(column, op, static_cast<int64_t>(raw));
        return;
      }
      case Domain::kFloating: {
        double value = 0;
        if (literal.type_id() == TypeId::kFloat) {
          value = literal.float_value();
        } else if (literal.type_id() == TypeId::kDouble) {
          value = literal.double_value();
        } else {
          return;
        }
        if (std::isnan(value)) return;
        // NaN rows satisfy > and >=, yet statistics leave NaN out.
        if ((op == POp::kGt || op == POp::kGe) && !from_in && !column.nan_free) return;
        // -0 < +0 for the filter, -0 == +0 for the statistics.
        if (value == 0 && op == POp::kLt) op = POp::kLe;
        if (value == 0 && op == POp::kGt) op = POp::kGe;
        Emit(column, op, value);
        return;
      }
      case Domain::kBytes:
        if (literal.type_id() != TypeId::kString && literal.type_id() != TypeId::kBinary) return;
        Emit(column, op, literal.bytes_value());
        return;
      case Domain::kNone:
        return;
    }
  }

  void Emit(const ParquetColumn& column, POp op, std::variant<int64_t, double, std::string> value) {
    ColumnPredicate predicate;
    predicate.column = column.name;
    predicate.field_id = column.field_id;
    predicate.op = op;
    predicate.value = std::move(value);
    out_.push_back(std::move(predicate));
  }

  const std::unordered_map<int32_t, ParquetColumn>& columns_;
  std::vector<ColumnPredicate> out_;
};

}  // namespace

std::vector<parquet::ColumnPredicate> ToParquetPredicates(
    const expr::Expression& filter, const std::unordered_map<int32_t, ParquetColumn>& columns) {
  Mapper mapper(columns);
  mapper.Conjuncts(filter);
  return mapper.Take();
}

}  // namespace floe::table
