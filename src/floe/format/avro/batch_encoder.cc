#include "floe/format/avro/batch_encoder.h"

#include <fmt/format.h>

#include <string>

#include "floe/format/avro/datum_io.h"

namespace floe::avro {

// Where a value goes: a plain Avro type, or one branch of a ["null", T] union.
struct Slot {
  bool is_union = false;
  bool nullable = false;
  int64_t null_branch = 0;
  int64_t value_branch = 0;
};

// Encodes the values of one bound column (or nested child); compiled once, bound per batch.
class ValueWriter {
 public:
  ValueWriter(Slot slot, std::string path) : slot_(slot), path_(std::move(path)) {}
  virtual ~ValueWriter() = default;

  virtual void Bind(const floe::Array& array) { array_ = array; }

  Status Write(int64_t i, Encoder& e) {
    if (array_.IsNull(i)) {
      if (!slot_.nullable) return InvalidArgument("{}: null in a required Avro value", path_);
      if (slot_.is_union) e.WriteLong(slot_.null_branch);
      return Ok();
    }
    if (slot_.is_union) e.WriteLong(slot_.value_branch);
    return WriteValue(i, e);
  }

 protected:
  virtual Status WriteValue(int64_t i, Encoder& e) = 0;

  Slot slot_;
  std::string path_;
  floe::Array array_;
};

namespace {

class NullWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t, Encoder&) override {
    return InvalidArgument("{}: a value where the Avro type is null", path_);
  }
};

class BooleanWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteBoolean(array_.GetBool(i));
    return Ok();
  }
};

// int, long, and the date/time/timestamp types stored in them.
template <typename T>
class IntegerWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteLong(array_.Value<T>(i));
    return Ok();
  }
};

class FloatWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteFloat(array_.Value<float>(i));
    return Ok();
  }
};

class DoubleWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteDouble(array_.Value<double>(i));
    return Ok();
  }
};

class BytesWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteBytes(array_.GetView(i));
    return Ok();
  }
};

class FixedWriter final : public ValueWriter {
 public:
  using ValueWriter::ValueWriter;
  Status WriteValue(int64_t i, Encoder& e) override {
    e.WriteFixed(array_.GetView(i));
    return Ok();
  }
};

// Decimals as big-endian two's complement: in `size` bytes for fixed, in the fewest bytes that
// keep the sign for bytes (size 0).
class DecimalWriter final : public ValueWriter {
 public:
  DecimalWriter(Slot slot, std::string path, int size)
      : ValueWriter(slot, std::move(path)), size_(size) {}
  Status WriteValue(int64_t i, Encoder& e) override {
    __int128 v = array_.GetDecimal(i);
    char buf[16];
    auto u = static_cast<unsigned __int128>(v);
    for (int k = 15; k >= 0; --k) {
      buf[k] = static_cast<char>(static_cast<uint8_t>(u & 0xFF));
      u >>= 8;
    }
    // The leading bytes that only repeat the sign, which the value does not need.
    char sign = v < 0 ? static_cast<char>(0xFF) : 0;
    int skip = 0;
    while (skip < 15 && buf[skip] == sign && ((buf[skip + 1] ^ sign) & 0x80) == 0) ++skip;
    int needed = 16 - skip;
    if (size_ == 0) {
      e.WriteBytes(std::string_view(buf + skip, static_cast<size_t>(needed)));
      return Ok();
    }
    if (needed > size_) {
      return InvalidArgument("{}: decimal value does not fit in {} bytes", path_, size_);
    }
    e.WriteFixed(std::string_view(buf + 16 - size_, static_cast<size_t>(size_)));
    return Ok();
  }

 private:
  int size_;
};

class StructWriter final : public ValueWriter {
 public:
  StructWriter(Slot slot, std::string path, std::vector<std::unique_ptr<ValueWriter>> fields)
      : ValueWriter(slot, std::move(path)), fields_(std::move(fields)) {}
  void Bind(const floe::Array& array) override {
    array_ = array;
    for (size_t f = 0; f < fields_.size(); ++f) fields_[f]->Bind(array.field(static_cast<int>(f)));
  }
  Status WriteValue(int64_t i, Encoder& e) override {
    for (const auto& field : fields_) FLOE_RETURN_IF_ERROR(field->Write(i, e));
    return Ok();
  }

 private:
  std::vector<std::unique_ptr<ValueWriter>> fields_;
};

// Lists as Avro arrays, and maps as Avro maps (string keys) or arrays of key/value records.
class CollectionWriter final : public ValueWriter {
 public:
  enum class Form { kList, kMap, kKeyValueArray };
  CollectionWriter(Slot slot, std::string path, Form form, std::unique_ptr<ValueWriter> key,
                   std::unique_ptr<ValueWriter> value)
      : ValueWriter(slot, std::move(path)),
        form_(form),
        key_(std::move(key)),
        value_(std::move(value)) {}
  void Bind(const floe::Array& array) override {
    array_ = array;
    if (form_ == Form::kList) {
      value_->Bind(array.list_values());
    } else {
      keys_ = array.list_values().child(0);
      if (key_) key_->Bind(keys_);
      value_->Bind(array.list_values().child(1));
    }
  }
  Status WriteValue(int64_t i, Encoder& e) override {
    int64_t begin = array_.ValueOffset(i);
    int64_t end = array_.ValueOffset(i + 1);
    if (end > begin) {
      e.WriteLong(end - begin);
      for (int64_t k = begin; k < end; ++k) {
        if (form_ == Form::kMap) {
          if (keys_.IsNull(k)) return InvalidArgument("{}: null map key", path_);
          e.WriteBytes(keys_.GetView(k));
        } else if (form_ == Form::kKeyValueArray) {
          FLOE_RETURN_IF_ERROR(key_->Write(k, e));
        }
        FLOE_RETURN_IF_ERROR(value_->Write(k, e));
      }
    }
    e.WriteLong(0);
    return Ok();
  }

 private:
  Form form_;
  std::unique_ptr<ValueWriter> key_;
  std::unique_ptr<ValueWriter> value_;
  floe::Array keys_;
};

std::unexpected<Error> Mismatch(const std::string& path, const DataType& type, const Node& node) {
  return InvalidArgument("{}: a {} column cannot be written as Avro {}{}{}", path, type.ToString(),
                         TypeName(node.type), node.logical_type == LogicalType::kNone ? "" : " ",
                         LogicalTypeName(node.logical_type));
}

bool Is(const DataType& type, std::initializer_list<TypeKind> kinds) {
  for (TypeKind k : kinds) {
    if (type.kind() == k) return true;
  }
  return false;
}

Result<std::unique_ptr<ValueWriter>> MakeWriter(const Node& avro, const DataType& type,
                                                const std::string& path, int depth) {
  if (depth > kMaxNesting) return InvalidArgument("{}: nested too deeply", path);
  Slot slot;
  const Node* node = &avro;
  if (avro.type == Type::kUnion) {
    std::optional<size_t> null_branch = avro.NullBranch();
    if (!null_branch || avro.branches.size() != 2) {
      return InvalidArgument("{}: only [\"null\", T] unions can be written from columns", path);
    }
    slot = {.is_union = true,
            .nullable = true,
            .null_branch = static_cast<int64_t>(*null_branch),
            .value_branch = static_cast<int64_t>(1 - *null_branch)};
    node = avro.branches[1 - *null_branch];
  } else if (avro.type == Type::kNull) {
    slot.nullable = true;
  }
  using K = TypeKind;
  std::unique_ptr<ValueWriter> w;
  switch (node->type) {
    case Type::kNull:
      w = std::make_unique<NullWriter>(slot, path);
      break;
    case Type::kBoolean:
      if (!Is(type, {K::kBool})) return Mismatch(path, type, *node);
      w = std::make_unique<BooleanWriter>(slot, path);
      break;
    case Type::kInt:
      if (!Is(type, {K::kInt32, K::kDate32})) return Mismatch(path, type, *node);
      w = std::make_unique<IntegerWriter<int32_t>>(slot, path);
      break;
    case Type::kLong: {
      LogicalType lt = node->logical_type;
      bool ok = false;
      if (type.kind() == K::kInt64) {
        ok = lt == LogicalType::kNone;
      } else if (type.kind() == K::kTime64) {
        ok = lt == LogicalType::kTimeMicros && type.unit() == TimeUnit::kMicro;
      } else if (type.kind() == K::kTimestamp) {
        bool micros =
            lt == LogicalType::kTimestampMicros || lt == LogicalType::kLocalTimestampMicros;
        bool nanos = lt == LogicalType::kTimestampNanos || lt == LogicalType::kLocalTimestampNanos;
        ok = type.unit() == TimeUnit::kMicro ? micros : nanos;
      }
      if (!ok) return Mismatch(path, type, *node);
      w = std::make_unique<IntegerWriter<int64_t>>(slot, path);
      break;
    }
    case Type::kFloat:
      if (!Is(type, {K::kFloat32})) return Mismatch(path, type, *node);
      w = std::make_unique<FloatWriter>(slot, path);
      break;
    case Type::kDouble:
      if (!Is(type, {K::kFloat64})) return Mismatch(path, type, *node);
      w = std::make_unique<DoubleWriter>(slot, path);
      break;
    case Type::kBytes:
    case Type::kString:
      if (node->logical_type == LogicalType::kDecimal && node->type == Type::kBytes) {
        if (!Is(type, {K::kDecimal128})) return Mismatch(path, type, *node);
        w = std::make_unique<DecimalWriter>(slot, path, 0);
        break;
      }
      if (!Is(type, {K::kString, K::kBinary, K::kLargeString, K::kLargeBinary})) {
        return Mismatch(path, type, *node);
      }
      w = std::make_unique<BytesWriter>(slot, path);
      break;
    case Type::kFixed:
      if (node->logical_type == LogicalType::kDecimal) {
        if (!Is(type, {K::kDecimal128}) || node->fixed_size > 16) {
          return Mismatch(path, type, *node);
        }
        w = std::make_unique<DecimalWriter>(slot, path, static_cast<int>(node->fixed_size));
        break;
      }
      if (type.kind() != K::kFixedSizeBinary || type.byte_width() != node->fixed_size) {
        return Mismatch(path, type, *node);
      }
      w = std::make_unique<FixedWriter>(slot, path);
      break;
    case Type::kRecord: {
      if (type.kind() != K::kStruct ||
          static_cast<size_t>(type.num_fields()) != node->fields.size()) {
        return Mismatch(path, type, *node);
      }
      std::vector<std::unique_ptr<ValueWriter>> fields;
      for (size_t f = 0; f < node->fields.size(); ++f) {
        FLOE_ASSIGN_OR_RETURN(auto child, MakeWriter(*node->fields[f].type, *type.field(f).type,
                                                     path + "." + node->fields[f].name, depth + 1));
        fields.push_back(std::move(child));
      }
      w = std::make_unique<StructWriter>(slot, path, std::move(fields));
      break;
    }
    case Type::kArray:
      if (node->IsKeyValueArray()) {
        if (type.kind() != K::kMap) return Mismatch(path, type, *node);
        FLOE_ASSIGN_OR_RETURN(auto key,
                              MakeWriter(*node->items->fields[0].type, *type.key_field().type,
                                         path + ".key", depth + 1));
        FLOE_ASSIGN_OR_RETURN(auto value,
                              MakeWriter(*node->items->fields[1].type, *type.item_field().type,
                                         path + ".value", depth + 1));
        w = std::make_unique<CollectionWriter>(slot, path, CollectionWriter::Form::kKeyValueArray,
                                               std::move(key), std::move(value));
        break;
      } else {
        if (type.kind() != K::kList) return Mismatch(path, type, *node);
        FLOE_ASSIGN_OR_RETURN(auto items, MakeWriter(*node->items, *type.field(0).type,
                                                     path + ".element", depth + 1));
        w = std::make_unique<CollectionWriter>(slot, path, CollectionWriter::Form::kList, nullptr,
                                               std::move(items));
      }
      break;
    case Type::kMap: {
      if (type.kind() != K::kMap || !Is(*type.key_field().type, {K::kString, K::kBinary})) {
        return Mismatch(path, type, *node);
      }
      FLOE_ASSIGN_OR_RETURN(auto value, MakeWriter(*node->values, *type.item_field().type,
                                                   path + ".value", depth + 1));
      w = std::make_unique<CollectionWriter>(slot, path, CollectionWriter::Form::kMap, nullptr,
                                             std::move(value));
      break;
    }
    case Type::kEnum:
    case Type::kUnion:
      return Mismatch(path, type, *node);
  }
  return w;
}

}  // namespace

BatchEncoder::~BatchEncoder() = default;

Result<std::unique_ptr<BatchEncoder>> BatchEncoder::Make(const Node& record,
                                                         const BatchSchema& schema) {
  if (record.type != Type::kRecord) return InvalidArgument("rows are written as an Avro record");
  if (record.fields.size() != static_cast<size_t>(schema.num_fields())) {
    return InvalidArgument("the batch has {} columns but Avro record {} has {} fields",
                           schema.num_fields(), record.full_name, record.fields.size());
  }
  std::unique_ptr<BatchEncoder> encoder(new BatchEncoder());
  for (size_t f = 0; f < record.fields.size(); ++f) {
    FLOE_ASSIGN_OR_RETURN(
        auto column, MakeWriter(*record.fields[f].type, *schema.field(static_cast<int>(f)).type,
                                record.fields[f].name, 0));
    encoder->columns_.push_back(std::move(column));
  }
  return encoder;
}

Status BatchEncoder::Write(const RecordBatch& batch, ContainerWriter& writer) {
  if (static_cast<size_t>(batch.num_columns()) != columns_.size()) {
    return InvalidArgument("the batch has {} columns, the encoder {}", batch.num_columns(),
                           columns_.size());
  }
  for (size_t c = 0; c < columns_.size(); ++c) columns_[c]->Bind(batch.column(static_cast<int>(c)));
  Encoder& e = writer.encoder();
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    size_t mark = e.size();
    for (const auto& column : columns_) {
      Status s = column->Write(row, e);
      if (!s) {
        e.buffer().resize(mark);
        return std::unexpected(std::move(s.error()).AddContext(fmt::format("row {}", row)));
      }
    }
    FLOE_RETURN_IF_ERROR(writer.RecordWritten());
  }
  return Ok();
}

}  // namespace floe::avro
