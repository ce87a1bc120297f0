#include "floe/batch/arrow_c.h"

#include <fmt/core.h>

#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace floe {
namespace {

constexpr std::string_view kFieldIdKey = "PARQUET:field_id";

// ---------------------------------------------------------------------------------------------
// Export

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    ArrowSchema* child = schema->children[i];
    // A consumer may have moved a child out, leaving it released.
    if (child->release != nullptr) child->release(child);
  }
  delete static_cast<SchemaPrivate*>(schema->private_data);
  schema->release = nullptr;
}

// The interface's metadata encoding: int32 pair count, then per pair int32 length + key bytes and
// int32 length + value bytes, in native byte order.
std::string EncodeFieldId(int32_t field_id) {
  std::string value = std::to_string(field_id);
  std::string out;
  auto put_int = [&](int32_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof(n)); };
  put_int(1);
  put_int(static_cast<int32_t>(kFieldIdKey.size()));
  out += kFieldIdKey;
  put_int(static_cast<int32_t>(value.size()));
  out += value;
  return out;
}

void ExportFieldInto(const Field& field, ArrowSchema* out) {
  auto* data = new SchemaPrivate;
  data->format = ArrowFormat(*field.type);
  data->name = field.name;
  if (field.field_id) data->metadata = EncodeFieldId(*field.field_id);
  const DataType& type = *field.type;
  const size_t n_children = type.is_nested() ? type.fields().size() : 0;
  data->children.resize(n_children);
  data->child_pointers.resize(n_children);
  for (size_t i = 0; i < n_children; ++i) {
    ExportFieldInto(type.fields()[i], &data->children[i]);
    data->child_pointers[i] = &data->children[i];
  }
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->metadata = data->metadata.empty() ? nullptr : data->metadata.data();
  out->flags =
      (field.nullable ? ARROW_FLAG_NULLABLE : 0) |
      (type.kind() == TypeKind::kMap && type.keys_sorted() ? ARROW_FLAG_MAP_KEYS_SORTED : 0);
  out->n_children = static_cast<int64_t>(n_children);
  out->children = n_children ? data->child_pointers.data() : nullptr;
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = data;
}

struct ArrayPrivate {
  Array array;  // keeps the buffers alive
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  for (int64_t i = 0; i < array->n_children; ++i) {
    ArrowArray* child = array->children[i];
    if (child->release != nullptr) child->release(child);
  }
  delete static_cast<ArrayPrivate*>(array->private_data);
  array->release = nullptr;
}

// Consumers may read offsets[0] of an empty array, so a missing non-validity buffer becomes zeros.
const void* BufferPointer(const Buffer& buffer) {
  alignas(64) static const uint8_t kZeros[64] = {};
  return buffer.data() ? buffer.data() : kZeros;
}

void ExportArrayInto(const Array& array, ArrowArray* out) {
  auto* data = new ArrayPrivate;
  data->array = array;
  const void* validity = array.validity().data();
  switch (array.kind()) {
    case TypeKind::kNull:
      break;
    case TypeKind::kStruct:
      data->buffers = {validity};
      break;
    case TypeKind::kBinary:
    case TypeKind::kString:
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      data->buffers = {validity, BufferPointer(array.values()), BufferPointer(array.data())};
      break;
    default:  // fixed width, bool, list and map offsets
      data->buffers = {validity, BufferPointer(array.values())};
      break;
  }
  const size_t n_children = array.children().size();
  data->children.resize(n_children);
  data->child_pointers.resize(n_children);
  for (size_t i = 0; i < n_children; ++i) {
    ExportArrayInto(array.children()[i], &data->children[i]);
    data->child_pointers[i] = &data->children[i];
  }
  out->length = array.length();
  out->null_count = array.null_count();
  out->offset = array.offset();
  out->n_buffers = static_cast<int64_t>(data->buffers.size());
  out->n_children = static_cast<int64_t>(n_children);
  out->buffers = data->buffers.empty() ? nullptr : data->buffers.data();
  out->children = n_children ? data->child_pointers.data() : nullptr;
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = data;
}

// ---------------------------------------------------------------------------------------------
// Import

Result<std::optional<int32_t>> ReadFieldId(const char* metadata, std::string_view field) {
  if (metadata == nullptr) return std::optional<int32_t>();
  const char* p = metadata;
  auto get_int = [&]() {
    int32_t n;
    std::memcpy(&n, p, sizeof(n));
    p += sizeof(n);
    return n;
  };
  int32_t pairs = get_int();
  if (pairs < 0) return CorruptData("field {}: negative metadata pair count {}", field, pairs);
  std::optional<int32_t> field_id;
  for (int32_t i = 0; i < pairs; ++i) {
    int32_t key_length = get_int();
    if (key_length < 0) return CorruptData("field {}: negative metadata key length", field);
    std::string_view key(p, static_cast<size_t>(key_length));
    p += key_length;
    int32_t value_length = get_int();
    if (value_length < 0) return CorruptData("field {}: negative metadata value length", field);
    std::string_view value(p, static_cast<size_t>(value_length));
    p += value_length;
    if (key != kFieldIdKey) continue;
    int32_t id = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
    if (ec != std::errc() || end != value.data() + value.size()) {
      return CorruptData("field {}: field id '{}' is not an int32", field, value);
    }
    field_id = id;
  }
  return field_id;
}

Result<int32_t> ParseInt(std::string_view text, std::string_view format) {
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return CorruptData("bad number '{}' in Arrow format '{}'", text, format);
  }
  return value;
}

Result<Field> ImportFieldRec(const ArrowSchema* schema, int depth);

Result<DataTypePtr> ParseFormat(std::string_view format, const ArrowSchema* schema, int depth) {
  auto no_children = [&]() -> Status {
    if (schema->n_children != 0) {
      return CorruptData("Arrow format '{}' with {} children", format, schema->n_children);
    }
    return Ok();
  };
  auto children = [&]() -> Result<std::vector<Field>> {
    if (schema->n_children < 0 || (schema->n_children > 0 && schema->children == nullptr)) {
      return CorruptData("Arrow format '{}': bad children", format);
    }
    std::vector<Field> fields;
    for (int64_t i = 0; i < schema->n_children; ++i) {
      FLOE_ASSIGN_OR_RETURN(Field field, ImportFieldRec(schema->children[i], depth + 1));
      fields.push_back(std::move(field));
    }
    return fields;
  };
  if (format.size() == 1) {
    FLOE_RETURN_IF_ERROR(no_children());
    switch (format[0]) {
      case 'n':
        return DataType::Null();
      case 'b':
        return DataType::Bool();
      case 'c':
        return DataType::Int8();
      case 'C':
        return DataType::UInt8();
      case 's':
        return DataType::Int16();
      case 'S':
        return DataType::UInt16();
      case 'i':
        return DataType::Int32();
      case 'I':
        return DataType::UInt32();
      case 'l':
        return DataType::Int64();
      case 'L':
        return DataType::UInt64();
      case 'e':
        return DataType::Float16();
      case 'f':
        return DataType::Float32();
      case 'g':
        return DataType::Float64();
      case 'z':
        return DataType::Binary();
      case 'Z':
        return DataType::LargeBinary();
      case 'u':
        return DataType::String();
      case 'U':
        return DataType::LargeString();
      default:
        break;
    }
  } else if (format == "tdD") {
    FLOE_RETURN_IF_ERROR(no_children());
    return DataType::Date32();
  } else if (format == "ttu" || format == "ttn") {
    FLOE_RETURN_IF_ERROR(no_children());
    return DataType::Time64(format[2] == 'u' ? TimeUnit::kMicro : TimeUnit::kNano);
  } else if (format.starts_with("tsu:") || format.starts_with("tsn:")) {
    FLOE_RETURN_IF_ERROR(no_children());
    // Arrow timestamps with any zone are UTC instants; without one they are local date-times.
    return DataType::Timestamp(format[2] == 'u' ? TimeUnit::kMicro : TimeUnit::kNano,
                               format.size() > 4);
  } else if (format.starts_with("w:")) {
    FLOE_RETURN_IF_ERROR(no_children());
    FLOE_ASSIGN_OR_RETURN(int32_t width, ParseInt(format.substr(2), format));
    if (width < 0) return CorruptData("Arrow format '{}': negative width", format);
    return DataType::FixedSizeBinary(width);
  } else if (format.starts_with("d:")) {
    FLOE_RETURN_IF_ERROR(no_children());
    std::string_view rest = format.substr(2);
    size_t comma = rest.find(',');
    if (comma == std::string_view::npos) return CorruptData("Arrow format '{}'", format);
    std::string_view scale_text = rest.substr(comma + 1);
    size_t bits_comma = scale_text.find(',');
    if (bits_comma != std::string_view::npos) {
      if (scale_text.substr(bits_comma + 1) != "128") {
        return Unsupported("Arrow decimal '{}': only 128-bit decimals", format);
      }
      scale_text = scale_text.substr(0, bits_comma);
    }
    FLOE_ASSIGN_OR_RETURN(int32_t precision, ParseInt(rest.substr(0, comma), format));
    FLOE_ASSIGN_OR_RETURN(int32_t scale, ParseInt(scale_text, format));
    if (precision < 1 || precision > 38) {
      return CorruptData("Arrow format '{}': precision outside 1..38", format);
    }
    return DataType::Decimal128(precision, scale);
  } else if (format == "+l") {
    FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, children());
    if (fields.size() != 1) return CorruptData("Arrow list with {} children", fields.size());
    return DataType::List(std::move(fields[0]));
  } else if (format == "+s") {
    FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, children());
    return DataType::Struct(std::move(fields));
  } else if (format == "+m") {
    FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, children());
    if (fields.size() != 1 || fields[0].type->kind() != TypeKind::kStruct ||
        fields[0].type->num_fields() != 2) {
      return CorruptData("Arrow map without a two-field entries struct");
    }
    const bool sorted = (schema->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
    // floe names the entries "entries"/"key"/"value"; Arrow leaves the names free.
    Field key = fields[0].type->field(0);
    Field value = fields[0].type->field(1);
    key.name = "key";
    value.name = "value";
    return DataType::Map(std::move(key), std::move(value), sorted);
  }
  return Unsupported("Arrow format '{}' has no floe type", format);
}

Result<Field> ImportFieldRec(const ArrowSchema* schema, int depth) {
  if (schema == nullptr || schema->format == nullptr) {
    return CorruptData("Arrow schema without a format");
  }
  // Nesting is bounded so that a cyclic or hostile schema cannot exhaust the stack.
  if (depth > 64) return CorruptData("Arrow schema nested more than 64 levels deep");
  Field field;
  field.name = schema->name ? schema->name : "";
  if (schema->dictionary != nullptr) {
    return Unsupported("field {}: dictionary-encoded Arrow arrays", field.name);
  }
  field.nullable = (schema->flags & ARROW_FLAG_NULLABLE) != 0;
  FLOE_ASSIGN_OR_RETURN(field.field_id, ReadFieldId(schema->metadata, field.name));
  auto type = ParseFormat(schema->format, schema, depth);
  if (!type) return std::unexpected(std::move(type.error().AddContext("field " + field.name)));
  field.type = std::move(*type);
  return field;
}

struct ImportedArray {
  ArrowArray raw;
  ~ImportedArray() {
    if (raw.release != nullptr) raw.release(&raw);
  }
};

Result<Array> ImportArrayRec(const ArrowArray* in, const DataTypePtr& type,
                             const std::shared_ptr<const void>& owner, int depth) {
  const std::string name = type->ToString();
  if (depth > 64) return CorruptData("Arrow array nested more than 64 levels deep");
  if (in == nullptr) return CorruptData("missing {} Arrow array", name);
  if (in->length < 0 || in->offset < 0) {
    return CorruptData("{} Arrow array: negative length {} or offset {}", name, in->length,
                       in->offset);
  }
  if (in->dictionary != nullptr) return Unsupported("{} Arrow array with a dictionary", name);
  const int64_t end = in->offset + in->length;
  int64_t expected_buffers = 2;
  int64_t expected_children = 0;
  switch (type->kind()) {
    case TypeKind::kNull:
      expected_buffers = 0;
      break;
    case TypeKind::kStruct:
      expected_buffers = 1;
      expected_children = type->num_fields();
      break;
    case TypeKind::kBinary:
    case TypeKind::kString:
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      expected_buffers = 3;
      break;
    case TypeKind::kList:
    case TypeKind::kMap:
      expected_children = 1;
      break;
    default:
      break;
  }
  if (in->n_buffers != expected_buffers || in->n_children != expected_children) {
    return CorruptData("{} Arrow array with {} buffers and {} children, expected {} and {}", name,
                       in->n_buffers, in->n_children, expected_buffers, expected_children);
  }
  if ((expected_buffers > 0 && in->buffers == nullptr) ||
      (expected_children > 0 && in->children == nullptr)) {
    return CorruptData("{} Arrow array without its buffer or child pointers", name);
  }
  auto wrap = [&](int index, int64_t size) -> Result<Buffer> {
    const void* pointer = in->buffers[index];
    if (pointer == nullptr) {
      if (size > 0) return CorruptData("{} Arrow array: buffer {} is missing", name, index);
      return Buffer::Zeroed(0);
    }
    return Buffer(owner, static_cast<const uint8_t*>(pointer), size);
  };
  if (type->kind() == TypeKind::kNull) {
    return Array(type, in->length, {}, {}, {}, {}, in->length, in->offset);
  }
  Buffer validity;
  if (in->buffers[0] != nullptr) {
    validity =
        Buffer(owner, static_cast<const uint8_t*>(in->buffers[0]), bit_util::BytesForBits(end));
  } else if (in->null_count != 0) {
    return CorruptData("{} Arrow array: null count {} without a validity bitmap", name,
                       in->null_count);
  }
  Buffer values;
  Buffer data;
  std::vector<Array> children;
  switch (type->kind()) {
    case TypeKind::kBool: {
      FLOE_ASSIGN_OR_RETURN(values, wrap(1, bit_util::BytesForBits(end)));
      break;
    }
    case TypeKind::kBinary:
    case TypeKind::kString:
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString: {
      const int64_t width = type->is_large() ? 8 : 4;
      FLOE_ASSIGN_OR_RETURN(values, wrap(1, (end + 1) * width));
      // The data size is the last offset (the interface carries no sizes).
      int64_t last =
          type->is_large() ? values.data_as<int64_t>()[end] : values.data_as<int32_t>()[end];
      if (last < 0) return CorruptData("{} Arrow array: negative last offset {}", name, last);
      FLOE_ASSIGN_OR_RETURN(data, wrap(2, last));
      break;
    }
    case TypeKind::kList:
    case TypeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(values, wrap(1, (end + 1) * 4));
      FLOE_ASSIGN_OR_RETURN(Array child,
                            ImportArrayRec(in->children[0], type->field(0).type, owner, depth + 1));
      children.push_back(std::move(child));
      break;
    }
    case TypeKind::kStruct: {
      for (int i = 0; i < type->num_fields(); ++i) {
        auto child = ImportArrayRec(in->children[i], type->field(i).type, owner, depth + 1);
        if (!child)
          return std::unexpected(std::move(child.error().AddContext(type->field(i).name)));
        children.push_back(std::move(*child));
      }
      break;
    }
    default: {
      FLOE_ASSIGN_OR_RETURN(values, wrap(1, end * type->byte_width()));
      break;
    }
  }
  int64_t null_count = in->null_count;  // -1: unknown, counted by Array
  return Array(type, in->length, std::move(validity), std::move(values), std::move(data),
               std::move(children), null_count < 0 ? -1 : null_count, in->offset);
}

}  // namespace

std::string ArrowFormat(const DataType& type) {
  const char* unit = type.unit() == TimeUnit::kMicro ? "u" : "n";
  switch (type.kind()) {
    case TypeKind::kNull:
      return "n";
    case TypeKind::kBool:
      return "b";
    case TypeKind::kInt8:
      return "c";
    case TypeKind::kUInt8:
      return "C";
    case TypeKind::kInt16:
      return "s";
    case TypeKind::kUInt16:
      return "S";
    case TypeKind::kInt32:
      return "i";
    case TypeKind::kUInt32:
      return "I";
    case TypeKind::kInt64:
      return "l";
    case TypeKind::kUInt64:
      return "L";
    case TypeKind::kFloat16:
      return "e";
    case TypeKind::kFloat32:
      return "f";
    case TypeKind::kFloat64:
      return "g";
    case TypeKind::kDecimal128:
      return fmt::format("d:{},{}", type.precision(), type.scale());
    case TypeKind::kDate32:
      return "tdD";
    case TypeKind::kTime64:
      return fmt::format("tt{}", unit);
    case TypeKind::kTimestamp:
      return fmt::format("ts{}:{}", unit, type.utc() ? "UTC" : "");
    case TypeKind::kBinary:
      return "z";
    case TypeKind::kString:
      return "u";
    case TypeKind::kLargeBinary:
      return "Z";
    case TypeKind::kLargeString:
      return "U";
    case TypeKind::kFixedSizeBinary:
      return fmt::format("w:{}", type.byte_width());
    case TypeKind::kList:
      return "+l";
    case TypeKind::kStruct:
      return "+s";
    case TypeKind::kMap:
      return "+m";
  }
  return "";
}

Status ExportField(const Field& field, ArrowSchema* out) {
  if (!field.type) return InvalidArgument("field {} has no type", field.name);
  ExportFieldInto(field, out);
  return Ok();
}

Status ExportType(const DataType& type, ArrowSchema* out) {
  // The Field needs a shared pointer; an aliasing one borrows type without owning it.
  Field field{"", DataTypePtr(DataTypePtr(), &type), true, std::nullopt};
  ExportFieldInto(field, out);
  return Ok();
}

Status ExportArray(const Array& array, ArrowArray* out) {
  if (!array.type()) return InvalidArgument("exporting an array without a type");
  ExportArrayInto(array, out);
  return Ok();
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowSchema* schema, ArrowArray* array) {
  auto type = DataType::Struct(batch.schema()->fields());
  if (schema != nullptr) ExportFieldInto(Field{"", type, false, std::nullopt}, schema);
  ExportArrayInto(Array(type, batch.num_rows(), {}, {}, {}, batch.columns(), 0), array);
  return Ok();
}

Result<Field> ImportField(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) {
    return InvalidArgument("importing a released Arrow schema");
  }
  auto field = ImportFieldRec(schema, 0);
  schema->release(schema);
  return field;
}

Result<DataTypePtr> ImportType(ArrowSchema* schema) {
  FLOE_ASSIGN_OR_RETURN(Field field, ImportField(schema));
  return field.type;
}

Result<Array> ImportArray(ArrowArray* array, const DataTypePtr& type) {
  if (array == nullptr || array->release == nullptr) {
    return InvalidArgument("importing a released Arrow array");
  }
  auto holder = std::make_shared<ImportedArray>();
  holder->raw = *array;
  array->release = nullptr;  // moved: the holder releases it
  std::shared_ptr<const void> owner = holder;
  FLOE_ASSIGN_OR_RETURN(Array result, ImportArrayRec(&holder->raw, type, owner, 0));
  FLOE_RETURN_IF_ERROR_CTX(result.Validate(), "importing an Arrow array");
  return result;
}

Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  auto field = ImportField(schema);
  if (!field) {
    if (array != nullptr && array->release != nullptr) array->release(array);
    return std::unexpected(std::move(field).error());
  }
  if (field->type->kind() != TypeKind::kStruct) {
    if (array != nullptr && array->release != nullptr) array->release(array);
    return InvalidArgument("an Arrow record batch must be a struct, not {}",
                           field->type->ToString());
  }
  FLOE_ASSIGN_OR_RETURN(Array columns, ImportArray(array, field->type));
  if (columns.null_count() != 0) {
    return InvalidArgument("an Arrow record batch has {} null rows", columns.null_count());
  }
  std::vector<Array> arrays;
  for (int i = 0; i < columns.num_children(); ++i) arrays.push_back(columns.field(i));
  return RecordBatch::Make(std::make_shared<BatchSchema>(field->type->fields()), std::move(arrays),
                           columns.length());
}

}  // namespace floe
