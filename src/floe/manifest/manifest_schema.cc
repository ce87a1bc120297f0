#include "floe/manifest/manifest_schema.h"

#include <fmt/format.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "floe/format/avro/schema.h"
#include "floe/util/json.h"

namespace floe::manifest {
namespace {

Json Field(std::string_view name, Json type, int32_t id) {
  Json field = Json::MakeObject();
  field.Set("name", name);
  field.Set("type", std::move(type));
  field.Set("field-id", Json(int64_t{id}));
  return field;
}

Json Optional(Json type) {
  Json u = Json::MakeArray();
  u.Push("null");
  u.Push(std::move(type));
  return u;
}

Json OptionalField(std::string_view name, Json type, int32_t id) {
  Json field = Field(name, Optional(std::move(type)), id);
  field.Set("default", Json());
  return field;
}

Json Record(std::string_view name, Json::Array fields) {
  Json record = Json::MakeObject();
  record.Set("type", "record");
  record.Set("name", name);
  record.Set("fields", Json(std::move(fields)));
  return record;
}

// Iceberg's map<int, V> as an array of key/value records.
Json IntMap(int32_t key_id, int32_t value_id, Json value_type) {
  std::string name = fmt::format("k{}_v{}", key_id, value_id);
  Json::Array fields;
  fields.push_back(Field("key", "int", key_id));
  fields.push_back(Field("value", std::move(value_type), value_id));
  Json array = Json::MakeObject();
  array.Set("type", "array");
  array.Set("items", Record(name, std::move(fields)));
  array.Set("logicalType", "map");
  return array;
}

Json List(Json element, int32_t element_id) {
  Json array = Json::MakeObject();
  array.Set("type", "array");
  array.Set("items", std::move(element));
  array.Set("element-id", Json(int64_t{element_id}));
  return array;
}

Json Logical(std::string_view base, std::string_view logical) {
  Json j = Json::MakeObject();
  j.Set("type", base);
  j.Set("logicalType", logical);
  return j;
}

Json Timestamp(std::string_view logical, bool utc) {
  Json j = Logical("long", logical);
  j.Set("adjust-to-utc", utc);
  return j;
}

Status CheckVersion(int format_version) {
  if (format_version < kMinFormatVersion || format_version > kMaxFormatVersion) {
    return InvalidArgument("unsupported format version {}", format_version);
  }
  return Ok();
}

}  // namespace

int DecimalBytes(int precision) {
  // The fewest bytes whose signed range holds 10^precision - 1.
  for (int n = 1; n < 17; ++n) {
    long double max = 1;
    for (int i = 0; i < 8 * n - 1; ++i) max *= 2;
    long double need = 1;
    for (int i = 0; i < precision; ++i) need *= 10;
    if (max >= need) return n;
  }
  return 16;
}

Result<Json> AvroTypeJson(const Type& type) {
  switch (type.id()) {
    case TypeId::kUnknown:
      return Json("null");
    case TypeId::kBoolean:
      return Json("boolean");
    case TypeId::kInt:
      return Json("int");
    case TypeId::kLong:
      return Json("long");
    case TypeId::kFloat:
      return Json("float");
    case TypeId::kDouble:
      return Json("double");
    case TypeId::kDate:
      return Logical("int", "date");
    case TypeId::kTime:
      return Logical("long", "time-micros");
    case TypeId::kTimestamp:
      return Timestamp("timestamp-micros", false);
    case TypeId::kTimestampTz:
      return Timestamp("timestamp-micros", true);
    case TypeId::kTimestampNs:
      return Timestamp("timestamp-nanos", false);
    case TypeId::kTimestampTzNs:
      return Timestamp("timestamp-nanos", true);
    case TypeId::kString:
      return Json("string");
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Json("bytes");
    case TypeId::kUuid: {
      Json j = Json::MakeObject();
      j.Set("type", "fixed");
      j.Set("name", "uuid_fixed");
      j.Set("size", Json(int64_t{16}));
      j.Set("logicalType", "uuid");
      return j;
    }
    case TypeId::kFixed: {
      const auto& p = static_cast<const PrimitiveType&>(type);
      Json j = Json::MakeObject();
      j.Set("type", "fixed");
      j.Set("name", fmt::format("fixed_{}", p.length()));
      j.Set("size", Json(p.length()));
      return j;
    }
    case TypeId::kDecimal: {
      const auto& p = static_cast<const PrimitiveType&>(type);
      Json j = Json::MakeObject();
      j.Set("type", "fixed");
      j.Set("name", fmt::format("decimal_{}_{}", p.precision(), p.scale()));
      j.Set("size", Json(int64_t{DecimalBytes(p.precision())}));
      j.Set("logicalType", "decimal");
      j.Set("precision", Json(int64_t{p.precision()}));
      j.Set("scale", Json(int64_t{p.scale()}));
      return j;
    }
    default:
      return InvalidArgument("type {} cannot be a partition value", type.ToString());
  }
}

Result<TypePtr> IcebergTypeOf(const avro::Node& node) {
  using avro::LogicalType;
  using avro::Type;
  auto utc = [&node] {
    for (const auto& [key, value] : node.attributes) {
      if (key == "adjust-to-utc") return value.is_bool() && value.as_bool();
    }
    return false;
  };
  switch (node.type) {
    case Type::kNull:
      return PrimitiveType::Get(TypeId::kUnknown);
    case Type::kBoolean:
      return PrimitiveType::Get(TypeId::kBoolean);
    case Type::kInt:
      return PrimitiveType::Get(node.logical_type == LogicalType::kDate ? TypeId::kDate
                                                                        : TypeId::kInt);
    case Type::kLong:
      switch (node.logical_type) {
        case LogicalType::kTimeMicros:
          return PrimitiveType::Get(TypeId::kTime);
        case LogicalType::kTimestampMicros:
          return PrimitiveType::Get(utc() ? TypeId::kTimestampTz : TypeId::kTimestamp);
        case LogicalType::kTimestampNanos:
          return PrimitiveType::Get(utc() ? TypeId::kTimestampTzNs : TypeId::kTimestampNs);
        case LogicalType::kLocalTimestampMicros:
          return PrimitiveType::Get(TypeId::kTimestamp);
        case LogicalType::kLocalTimestampNanos:
          return PrimitiveType::Get(TypeId::kTimestampNs);
        default:
          return PrimitiveType::Get(TypeId::kLong);
      }
    case Type::kFloat:
      return PrimitiveType::Get(TypeId::kFloat);
    case Type::kDouble:
      return PrimitiveType::Get(TypeId::kDouble);
    case Type::kString:
      return PrimitiveType::Get(node.logical_type == LogicalType::kUuid ? TypeId::kUuid
                                                                        : TypeId::kString);
    case Type::kBytes:
      if (node.logical_type == LogicalType::kDecimal) {
        return PrimitiveType::Decimal(node.precision, node.scale);
      }
      return PrimitiveType::Get(TypeId::kBinary);
    case Type::kFixed:
      if (node.logical_type == LogicalType::kDecimal) {
        return PrimitiveType::Decimal(node.precision, node.scale);
      }
      if (node.logical_type == LogicalType::kUuid && node.fixed_size == 16) {
        return PrimitiveType::Get(TypeId::kUuid);
      }
      return PrimitiveType::Fixed(node.fixed_size);
    case Type::kUnion: {
      auto null_branch = node.NullBranch();
      if (!null_branch || node.branches.size() != 2) {
        return Unsupported("a union other than [null, T] cannot be a partition value");
      }
      return IcebergTypeOf(*node.branches[1 - *null_branch]);
    }
    default:
      return Unsupported("Avro {} cannot be a partition value", avro::TypeName(node.type));
  }
}

namespace {

Result<std::shared_ptr<const avro::Schema>> BuildManifestEntrySchema(
    int format_version, const StructType& partition_type) {
  Json::Array partition_fields;
  for (const NestedField& field : partition_type.fields()) {
    auto type = AvroTypeJson(*field.type);
    if (!type) {
      Error error = std::move(type).error();
      error.AddContext("partition field " + field.name);
      return std::unexpected(std::move(error));
    }
    if (field.type->id() == TypeId::kUnknown) {
      Json f = Field(field.name, "null", field.id);
      f.Set("default", Json());
      partition_fields.push_back(std::move(f));
    } else {
      partition_fields.push_back(OptionalField(field.name, std::move(*type), field.id));
    }
  }
  const bool v1 = format_version == 1;
  Json::Array df;
  if (!v1) df.push_back(Field("content", "int", 134));
  df.push_back(Field("file_path", "string", 100));
  df.push_back(Field("file_format", "string", 101));
  df.push_back(Field("partition", Record("r102", std::move(partition_fields)), 102));
  df.push_back(Field("record_count", "long", 103));
  df.push_back(Field("file_size_in_bytes", "long", 104));
  if (v1) df.push_back(Field("block_size_in_bytes", "long", 105));
  df.push_back(OptionalField("column_sizes", IntMap(117, 118, "long"), 108));
  df.push_back(OptionalField("value_counts", IntMap(119, 120, "long"), 109));
  df.push_back(OptionalField("null_value_counts", IntMap(121, 122, "long"), 110));
  df.push_back(OptionalField("nan_value_counts", IntMap(138, 139, "long"), 137));
  df.push_back(OptionalField("lower_bounds", IntMap(126, 127, "bytes"), 125));
  df.push_back(OptionalField("upper_bounds", IntMap(129, 130, "bytes"), 128));
  df.push_back(OptionalField("key_metadata", "bytes", 131));
  df.push_back(OptionalField("split_offsets", List("long", 133), 132));
  if (!v1) df.push_back(OptionalField("equality_ids", List("int", 136), 135));
  df.push_back(OptionalField("sort_order_id", "int", 140));
  if (format_version >= 3) df.push_back(OptionalField("first_row_id", "long", 142));
  if (!v1) df.push_back(OptionalField("referenced_data_file", "string", 143));
  if (format_version >= 3) {
    df.push_back(OptionalField("content_offset", "long", 144));
    df.push_back(OptionalField("content_size_in_bytes", "long", 145));
  }
  Json::Array entry;
  entry.push_back(Field("status", "int", 0));
  if (v1) {
    entry.push_back(Field("snapshot_id", "long", 1));
  } else {
    entry.push_back(OptionalField("snapshot_id", "long", 1));
    entry.push_back(OptionalField("sequence_number", "long", 3));
    entry.push_back(OptionalField("file_sequence_number", "long", 4));
  }
  entry.push_back(Field("data_file", Record("r2", std::move(df)), 2));
  return avro::Schema::FromJson(Record("manifest_entry", std::move(entry)));
}

Result<std::shared_ptr<const avro::Schema>> BuildManifestListSchema(int format_version) {
  Json::Array summary;
  summary.push_back(Field("contains_null", "boolean", 509));
  summary.push_back(OptionalField("contains_nan", "boolean", 518));
  summary.push_back(OptionalField("lower_bound", "bytes", 510));
  summary.push_back(OptionalField("upper_bound", "bytes", 511));
  Json partitions = OptionalField("partitions", List(Record("r508", std::move(summary)), 508), 507);

  Json::Array f;
  f.push_back(Field("manifest_path", "string", 500));
  f.push_back(Field("manifest_length", "long", 501));
  f.push_back(Field("partition_spec_id", "int", 502));
  if (format_version == 1) {
    f.push_back(Field("added_snapshot_id", "long", 503));
    f.push_back(OptionalField("added_files_count", "int", 504));
    f.push_back(OptionalField("existing_files_count", "int", 505));
    f.push_back(OptionalField("deleted_files_count", "int", 506));
    f.push_back(std::move(partitions));
    f.push_back(OptionalField("added_rows_count", "long", 512));
    f.push_back(OptionalField("existing_rows_count", "long", 513));
    f.push_back(OptionalField("deleted_rows_count", "long", 514));
    f.push_back(OptionalField("key_metadata", "bytes", 519));
  } else {
    f.push_back(Field("content", "int", 517));
    f.push_back(Field("sequence_number", "long", 515));
    f.push_back(Field("min_sequence_number", "long", 516));
    f.push_back(Field("added_snapshot_id", "long", 503));
    f.push_back(Field("added_files_count", "int", 504));
    f.push_back(Field("existing_files_count", "int", 505));
    f.push_back(Field("deleted_files_count", "int", 506));
    f.push_back(Field("added_rows_count", "long", 512));
    f.push_back(Field("existing_rows_count", "long", 513));
    f.push_back(Field("deleted_rows_count", "long", 514));
    f.push_back(std::move(partitions));
    f.push_back(OptionalField("key_metadata", "bytes", 519));
    if (format_version >= 3) f.push_back(OptionalField("first_row_id", "long", 520));
  }
  return avro::Schema::FromJson(Record("manifest_file", std::move(f)));
}

// Built schemas by format version and partition type: every manifest a commit writes needs one,
// and building it (JSON, then parsing that) costs more than writing a small manifest. The schemas
// are immutable, so they are shared; the cache is bounded, a process may see many partition types.
class SchemaCache {
 public:
  template <typename Build>
  Result<std::shared_ptr<const avro::Schema>> Get(const std::string& key, Build build) {
    {
      std::lock_guard lock(mutex_);
      auto it = schemas_.find(key);
      if (it != schemas_.end()) return it->second;
    }
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const avro::Schema> schema, build());
    std::lock_guard lock(mutex_);
    if (schemas_.size() >= kMaxSchemas) schemas_.clear();
    schemas_.emplace(key, schema);
    return schema;
  }

 private:
  static constexpr size_t kMaxSchemas = 256;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const avro::Schema>> schemas_;
};

SchemaCache& Cache() {
  static SchemaCache* cache = new SchemaCache();
  return *cache;
}

}  // namespace

Result<std::shared_ptr<const avro::Schema>> ManifestEntrySchema(int format_version,
                                                                const StructType& partition_type) {
  FLOE_RETURN_IF_ERROR(CheckVersion(format_version));
  // What the schema is made of: field ids, names and types, names and types length-prefixed.
  std::string key = fmt::format("entry {}", format_version);
  for (const NestedField& field : partition_type.fields()) {
    const std::string type = field.type ? field.type->ToString() : "";
    fmt::format_to(std::back_inserter(key), " {}:{}:{}:{}:{}", field.id, field.name.size(),
                   field.name, type.size(), type);
  }
  return Cache().Get(key, [&] { return BuildManifestEntrySchema(format_version, partition_type); });
}

Result<std::shared_ptr<const avro::Schema>> ManifestListSchema(int format_version) {
  FLOE_RETURN_IF_ERROR(CheckVersion(format_version));
  return Cache().Get(fmt::format("list {}", format_version),
                     [&] { return BuildManifestListSchema(format_version); });
}

}  // namespace floe::manifest
