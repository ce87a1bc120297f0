#include "floe/table/write/partitioner.h"

#include <bit>
#include <cstring>
#include <string_view>

#include "floe/spec/transform_values.h"
#include "floe/util/murmur3.h"

namespace floe::table {
namespace tv = transform_values;

// One partition field: where its source column lies in the batch (child indices through structs)
// and how to transform it.
struct Partitioner::FieldPlan {
  std::vector<int> path;
  Transform transform = Transform::Identity();
  TypePtr source_type;
  TypePtr result_type;
  // Transformed values of the current batch, by the shape of the result type.
  std::vector<uint8_t> valid;
  std::vector<int64_t> ints;  // bool, int, long, date, time, timestamps, float bits
  std::vector<__int128> decimals;
  std::vector<std::string_view> bytes;  // string, binary, fixed, uuid: views into the batch
};

namespace {

enum class Shape : uint8_t { kInt, kDecimal, kBytes };

Shape ShapeOf(TypeId id) {
  switch (id) {
    case TypeId::kDecimal:
      return Shape::kDecimal;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
      return Shape::kBytes;
    default:
      return Shape::kInt;
  }
}

bool IsNanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

// Integer-like source values as int64 (one typed loop per kind).
template <typename F>
void ForEachInt(const Array& a, int64_t n, F&& f) {
  switch (a.kind()) {
    case TypeKind::kBool:
      for (int64_t i = 0; i < n; ++i) f(i, a.GetBool(i) ? 1 : 0);
      return;
    case TypeKind::kInt8:
      for (int64_t i = 0; i < n; ++i) f(i, a.Value<int8_t>(i));
      return;
    case TypeKind::kInt16:
      for (int64_t i = 0; i < n; ++i) f(i, a.Value<int16_t>(i));
      return;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      for (int64_t i = 0; i < n; ++i) f(i, a.Value<int32_t>(i));
      return;
    case TypeKind::kFloat32:
      for (int64_t i = 0; i < n; ++i) f(i, std::bit_cast<int32_t>(a.Value<float>(i)));
      return;
    case TypeKind::kFloat64:
      for (int64_t i = 0; i < n; ++i) f(i, std::bit_cast<int64_t>(a.Value<double>(i)));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) f(i, a.Value<int64_t>(i));
      return;
  }
}

bool Holds(TypeKind kind, TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
      return kind == TypeKind::kBool;
    case TypeId::kInt:
      return kind == TypeKind::kInt32 || kind == TypeKind::kInt16 || kind == TypeKind::kInt8;
    case TypeId::kLong:
      return kind == TypeKind::kInt64;
    case TypeId::kFloat:
      return kind == TypeKind::kFloat32;
    case TypeId::kDouble:
      return kind == TypeKind::kFloat64;
    case TypeId::kDate:
      return kind == TypeKind::kDate32;
    case TypeId::kTime:
      return kind == TypeKind::kTime64;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return kind == TypeKind::kTimestamp;
    case TypeId::kDecimal:
      return kind == TypeKind::kDecimal128;
    case TypeId::kString:
      return kind == TypeKind::kString || kind == TypeKind::kLargeString;
    case TypeId::kBinary:
      return kind == TypeKind::kBinary || kind == TypeKind::kLargeBinary;
    case TypeId::kFixed:
    case TypeId::kUuid:
      return kind == TypeKind::kFixedSizeBinary;
    default:
      return false;
  }
}

bool FindPath(const std::vector<Field>& fields, int32_t id, std::vector<int>& path,
              const Field** found) {
  for (size_t i = 0; i < fields.size(); ++i) {
    path.push_back(static_cast<int>(i));
    if (fields[i].field_id == id) {
      *found = &fields[i];
      return true;
    }
    if (fields[i].type->kind() == TypeKind::kStruct &&
        FindPath(fields[i].type->fields(), id, path, found)) {
      return true;
    }
    path.pop_back();
  }
  return false;
}

int32_t HashInt(TypeId id, int64_t v) {
  return IsNanos(id) ? Murmur3HashTimestampNs(v) : Murmur3HashLong(v);
}

int64_t TimeValue(Transform::Kind kind, TypeId id, int64_t v) {
  if (id == TypeId::kDate) {
    const int64_t days = v;
    if (kind == Transform::Kind::kYear) return tv::YearsFromDays(days);
    if (kind == Transform::Kind::kMonth) return tv::MonthsFromDays(days);
    return days;
  }
  const int64_t micros = IsNanos(id) ? tv::MicrosFromNanos(v) : v;
  if (kind == Transform::Kind::kHour) return tv::HoursFromMicros(micros);
  const int64_t days = tv::DaysFromMicros(micros);
  if (kind == Transform::Kind::kYear) return tv::YearsFromDays(days);
  if (kind == Transform::Kind::kMonth) return tv::MonthsFromDays(days);
  return days;
}

// Runs one field's transform over the (already validity-resolved) source column.
void Transform1(Partitioner::FieldPlan& f, const Array& a, int64_t n) {
  const TypeId id = f.source_type->id();
  const Transform::Kind kind = f.transform.kind();
  const int32_t param = f.transform.param();
  switch (ShapeOf(id)) {
    case Shape::kInt:
      f.ints.resize(static_cast<size_t>(n));
      switch (kind) {
        case Transform::Kind::kIdentity:
          ForEachInt(a, n, [&](int64_t i, int64_t v) { f.ints[i] = v; });
          break;
        case Transform::Kind::kBucket:
          ForEachInt(
              a, n, [&](int64_t i, int64_t v) { f.ints[i] = tv::BucketOf(HashInt(id, v), param); });
          break;
        case Transform::Kind::kTruncate:
          if (id == TypeId::kInt) {
            ForEachInt(a, n, [&](int64_t i, int64_t v) {
              f.ints[i] = tv::TruncateInt(static_cast<int32_t>(v), param);
            });
          } else {
            ForEachInt(a, n, [&](int64_t i, int64_t v) { f.ints[i] = tv::TruncateLong(v, param); });
          }
          break;
        default:
          ForEachInt(a, n, [&](int64_t i, int64_t v) { f.ints[i] = TimeValue(kind, id, v); });
          break;
      }
      return;
    case Shape::kDecimal:
      if (kind == Transform::Kind::kBucket) {
        f.ints.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          f.ints[i] = tv::BucketOf(Murmur3HashDecimal(a.GetDecimal(i)), param);
        }
        return;
      }
      f.decimals.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        const __int128 v = a.GetDecimal(i);
        f.decimals[i] = kind == Transform::Kind::kTruncate ? tv::TruncateDecimal(v, param) : v;
      }
      return;
    case Shape::kBytes:
      if (kind == Transform::Kind::kBucket) {
        f.ints.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
          f.ints[i] = tv::BucketOf(Murmur3HashBytes(a.GetView(i)), param);
        return;
      }
      f.bytes.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        std::string_view v = a.GetView(i);
        if (kind == Transform::Kind::kTruncate) {
          v = id == TypeId::kString ? tv::TruncateUtf8(v, param)
                                    : v.substr(0, static_cast<size_t>(param));
        }
        f.bytes[i] = v;
      }
      return;
  }
}

Literal MakeLiteral(const Partitioner::FieldPlan& f, int64_t row) {
  const TypePtr& type = f.result_type;
  if (!f.valid[row]) return Literal::Null(type);
  switch (type->id()) {
    case TypeId::kBoolean:
      return Literal::Boolean(f.ints[row] != 0);
    case TypeId::kInt:
      return Literal::Int(static_cast<int32_t>(f.ints[row]));
    case TypeId::kDate:
      return Literal::Date(static_cast<int32_t>(f.ints[row]));
    case TypeId::kLong:
      return Literal::Long(f.ints[row]);
    case TypeId::kTime:
      return Literal::Time(f.ints[row]);
    case TypeId::kTimestamp:
      return Literal::Timestamp(f.ints[row]);
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(f.ints[row]);
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(f.ints[row]);
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(f.ints[row]);
    case TypeId::kFloat:
      return Literal::Float(std::bit_cast<float>(static_cast<int32_t>(f.ints[row])));
    case TypeId::kDouble:
      return Literal::Double(std::bit_cast<double>(f.ints[row]));
    case TypeId::kDecimal: {
      const auto& d = static_cast<const PrimitiveType&>(*type);
      return Literal::Decimal(f.decimals[row], d.precision(), d.scale());
    }
    case TypeId::kString:
      return Literal::String(std::string(f.bytes[row]));
    case TypeId::kUuid:
      return Literal::Uuid(std::string(f.bytes[row]));
    case TypeId::kFixed:
      return Literal::Fixed(std::string(f.bytes[row]));
    default:
      return Literal::Binary(std::string(f.bytes[row]));
  }
}

void AppendKey(const Partitioner::FieldPlan& f, int64_t row, std::string& key) {
  if (!f.valid[row]) {
    key.push_back('\0');
    return;
  }
  key.push_back('\1');
  if (!f.ints.empty()) {
    key.append(reinterpret_cast<const char*>(&f.ints[row]), sizeof(int64_t));
  } else if (!f.decimals.empty()) {
    key.append(reinterpret_cast<const char*>(&f.decimals[row]), sizeof(__int128));
  } else {
    const auto size = static_cast<uint32_t>(f.bytes[row].size());
    key.append(reinterpret_cast<const char*>(&size), sizeof(size));
    key.append(f.bytes[row]);
  }
}

}  // namespace

Partitioner::~Partitioner() = default;

Result<std::unique_ptr<Partitioner>> Partitioner::Make(PartitionSpecPtr spec, const Schema& schema,
                                                       const BatchSchema& batch_schema) {
  std::unique_ptr<Partitioner> p(new Partitioner());
  for (const PartitionField& field : spec->fields()) {
    if (field.transform.is_unknown() || field.source_ids.size() != 1) {
      return Unsupported("partition field {}: cannot compute transform {}", field.name,
                         field.transform.ToString());
    }
    FieldPlan plan;
    plan.transform = field.transform;
    const NestedField* source = schema.FindField(field.source_id());
    if (source == nullptr) {
      return InvalidArgument("partition field {}: source column {} is not in the schema",
                             field.name, field.source_id());
    }
    plan.source_type = source->type;
    FLOE_ASSIGN_OR_RETURN(plan.result_type, field.transform.ResultType(source->type));
    if (!field.transform.is_void()) {
      const Field* batch_field = nullptr;
      if (!FindPath(batch_schema.fields(), field.source_id(), plan.path, &batch_field)) {
        return InvalidArgument("partition field {}: source column {} (id {}) is not in the batch",
                               field.name, source->name, field.source_id());
      }
      if (!Holds(batch_field->type->kind(), source->type->id())) {
        return InvalidArgument("partition field {}: batch column {} of {} cannot hold {}",
                               field.name, batch_field->name, batch_field->type->ToString(),
                               source->type->ToString());
      }
    }
    p->fields_.push_back(std::move(plan));
  }
  p->spec_ = std::move(spec);
  return p;
}

Status Partitioner::Assign(const RecordBatch& batch, std::vector<uint32_t>& partition_of_row) {
  const int64_t n = batch.num_rows();
  partition_of_row.resize(static_cast<size_t>(n));
  for (FieldPlan& f : fields_) {
    f.valid.assign(static_cast<size_t>(n), f.transform.is_void() ? 0 : 1);
    f.ints.clear();
    f.decimals.clear();
    f.bytes.clear();
    if (f.transform.is_void()) continue;
    Array column = batch.column(f.path[0]);
    for (size_t level = 0;; ++level) {
      if (column.null_count() != 0) {
        for (int64_t i = 0; i < n; ++i) f.valid[i] &= column.IsValid(i) ? 1 : 0;
      }
      if (level + 1 == f.path.size()) break;
      column = column.field(f.path[level + 1]);
    }
    Transform1(f, column, n);
  }
  std::string key, previous;
  uint32_t previous_id = 0;
  for (int64_t row = 0; row < n; ++row) {
    key.clear();
    for (const FieldPlan& f : fields_) AppendKey(f, row, key);
    if (row > 0 && key == previous) {
      partition_of_row[row] = previous_id;
      continue;
    }
    auto [it, inserted] = ids_.try_emplace(key, static_cast<uint32_t>(partitions_.size()));
    if (inserted) {
      std::vector<Literal> values;
      values.reserve(fields_.size());
      for (const FieldPlan& f : fields_) values.push_back(MakeLiteral(f, row));
      partitions_.push_back(std::move(values));
    }
    partition_of_row[row] = previous_id = it->second;
    previous.swap(key);
  }
  return {};
}

}  // namespace floe::table
