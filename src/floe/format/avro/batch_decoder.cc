#include "floe/format/avro/batch_decoder.h"

#include <vector>

#include "floe/format/avro/datum_io.h"

namespace floe::avro {
namespace {

std::optional<size_t> OnlyNonNullBranch(const Node& node) {
  if (node.type != Type::kUnion || node.branches.size() != 2) return std::nullopt;
  if (node.branches[0]->type == Type::kNull && node.branches[1]->type != Type::kNull) return 1;
  if (node.branches[1]->type == Type::kNull && node.branches[0]->type != Type::kNull) return 0;
  return std::nullopt;
}

// Avro's timestamp types are instants; Iceberg marks its local date-times "adjust-to-utc": false.
bool IsInstant(const Node& node) {
  const Json* utc = node.Attribute("adjust-to-utc");
  return utc == nullptr || !utc->is_bool() || utc->as_bool();
}

Result<DataTypePtr> TypeOf(const Node& node, bool* nullable, int depth) {
  if (depth > kMaxNesting) return Unsupported("schema nested deeper than {} levels", kMaxNesting);
  if (nullable != nullptr) *nullable = false;
  switch (node.type) {
    case Type::kNull:
      if (nullable != nullptr) *nullable = true;
      return DataType::Null();
    case Type::kBoolean:
      return DataType::Bool();
    case Type::kInt:
      if (node.logical_type == LogicalType::kDate) return DataType::Date32();
      return DataType::Int32();
    case Type::kLong:
      switch (node.logical_type) {
        case LogicalType::kTimeMicros:
          return DataType::Time64(TimeUnit::kMicro);
        case LogicalType::kTimestampMicros:
          return DataType::Timestamp(TimeUnit::kMicro, IsInstant(node));
        case LogicalType::kTimestampNanos:
          return DataType::Timestamp(TimeUnit::kNano, IsInstant(node));
        case LogicalType::kLocalTimestampMicros:
          return DataType::Timestamp(TimeUnit::kMicro, false);
        case LogicalType::kLocalTimestampNanos:
          return DataType::Timestamp(TimeUnit::kNano, false);
        default:
          return DataType::Int64();
      }
    case Type::kFloat:
      return DataType::Float32();
    case Type::kDouble:
      return DataType::Float64();
    case Type::kBytes:
    case Type::kFixed:
      if (node.logical_type == LogicalType::kDecimal && node.precision <= 38) {
        return DataType::Decimal128(node.precision, node.scale);
      }
      if (node.type == Type::kFixed)
        return DataType::FixedSizeBinary(static_cast<int32_t>(node.fixed_size));
      return DataType::Binary();
    case Type::kString:
    case Type::kEnum:
      return DataType::String();
    case Type::kArray: {
      if (node.IsKeyValueArray()) {
        bool key_nullable = false;
        bool value_nullable = false;
        FLOE_ASSIGN_OR_RETURN(DataTypePtr key,
                              TypeOf(*node.items->fields[0].type, &key_nullable, depth + 1));
        if (key_nullable) return Unsupported("map keys cannot be null");
        FLOE_ASSIGN_OR_RETURN(DataTypePtr value,
                              TypeOf(*node.items->fields[1].type, &value_nullable, depth + 1));
        return DataType::Map(std::move(key), std::move(value), value_nullable);
      }
      bool item_nullable = false;
      FLOE_ASSIGN_OR_RETURN(DataTypePtr item, TypeOf(*node.items, &item_nullable, depth + 1));
      return DataType::List(item, item_nullable);
    }
    case Type::kMap: {
      bool value_nullable = false;
      FLOE_ASSIGN_OR_RETURN(DataTypePtr value, TypeOf(*node.values, &value_nullable, depth + 1));
      return DataType::Map(DataType::String(), value, value_nullable);
    }
    case Type::kRecord: {
      std::vector<floe::Field> fields;
      for (const Field& f : node.fields) {
        floe::Field field;
        field.name = f.name;
        FLOE_ASSIGN_OR_RETURN(field.type, TypeOf(*f.type, &field.nullable, depth + 1));
        field.field_id = f.field_id;
        fields.push_back(std::move(field));
      }
      return DataType::Struct(std::move(fields));
    }
    case Type::kUnion: {
      std::optional<size_t> branch = OnlyNonNullBranch(node);
      if (!branch) return Unsupported("union {} has no columnar form", node.branches.size());
      FLOE_ASSIGN_OR_RETURN(DataTypePtr type, TypeOf(*node.branches[*branch], nullptr, depth + 1));
      if (nullable != nullptr) *nullable = true;
      return type;
    }
  }
  return Unsupported("unknown Avro type");
}

// Decimal bytes (big-endian two's complement) as a 128-bit unscaled value.
Result<__int128> DecimalValue(std::string_view bytes, uint64_t at) {
  if (bytes.size() > 16)
    return CorruptData("decimal of {} bytes at offset {} exceeds 128 bits", bytes.size(), at);
  if (bytes.empty()) return __int128{0};
  unsigned __int128 v =
      (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return static_cast<__int128>(v);
}

Status AppendDefault(const Node& node, const Datum& datum, ArrayBuilder& b) {
  if (const auto* u = std::get_if<Union>(&datum.value())) {
    if (!u->value || u->value->is_null()) {
      b.AppendNull();
      return Ok();
    }
    return AppendDefault(*node.branches[u->branch], *u->value, b);
  }
  if (datum.is_null()) {
    b.AppendNull();
    return Ok();
  }
  const Datum::Value& v = datum.value();
  if (const auto* x = std::get_if<bool>(&v)) {
    static_cast<BooleanBuilder&>(b).Append(*x);
  } else if (const auto* i = std::get_if<int32_t>(&v)) {
    static_cast<Int32Builder&>(b).Append(*i);
  } else if (const auto* l = std::get_if<int64_t>(&v)) {
    static_cast<Int64Builder&>(b).Append(*l);
  } else if (const auto* f = std::get_if<float>(&v)) {
    static_cast<Float32Builder&>(b).Append(*f);
  } else if (const auto* d = std::get_if<double>(&v)) {
    static_cast<Float64Builder&>(b).Append(*d);
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    static_cast<StringBuilder&>(b).Append(*s);
  } else if (const auto* e = std::get_if<EnumValue>(&v)) {
    static_cast<StringBuilder&>(b).Append(node.symbols[static_cast<size_t>(e->index)]);
  } else if (const auto* dec = std::get_if<Bytes>(&v);
             dec && node.logical_type == LogicalType::kDecimal && node.precision <= 38) {
    FLOE_ASSIGN_OR_RETURN(__int128 x, DecimalValue(dec->value, 0));
    static_cast<Decimal128Builder&>(b).Append(x);
  } else if (const auto* by = std::get_if<Bytes>(&v);
             by && (node.logical_type == LogicalType::kNone || node.type == Type::kFixed)) {
    if (node.type == Type::kFixed) {
      static_cast<FixedSizeBinaryBuilder&>(b).Append(by->value);
    } else {
      static_cast<StringBuilder&>(b).Append(by->value);
    }
  } else {
    return Unsupported("a default of this type cannot be decoded into a batch");
  }
  return Ok();
}

Status Decode(const ReadPlan& plan, Decoder& d, ArrayBuilder& b, int depth, int64_t& budget);

// An array of key/value records read into a map column: field 0 of each record is the key, field 1
// the value.
Status DecodeKeyValueArray(const ReadPlan& plan, Decoder& d, ArrayBuilder& b, int depth,
                           int64_t& budget) {
  const ReadPlan& entry = *plan.children[0];
  if (entry.action != ReadPlan::Action::kRecord) {
    return Unsupported("map entries before offset {} are not records", d.offset());
  }
  auto& mb = static_cast<MapBuilder&>(b);
  mb.Append();
  ArrayBuilder* parts[2] = {mb.key_builder(), mb.item_builder()};
  while (true) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ReadBlockCount(d, plan.min_item_size, budget));
    if (n == 0) return Ok();
    for (int64_t i = 0; i < n; ++i) {
      for (const ReadPlan::FieldStep& step : entry.steps) {
        if (step.reader_index < 0) {
          FLOE_RETURN_IF_ERROR(SkipValue(*step.writer_type, d));
        } else {
          FLOE_RETURN_IF_ERROR(Decode(*step.plan, d, *parts[step.reader_index], depth + 1, budget));
        }
      }
      for (const auto& [index, value] : entry.defaults) {
        FLOE_RETURN_IF_ERROR(
            AppendDefault(*entry.reader->fields[index].type, value, *parts[index]));
      }
    }
  }
}

Status Decode(const ReadPlan& plan, Decoder& d, ArrayBuilder& b, int depth, int64_t& budget) {
  if (depth > kMaxNesting)
    return CorruptData("values nested deeper than {} levels at offset {}", kMaxNesting, d.offset());
  using A = ReadPlan::Action;
  switch (plan.action) {
    case A::kNull:
      b.AppendNull();
      return Ok();
    case A::kBoolean: {
      FLOE_ASSIGN_OR_RETURN(bool v, d.ReadBoolean());
      static_cast<BooleanBuilder&>(b).Append(v);
      return Ok();
    }
    case A::kInt: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, d.ReadInt());
      static_cast<Int32Builder&>(b).Append(v);
      return Ok();
    }
    case A::kLong:
    case A::kIntToLong: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      if (plan.action == A::kIntToLong && (v < INT32_MIN || v > INT32_MAX)) {
        return CorruptData("int value {} out of range before offset {}", v, d.offset());
      }
      static_cast<Int64Builder&>(b).Append(v);
      return Ok();
    }
    case A::kFloat: {
      FLOE_ASSIGN_OR_RETURN(float v, d.ReadFloat());
      static_cast<Float32Builder&>(b).Append(v);
      return Ok();
    }
    case A::kIntToFloat:
    case A::kLongToFloat: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      static_cast<Float32Builder&>(b).Append(static_cast<float>(v));
      return Ok();
    }
    case A::kDouble: {
      FLOE_ASSIGN_OR_RETURN(double v, d.ReadDouble());
      static_cast<Float64Builder&>(b).Append(v);
      return Ok();
    }
    case A::kIntToDouble:
    case A::kLongToDouble: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      static_cast<Float64Builder&>(b).Append(static_cast<double>(v));
      return Ok();
    }
    case A::kFloatToDouble: {
      FLOE_ASSIGN_OR_RETURN(float v, d.ReadFloat());
      static_cast<Float64Builder&>(b).Append(v);
      return Ok();
    }
    case A::kString:
    case A::kBytes:
    case A::kBytesToString:
    case A::kStringToBytes: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(std::string_view v, d.ReadBytes());
      if (plan.reader->logical_type == LogicalType::kDecimal && plan.reader->precision <= 38) {
        FLOE_ASSIGN_OR_RETURN(__int128 x, DecimalValue(v, at));
        static_cast<Decimal128Builder&>(b).Append(x);
      } else {
        static_cast<StringBuilder&>(b).Append(v);
      }
      return Ok();
    }
    case A::kFixed: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(std::string_view v,
                            d.ReadFixed(static_cast<size_t>(plan.writer->fixed_size)));
      if (plan.reader->logical_type == LogicalType::kDecimal && plan.reader->precision <= 38) {
        FLOE_ASSIGN_OR_RETURN(__int128 x, DecimalValue(v, at));
        static_cast<Decimal128Builder&>(b).Append(x);
      } else {
        static_cast<FixedSizeBinaryBuilder&>(b).Append(v);
      }
      return Ok();
    }
    case A::kEnum: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(int32_t index, d.ReadInt());
      if (index < 0 || static_cast<size_t>(index) >= plan.enum_map.size() ||
          plan.enum_map[static_cast<size_t>(index)] < 0) {
        return CorruptData("enum index {} not readable at offset {}", index, at);
      }
      static_cast<StringBuilder&>(b).Append(
          plan.reader->symbols[static_cast<size_t>(plan.enum_map[static_cast<size_t>(index)])]);
      return Ok();
    }
    case A::kArray:
      if (plan.reader->IsKeyValueArray()) return DecodeKeyValueArray(plan, d, b, depth, budget);
      [[fallthrough]];
    case A::kMap: {
      bool is_map = plan.action == A::kMap;
      ArrayBuilder* items;
      ArrayBuilder* keys = nullptr;
      if (is_map) {
        auto& mb = static_cast<MapBuilder&>(b);
        mb.Append();
        keys = mb.key_builder();
        items = mb.item_builder();
      } else {
        auto& lb = static_cast<ListBuilder&>(b);
        lb.Append();
        items = lb.value_builder();
      }
      while (true) {
        FLOE_ASSIGN_OR_RETURN(int64_t n,
                              ReadBlockCount(d, is_map ? 1 : plan.min_item_size, budget));
        if (n == 0) return Ok();
        for (int64_t i = 0; i < n; ++i) {
          if (is_map) {
            FLOE_ASSIGN_OR_RETURN(std::string_view key, d.ReadBytes());
            static_cast<StringBuilder*>(keys)->Append(key);
          }
          FLOE_RETURN_IF_ERROR(Decode(*plan.children[0], d, *items, depth + 1, budget));
        }
      }
    }
    case A::kRecord: {
      auto& sb = static_cast<StructBuilder&>(b);
      for (const ReadPlan::FieldStep& step : plan.steps) {
        if (step.reader_index < 0) {
          FLOE_RETURN_IF_ERROR(SkipValue(*step.writer_type, d));
        } else {
          FLOE_RETURN_IF_ERROR(
              Decode(*step.plan, d, *sb.field_builder(step.reader_index), depth + 1, budget));
        }
      }
      for (const auto& [index, value] : plan.defaults) {
        FLOE_RETURN_IF_ERROR(AppendDefault(*plan.reader->fields[index].type, value,
                                           *sb.field_builder(static_cast<int>(index))));
      }
      sb.Append();
      return Ok();
    }
    case A::kWriterUnion: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(int64_t branch, d.ReadLong());
      if (branch < 0 || static_cast<size_t>(branch) >= plan.children.size() ||
          plan.children[static_cast<size_t>(branch)] == nullptr) {
        return CorruptData("union branch {} not readable at offset {}", branch, at);
      }
      return Decode(*plan.children[static_cast<size_t>(branch)], d, b, depth + 1, budget);
    }
    case A::kReaderUnion:
      // A nullable column: the reader's null branch is a null, the other branch the value itself.
      return Decode(*plan.children[0], d, b, depth + 1, budget);
  }
  return InternalError("unknown read action");
}

}  // namespace

Result<DataTypePtr> ToBatchType(const Node& node, bool* nullable) {
  return TypeOf(node, nullable, 0);
}

Status DecodeToBuilder(const ReadPlan& plan, Decoder& decoder, int64_t count,
                       ArrayBuilder& builder) {
  bool nullable = false;
  FLOE_ASSIGN_OR_RETURN(DataTypePtr expected, ToBatchType(*plan.reader, &nullable));
  if (!expected->Equals(*builder.type())) {
    return InvalidArgument("builder of {} cannot take Avro {}", builder.type()->ToString(),
                           expected->ToString());
  }
  builder.Reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t budget = int64_t{1} << 20;
    FLOE_RETURN_IF_ERROR(Decode(plan, decoder, builder, 0, budget));
  }
  return Ok();
}

}  // namespace floe::avro
