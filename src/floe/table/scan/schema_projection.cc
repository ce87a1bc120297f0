#include "floe/table/scan/schema_projection.h"

#include "floe/batch/builder.h"
#include "floe/batch/type_kinds.h"
#include "floe/batch/value.h"
#include "floe/table/scan/batch_types.h"

namespace floe::table {

namespace {

constexpr int64_t kMicrosPerDay = int64_t{86400} * 1000 * 1000;

// The validity of array from bit 0, for a parent whose children are built unsliced.
Buffer ValidityFromZero(const Array& array) {
  if (array.null_count() == 0 || !array.validity()) return Buffer();
  if (array.offset() == 0) return array.validity();
  BufferBuilder bits;
  bits.Resize(bit_util::BytesForBits(array.length()));
  bit_util::CopyBits(array.validity().data(), array.offset(), array.length(), bits.mutable_data(),
                     0);
  return bits.Finish();
}

int64_t IntegerAt(const Array& a, int64_t i) {
  switch (a.kind()) {
    case TypeKind::kInt8:
      return a.Value<int8_t>(i);
    case TypeKind::kInt16:
      return a.Value<int16_t>(i);
    case TypeKind::kInt32:
      return a.Value<int32_t>(i);
    case TypeKind::kUInt8:
      return a.Value<uint8_t>(i);
    case TypeKind::kUInt16:
      return a.Value<uint16_t>(i);
    case TypeKind::kUInt32:
      return a.Value<uint32_t>(i);
    default:
      return a.Value<int64_t>(i);
  }
}

// The same values under another type of the same layout.
Array Retype(const Array& source, const DataTypePtr& type) {
  return Array(type, source.length(), source.validity(), source.values(), source.data(),
               source.children(), source.null_count(), source.offset());
}

template <typename Out, typename Fn>
Array Convert(const Array& source, const DataTypePtr& type, Fn fn) {
  BufferBuilder values;
  values.Resize(source.length() * static_cast<int64_t>(sizeof(Out)));
  auto* out = values.mutable_data_as<Out>();
  for (int64_t i = 0; i < source.length(); ++i) out[i] = fn(i);
  return Array(type, source.length(), ValidityFromZero(source), values.Finish(), {}, {},
               source.null_count());
}

bool SameLayoutKinds(TypeKind a, TypeKind b) {
  auto group = [](TypeKind k) {
    switch (k) {
      case TypeKind::kInt32:
      case TypeKind::kDate32:
        return 1;
      case TypeKind::kInt64:
      case TypeKind::kTime64:
      case TypeKind::kTimestamp:
        return 2;
      case TypeKind::kBinary:
      case TypeKind::kString:
        return 3;
      case TypeKind::kLargeBinary:
      case TypeKind::kLargeString:
        return 4;
      default:
        return 0;
    }
  };
  return group(a) != 0 && group(a) == group(b);
}

int64_t UnitsPerSecond(TimeUnit unit) { return unit == TimeUnit::kNano ? 1000000000 : 1000000; }

Result<Array> CastLeaf(const Array& source, const DataTypePtr& target, const std::string& name) {
  const DataType& from = *source.type();
  const DataType& to = *target;
  if (from.Equals(to)) return source;
  if (from.kind() == TypeKind::kNull) return Array::MakeNulls(target, source.length());
  const bool time_like = to.kind() == TypeKind::kTime64 || to.kind() == TypeKind::kTimestamp;
  const bool from_time_like =
      from.kind() == TypeKind::kTime64 || from.kind() == TypeKind::kTimestamp;
  if (time_like && from_time_like && from.unit() != to.unit()) {
    if (from.unit() == TimeUnit::kNano) {
      return Convert<int64_t>(source, target, [&](int64_t i) {
        const int64_t v = source.Value<int64_t>(i);
        return v / 1000 - (v % 1000 < 0 ? 1 : 0);
      });
    }
    return Convert<int64_t>(source, target,
                            [&](int64_t i) { return source.Value<int64_t>(i) * 1000; });
  }
  if (SameLayoutKinds(from.kind(), to.kind())) return Retype(source, target);
  if (from.kind() == TypeKind::kDecimal128 && to.kind() == TypeKind::kDecimal128 &&
      from.scale() == to.scale() && from.precision() <= to.precision()) {
    return Retype(source, target);
  }
  // A uint64 file column does not widen to a long: its upper half does not fit.
  if (IsIntegerKind(from.kind()) && from.kind() != TypeKind::kUInt64 &&
      to.kind() == TypeKind::kInt64) {
    return Convert<int64_t>(source, target, [&](int64_t i) { return IntegerAt(source, i); });
  }
  if (IsIntegerKind(from.kind()) && from.byte_width() < 4 &&
      (to.kind() == TypeKind::kInt32 || to.kind() == TypeKind::kDate32)) {
    return Convert<int32_t>(source, target,
                            [&](int64_t i) { return static_cast<int32_t>(IntegerAt(source, i)); });
  }
  if (from.kind() == TypeKind::kFloat32 && to.kind() == TypeKind::kFloat64) {
    return Convert<double>(source, target,
                           [&](int64_t i) { return static_cast<double>(source.Value<float>(i)); });
  }
  if (from.kind() == TypeKind::kDate32 && to.kind() == TypeKind::kTimestamp) {
    const int64_t per_day = kMicrosPerDay * (UnitsPerSecond(to.unit()) / 1000000);
    return Convert<int64_t>(source, target,
                            [&](int64_t i) { return source.Value<int32_t>(i) * per_day; });
  }
  if (to.kind() == TypeKind::kFixedSizeBinary && from.is_binary_like()) {
    FixedSizeBinaryBuilder builder(target);
    for (int64_t i = 0; i < source.length(); ++i) {
      if (source.IsNull(i)) {
        builder.AppendNull();
        continue;
      }
      const std::string_view v = source.GetView(i);
      if (static_cast<int32_t>(v.size()) != to.byte_width()) {
        return InvalidArgument("column {}: a value of {} bytes in a {} column", name, v.size(),
                               to.ToString());
      }
      builder.Append(v);
    }
    return builder.Finish();
  }
  return InvalidArgument("column {}: the file's {} cannot be read as {}", name, from.ToString(),
                         to.ToString());
}

const Field* FindField(const DataType& type, const NestedField& target, FieldMatch match,
                       int* index) {
  for (int i = 0; i < type.num_fields(); ++i) {
    const Field& field = type.field(i);
    if (match == FieldMatch::kById ? field.field_id == target.id : field.name == target.name) {
      *index = i;
      return &field;
    }
  }
  return nullptr;
}

Result<Array> ProjectStruct(const Array& source, const StructType& target_type,
                            const DataTypePtr& type, FieldMatch match) {
  std::vector<Array> children;
  for (const NestedField& child : target_type.fields()) {
    int index = -1;
    const Field* found = FindField(*source.type(), child, match, &index);
    if (found && found->type->kind() != TypeKind::kNull) {
      FLOE_ASSIGN_OR_RETURN(Array projected,
                            ProjectArray(source.field(index), *found, child, match));
      children.push_back(std::move(projected));
    } else {
      FLOE_ASSIGN_OR_RETURN(Array missing, MissingArray(child, source.length()));
      children.push_back(std::move(missing));
    }
  }
  return Array(type, source.length(), ValidityFromZero(source), {}, {}, std::move(children),
               source.null_count());
}

}  // namespace

Result<Array> ProjectArray(const Array& source, const Field& source_field,
                           const NestedField& target, FieldMatch match) {
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(*target.type));
  const TypeKind from = source.kind();
  switch (target.type->id()) {
    case TypeId::kStruct: {
      if (from == TypeKind::kNull) return MissingArray(target, source.length());
      if (from != TypeKind::kStruct) break;
      return ProjectStruct(source, static_cast<const StructType&>(*target.type), type, match);
    }
    case TypeId::kList: {
      if (from == TypeKind::kNull) return MissingArray(target, source.length());
      if (from != TypeKind::kList) break;
      const NestedField& element = static_cast<const ListType&>(*target.type).element();
      FLOE_ASSIGN_OR_RETURN(Array values, ProjectArray(source.list_values(),
                                                       source.type()->field(0), element, match));
      return Array(type, source.length(), source.validity(), source.values(), {},
                   {std::move(values)}, source.null_count(), source.offset());
    }
    case TypeId::kMap: {
      if (from == TypeKind::kNull) return MissingArray(target, source.length());
      if (from != TypeKind::kMap) break;
      const auto& map = static_cast<const MapType&>(*target.type);
      const Array& entries = source.child(0);
      FLOE_ASSIGN_OR_RETURN(
          Array keys, ProjectArray(entries.field(0), source.type()->key_field(), map.key(), match));
      FLOE_ASSIGN_OR_RETURN(Array items, ProjectArray(entries.field(1), source.type()->item_field(),
                                                      map.value(), match));
      Array projected_entries(type->field(0).type, entries.length(), ValidityFromZero(entries), {},
                              {}, {std::move(keys), std::move(items)}, entries.null_count());
      return Array(type, source.length(), source.validity(), source.values(), {},
                   {std::move(projected_entries)}, source.null_count(), source.offset());
    }
    default:
      return CastLeaf(source, type, target.name);
  }
  return InvalidArgument("column {}: the file holds {} where the table has {}", target.name,
                         source_field.type->ToString(), target.type->ToString());
}

Result<Array> ConstantArray(const NestedField& target, const Literal& value, int64_t rows) {
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(*target.type));
  std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
  builder->Reserve(rows);
  const Value v = LiteralToValue(value);
  for (int64_t i = 0; i < rows; ++i)
    FLOE_RETURN_IF_ERROR_CTX(AppendValue(*builder, v), target.name);
  return builder->Finish();
}

Result<Array> MissingArray(const NestedField& target, int64_t rows, const Literal* constant) {
  if (constant) {
    if (constant->is_null()) {
      FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(*target.type));
      return Array::MakeNulls(type, rows);
    }
    FLOE_ASSIGN_OR_RETURN(Literal promoted, constant->PromoteTo(target.type));
    return ConstantArray(target, promoted, rows);
  }
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ToBatchType(*target.type));
  if (target.initial_default && !target.initial_default->is_null()) {
    if (target.type->id() == TypeId::kStruct) {
      std::vector<Array> children;
      for (const NestedField& child : static_cast<const StructType&>(*target.type).fields()) {
        FLOE_ASSIGN_OR_RETURN(Array column, MissingArray(child, rows));
        children.push_back(std::move(column));
      }
      return Array(type, rows, {}, {}, {}, std::move(children), 0);
    }
    auto value = Literal::FromJson(target.type, *target.initial_default);
    if (!value) {
      return std::unexpected(
          std::move(value.error().AddContext(fmt::format("initial-default of {}", target.name))));
    }
    return ConstantArray(target, *value, rows);
  }
  if (target.required) {
    return InvalidArgument(
        "required column {} (id {}) is missing from the data file and has no "
        "initial-default",
        target.name, target.id);
  }
  return Array::MakeNulls(type, rows);
}

}  // namespace floe::table
