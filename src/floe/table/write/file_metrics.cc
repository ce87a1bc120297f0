#include "floe/table/write/file_metrics.h"

#include <cstring>

#include "floe/spec/literal.h"

namespace floe::table {
namespace {

using parquet::MetricsMode;
using parquet::PhysicalType;

template <typename T>
Result<T> LoadLe(std::string_view bytes, int32_t field_id) {
  if (bytes.size() != sizeof(T)) {
    return CorruptData("bound of field {}: {} bytes, expected {}", field_id, bytes.size(),
                       sizeof(T));
  }
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

// Parquet PLAIN (one value, no length prefix) -> Literal of the field's Iceberg type.
Result<Literal> DecodeBound(const TypePtr& type, PhysicalType physical, std::string_view bytes,
                            int32_t id) {
  switch (type->id()) {
    case TypeId::kBoolean: {
      FLOE_ASSIGN_OR_RETURN(uint8_t v, LoadLe<uint8_t>(bytes, id));
      return Literal::Boolean(v != 0);
    }
    case TypeId::kInt: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, LoadLe<int32_t>(bytes, id));
      return Literal::Int(v);
    }
    case TypeId::kDate: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, LoadLe<int32_t>(bytes, id));
      return Literal::Date(v);
    }
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, LoadLe<int64_t>(bytes, id));
      // Appendix D stores all of these as 8-byte little-endian; the literal only carries them.
      std::string out(8, '\0');
      std::memcpy(out.data(), &v, 8);
      return Literal::FromBinary(type, out);
    }
    case TypeId::kFloat: {
      FLOE_ASSIGN_OR_RETURN(float v, LoadLe<float>(bytes, id));
      return Literal::Float(v);
    }
    case TypeId::kDouble: {
      FLOE_ASSIGN_OR_RETURN(double v, LoadLe<double>(bytes, id));
      return Literal::Double(v);
    }
    case TypeId::kDecimal: {
      const auto& decimal = static_cast<const PrimitiveType&>(*type);
      __int128 unscaled = 0;
      if (physical == PhysicalType::kInt32) {
        FLOE_ASSIGN_OR_RETURN(int32_t v, LoadLe<int32_t>(bytes, id));
        unscaled = v;
      } else if (physical == PhysicalType::kInt64) {
        FLOE_ASSIGN_OR_RETURN(int64_t v, LoadLe<int64_t>(bytes, id));
        unscaled = v;
      } else {
        return Literal::FromBinary(type, bytes);  // big-endian two's complement already
      }
      return Literal::Decimal(unscaled, decimal.precision(), decimal.scale());
    }
    default:
      return Literal::FromBinary(type, bytes);  // string, uuid, fixed, binary: the bytes
  }
}

// Whether a field lies inside a list or a map (its bounds would mix many values per row).
bool InsideRepeated(const Schema& schema, int32_t id) {
  for (auto parent = schema.FindParentId(id); parent; parent = schema.FindParentId(*parent)) {
    const NestedField* field = schema.FindField(*parent);
    if (field != nullptr &&
        (field->type->id() == TypeId::kList || field->type->id() == TypeId::kMap)) {
      return true;
    }
  }
  return false;
}

Result<std::string> ToAppendixD(Literal value, bool lower) {
  // -0.0 sorts before +0.0 in bounds; the writer compared them as equal.
  if (value.type_id() == TypeId::kFloat && value.float_value() == 0.0F) {
    value = Literal::Float(lower ? -0.0F : 0.0F);
  } else if (value.type_id() == TypeId::kDouble && value.double_value() == 0.0) {
    value = Literal::Double(lower ? -0.0 : 0.0);
  }
  return value.ToBinary();
}

}  // namespace

void FileMetrics::MoveInto(manifest::DataFile& file) && {
  file.column_sizes = std::move(column_sizes);
  file.value_counts = std::move(value_counts);
  file.null_value_counts = std::move(null_value_counts);
  file.nan_value_counts = std::move(nan_value_counts);
  file.lower_bounds = std::move(lower_bounds);
  file.upper_bounds = std::move(upper_bounds);
}

Result<FileMetrics> MetricsFromParquet(const parquet::WriteResult& result, const Schema& schema) {
  FileMetrics metrics;
  for (size_t i = 0; i < result.columns.size(); ++i) {
    const parquet::ColumnMetrics& column = result.columns[i];
    if (!column.field_id || column.mode.kind == MetricsMode::Kind::kNone) continue;
    const int32_t id = *column.field_id;
    const NestedField* field = schema.FindField(id);
    if (field == nullptr) continue;
    metrics.column_sizes.emplace_back(id, column.column_size);
    metrics.value_counts.emplace_back(id, column.value_count);
    metrics.null_value_counts.emplace_back(id, column.null_count);
    if (column.nan_count) metrics.nan_value_counts.emplace_back(id, *column.nan_count);
    if (!column.lower_bound && !column.upper_bound) continue;
    if (InsideRepeated(schema, id) || result.metadata.row_groups.empty()) continue;
    const auto& chunk = result.metadata.row_groups.front().columns[i].meta_data;
    const PhysicalType physical = chunk ? chunk->type : PhysicalType::kByteArray;
    if (column.lower_bound) {
      FLOE_ASSIGN_OR_RETURN(Literal lower,
                            DecodeBound(field->type, physical, *column.lower_bound, id));
      FLOE_ASSIGN_OR_RETURN(std::string bytes, ToAppendixD(std::move(lower), true));
      metrics.lower_bounds.emplace_back(id, std::move(bytes));
    }
    if (column.upper_bound) {
      FLOE_ASSIGN_OR_RETURN(Literal upper,
                            DecodeBound(field->type, physical, *column.upper_bound, id));
      FLOE_ASSIGN_OR_RETURN(std::string bytes, ToAppendixD(std::move(upper), false));
      metrics.upper_bounds.emplace_back(id, std::move(bytes));
    }
  }
  return metrics;
}

}  // namespace floe::table
