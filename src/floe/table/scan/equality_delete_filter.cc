#include "floe/table/scan/equality_delete_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "floe/spec/literal.h"
#include "floe/table/scan/batch_filter.h"
#include "floe/table/scan/data_file_reader.h"
#include "floe/table/scan/int_key_set_internal.h"

namespace floe::table {

namespace {

template <typename T>
void AppendRaw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// Appends row i of the column to a key: a null marker, or a presence marker and the value in a
// form where equal values give equal bytes and different values different bytes.
void AppendKey(const ColumnPath& column, int64_t i, std::string& out) {
  if (column.IsNull(i)) {
    out.push_back('\0');
    return;
  }
  out.push_back('\1');
  const Array& a = column.leaf;
  switch (a.kind()) {
    case TypeKind::kBool:
      out.push_back(a.GetBool(i) ? '\1' : '\0');
      return;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      AppendRaw(out, a.Value<int32_t>(i));
      return;
    case TypeKind::kFloat32: {
      const float v = a.Value<float>(i);
      AppendRaw(out, std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : v);
      return;
    }
    case TypeKind::kFloat64: {
      const double v = a.Value<double>(i);
      AppendRaw(out, std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v);
      return;
    }
    case TypeKind::kDecimal128:
      AppendRaw(out, a.GetDecimal(i));
      return;
    case TypeKind::kFixedSizeBinary:
      out.append(a.GetView(i));
      return;
    default:
      break;
  }
  if (a.type()->is_binary_like()) {
    const std::string_view v = a.GetView(i);
    AppendRaw(out, static_cast<uint64_t>(v.size()));
    out.append(v);
    return;
  }
  AppendRaw(out, a.Value<int64_t>(i));
}

// Whether a key of this type is kept as an integer: the types a batch holds as int32 or int64.
bool IsIntegerKey(TypeId id) {
  switch (id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return true;
    default:
      return false;
  }
}

bool Is32Bit(const Array& a) {
  return a.kind() == TypeKind::kInt32 || a.kind() == TypeKind::kDate32;
}

int64_t IntAt(const Array& a, bool narrow, int64_t i) {
  return narrow ? int64_t{a.Value<int32_t>(i)} : a.Value<int64_t>(i);
}

// A bound (Appendix D bytes) of an integer-like field as an integer.
std::optional<int64_t> IntBound(const manifest::BoundMap& bounds, int32_t id, const TypePtr& type) {
  for (const auto& [field_id, bytes] : bounds) {
    if (field_id != id) continue;
    auto literal = Literal::FromBinary(type, bytes);
    if (!literal) return std::nullopt;
    if (type->id() == TypeId::kInt || type->id() == TypeId::kDate) return literal->int_value();
    return literal->long_value();
  }
  return std::nullopt;
}

Result<std::vector<ColumnPath>> KeyColumns(const RecordBatch& batch, const Schema& schema,
                                           const std::vector<int32_t>& ids) {
  std::vector<ColumnPath> columns;
  for (int32_t id : ids) {
    const NestedField* field = schema.FindField(id);
    if (field == nullptr || !field->type->is_primitive()) {
      return InvalidArgument("equality field id {} is not a primitive field of the schema", id);
    }
    FLOE_ASSIGN_OR_RETURN(ColumnPath column, FindColumn(batch, schema, id));
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace

EqualityDeleteSet::EqualityDeleteSet(std::vector<int32_t> field_ids, const Schema& schema)
    : field_ids_(std::move(field_ids)) {
  if (field_ids_.size() != 1) return;
  const NestedField* field = schema.FindField(field_ids_[0]);
  if (field != nullptr && IsIntegerKey(field->type->id())) {
    int_keys_ = std::make_unique<IntKeySet>();
  }
}

EqualityDeleteSet::~EqualityDeleteSet() = default;

size_t EqualityDeleteSet::size() const { return int_keys_ ? int_keys_->size() : keys_.size(); }

size_t EqualityDeleteSet::memory_bytes() const {
  if (int_keys_) return int_keys_->memory_bytes();
  size_t bytes = keys_.bucket_count() * sizeof(void*);
  for (const std::string& key : keys_)
    bytes += sizeof(std::string) + 2 * sizeof(void*) + key.size();
  return bytes;
}

bool EqualityDeleteSet::MayMatch(const manifest::DataFile& data_file, const Schema& schema) const {
  if (!int_keys_ || int_null_) return true;
  if (int_keys_->size() == 0) return false;
  const NestedField* field = schema.FindField(field_ids_[0]);
  if (field == nullptr) return true;
  std::optional<int64_t> lower = IntBound(data_file.lower_bounds, field->id, field->type);
  std::optional<int64_t> upper = IntBound(data_file.upper_bounds, field->id, field->type);
  if (lower && *lower > int_max_) return false;
  if (upper && *upper < int_min_) return false;
  return true;
}

Status EqualityDeleteSet::Add(const RecordBatch& batch, const Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(auto columns, KeyColumns(batch, schema, field_ids_));
  if (int_keys_) {
    const ColumnPath& column = columns[0];
    const bool narrow = Is32Bit(column.leaf);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      if (column.IsNull(i)) {
        int_null_ = true;
        continue;
      }
      const int64_t v = IntAt(column.leaf, narrow, i);
      int_keys_->Insert(v);
      int_min_ = std::min(int_min_, v);
      int_max_ = std::max(int_max_, v);
    }
    return Ok();
  }
  std::string key;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    key.clear();
    for (const ColumnPath& column : columns) AppendKey(column, i, key);
    keys_.insert(key);
  }
  return Ok();
}

Result<std::shared_ptr<const EqualityDeleteSet>> EqualityDeleteSet::Load(
    io::FileIO& io, const manifest::DataFile& file, const SchemaPtr& schema,
    const NameMapping* name_mapping) {
  if (file.equality_ids.empty()) {
    return CorruptData("{}: an equality delete file without equality_ids", file.file_path);
  }
  for (int32_t id : file.equality_ids) {
    if (schema->FindField(id) == nullptr) {
      return InvalidArgument("{}: equality field id {} is not in the table schema", file.file_path,
                             id);
    }
  }
  SchemaPtr read_schema = schema->Project(file.equality_ids);
  DataFileReadOptions options;
  options.name_mapping = name_mapping;
  options.file_size = file.file_size_in_bytes;
  FLOE_ASSIGN_OR_RETURN(auto reader, DataFileReader::Open(io, file.file_path, file.file_format,
                                                          read_schema, std::move(options)));
  auto set = std::make_shared<EqualityDeleteSet>(file.equality_ids, *read_schema);
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    FLOE_RETURN_IF_ERROR_CTX(set->Add(batch->batch, *read_schema), file.file_path);
  }
  return set;
}

Result<std::shared_ptr<const EqualityDeleteSet>> EqualityDeleteSet::FromBatches(
    std::vector<int32_t> field_ids, const std::vector<RecordBatch>& batches, const Schema& schema) {
  auto set = std::make_shared<EqualityDeleteSet>(std::move(field_ids), schema);
  for (const RecordBatch& batch : batches) FLOE_RETURN_IF_ERROR(set->Add(batch, schema));
  return set;
}

Status EqualityDeleteSet::ClearDeleted(const RecordBatch& batch, const Schema& schema,
                                       uint8_t* keep) const {
  if (size() == 0) return Ok();
  FLOE_ASSIGN_OR_RETURN(auto columns, KeyColumns(batch, schema, field_ids_));
  if (int_keys_) {
    const ColumnPath& column = columns[0];
    const bool narrow = Is32Bit(column.leaf);
    const bool may_be_null = column.leaf.null_count() != 0 || !column.parents.empty();
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      if (!keep[i]) continue;
      if (may_be_null && column.IsNull(i)) {
        if (int_null_) keep[i] = 0;
        continue;
      }
      const int64_t v = IntAt(column.leaf, narrow, i);
      if (v >= int_min_ && v <= int_max_ && int_keys_->Contains(v)) keep[i] = 0;
    }
    return Ok();
  }
  std::string key;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    if (!keep[i]) continue;
    key.clear();
    for (const ColumnPath& column : columns) AppendKey(column, i, key);
    if (keys_.contains(key)) keep[i] = 0;
  }
  return Ok();
}

}  // namespace floe::table
