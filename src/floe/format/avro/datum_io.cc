#include "floe/format/avro/datum_io.h"

namespace floe::avro {
namespace {

// How many items of a type that takes no bytes (null, empty records) one read may produce in all.
constexpr int64_t kZeroSizeItemBudget = 1 << 20;

std::unexpected<Error> TooDeep(const Decoder& d) {
  return CorruptData("values nested deeper than {} levels at offset {}", kMaxNesting, d.offset());
}

Status Read(const ReadPlan& plan, Decoder& d, Datum& out, int depth, int64_t& budget);

Status CheckCount(int64_t count, uint64_t at, const Decoder& d, size_t min_item_size,
                  int64_t& budget) {
  if (min_item_size > 0 && static_cast<uint64_t>(count) > d.remaining() / min_item_size) {
    return CorruptData("count {} at offset {} exceeds what the {} remaining bytes can hold", count,
                       at, d.remaining());
  }
  if (min_item_size == 0) {
    budget -= count;
    if (budget < 0)
      return CorruptData("more than {} empty items at offset {}", kZeroSizeItemBudget, at);
  }
  return Ok();
}

Status ReadCollection(const ReadPlan& plan, Decoder& d, Datum& out, int depth, int64_t& budget) {
  bool is_map = plan.action == ReadPlan::Action::kMap;
  Array array;
  Map map;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(int64_t count,
                          ReadBlockCount(d, is_map ? 1 : plan.min_item_size, budget));
    if (count == 0) break;
    for (int64_t i = 0; i < count; ++i) {
      Datum item;
      if (is_map) {
        FLOE_ASSIGN_OR_RETURN(std::string_view key, d.ReadBytes());
        FLOE_RETURN_IF_ERROR(Read(*plan.children[0], d, item, depth + 1, budget));
        map.entries.emplace_back(std::string(key), std::move(item));
      } else {
        FLOE_RETURN_IF_ERROR(Read(*plan.children[0], d, item, depth + 1, budget));
        array.items.push_back(std::move(item));
      }
    }
  }
  if (is_map) {
    out = Datum(std::move(map));
  } else {
    out = Datum(std::move(array));
  }
  return Ok();
}

Status Read(const ReadPlan& plan, Decoder& d, Datum& out, int depth, int64_t& budget) {
  if (depth > kMaxNesting) return TooDeep(d);
  using A = ReadPlan::Action;
  switch (plan.action) {
    case A::kNull:
      out = Datum();
      return Ok();
    case A::kBoolean: {
      FLOE_ASSIGN_OR_RETURN(bool v, d.ReadBoolean());
      out = Datum(v);
      return Ok();
    }
    case A::kInt: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, d.ReadInt());
      out = Datum(v);
      return Ok();
    }
    case A::kLong: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      out = Datum(v);
      return Ok();
    }
    case A::kFloat: {
      FLOE_ASSIGN_OR_RETURN(float v, d.ReadFloat());
      out = Datum(v);
      return Ok();
    }
    case A::kDouble: {
      FLOE_ASSIGN_OR_RETURN(double v, d.ReadDouble());
      out = Datum(v);
      return Ok();
    }
    case A::kIntToLong: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, d.ReadInt());
      out = Datum(int64_t{v});
      return Ok();
    }
    case A::kIntToFloat: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, d.ReadInt());
      out = Datum(static_cast<float>(v));
      return Ok();
    }
    case A::kIntToDouble: {
      FLOE_ASSIGN_OR_RETURN(int32_t v, d.ReadInt());
      out = Datum(static_cast<double>(v));
      return Ok();
    }
    case A::kLongToFloat: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      out = Datum(static_cast<float>(v));
      return Ok();
    }
    case A::kLongToDouble: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, d.ReadLong());
      out = Datum(static_cast<double>(v));
      return Ok();
    }
    case A::kFloatToDouble: {
      FLOE_ASSIGN_OR_RETURN(float v, d.ReadFloat());
      out = Datum(static_cast<double>(v));
      return Ok();
    }
    case A::kString:
    case A::kBytesToString: {
      FLOE_ASSIGN_OR_RETURN(std::string_view v, d.ReadBytes());
      out = Datum(std::string(v));
      return Ok();
    }
    case A::kBytes:
    case A::kStringToBytes: {
      FLOE_ASSIGN_OR_RETURN(std::string_view v, d.ReadBytes());
      out = Datum(Bytes{std::string(v)});
      return Ok();
    }
    case A::kFixed: {
      FLOE_ASSIGN_OR_RETURN(std::string_view v,
                            d.ReadFixed(static_cast<size_t>(plan.writer->fixed_size)));
      out = Datum(Bytes{std::string(v)});
      return Ok();
    }
    case A::kEnum: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(int32_t index, d.ReadInt());
      if (index < 0 || static_cast<size_t>(index) >= plan.enum_map.size()) {
        return CorruptData("enum index {} out of range for {} at offset {}", index,
                           plan.writer->full_name, at);
      }
      int32_t mapped = plan.enum_map[static_cast<size_t>(index)];
      if (mapped < 0) {
        return CorruptData("enum symbol '{}' is unknown to the reader at offset {}",
                           plan.writer->symbols[static_cast<size_t>(index)], at);
      }
      out = Datum(EnumValue{mapped});
      return Ok();
    }
    case A::kArray:
    case A::kMap:
      return ReadCollection(plan, d, out, depth, budget);
    case A::kRecord: {
      Record record;
      record.fields.resize(plan.reader->fields.size());
      for (const ReadPlan::FieldStep& step : plan.steps) {
        if (step.reader_index < 0) {
          FLOE_RETURN_IF_ERROR(SkipValue(*step.writer_type, d));
        } else {
          FLOE_RETURN_IF_ERROR(Read(*step.plan, d,
                                    record.fields[static_cast<size_t>(step.reader_index)],
                                    depth + 1, budget));
        }
      }
      for (const auto& [index, value] : plan.defaults) record.fields[index] = value;
      out = Datum(std::move(record));
      return Ok();
    }
    case A::kWriterUnion: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(int64_t branch, d.ReadLong());
      if (branch < 0 || static_cast<size_t>(branch) >= plan.children.size()) {
        return CorruptData("union branch {} out of range (the union has {}) at offset {}", branch,
                           plan.children.size(), at);
      }
      const ReadPlan* child = plan.children[static_cast<size_t>(branch)];
      if (child == nullptr) {
        return CorruptData("union branch {} at offset {} does not match the reader's schema",
                           branch, at);
      }
      return Read(*child, d, out, depth + 1, budget);
    }
    case A::kReaderUnion: {
      Datum value;
      FLOE_RETURN_IF_ERROR(Read(*plan.children[0], d, value, depth + 1, budget));
      out = Datum(Union(plan.reader_branch, std::move(value)));
      return Ok();
    }
  }
  return InternalError("unknown read action");
}

Status Skip(const Node& w, Decoder& d, int depth, int64_t& budget) {
  if (depth > kMaxNesting) return TooDeep(d);
  switch (w.type) {
    case Type::kNull:
      return Ok();
    case Type::kBoolean:
      return d.Skip(1);
    case Type::kInt:
    case Type::kLong:
    case Type::kEnum:
      return d.SkipLong();
    case Type::kFloat:
      return d.Skip(4);
    case Type::kDouble:
      return d.Skip(8);
    case Type::kBytes:
    case Type::kString:
      return d.SkipBytes();
    case Type::kFixed:
      return d.Skip(static_cast<size_t>(w.fixed_size));
    case Type::kRecord:
      for (const Field& f : w.fields) FLOE_RETURN_IF_ERROR(Skip(*f.type, d, depth + 1, budget));
      return Ok();
    case Type::kUnion: {
      uint64_t at = d.offset();
      FLOE_ASSIGN_OR_RETURN(int64_t branch, d.ReadLong());
      if (branch < 0 || static_cast<size_t>(branch) >= w.branches.size()) {
        return CorruptData("union branch {} out of range at offset {}", branch, at);
      }
      return Skip(*w.branches[static_cast<size_t>(branch)], d, depth + 1, budget);
    }
    case Type::kArray:
    case Type::kMap: {
      bool is_map = w.type == Type::kMap;
      size_t min_size = is_map ? 1 : MinEncodedSize(*w.items);
      while (true) {
        uint64_t at = d.offset();
        FLOE_ASSIGN_OR_RETURN(int64_t raw, d.ReadLong());
        if (raw == 0) return Ok();
        if (raw < 0) {
          // A byte size follows: skip the whole block without decoding it.
          FLOE_ASSIGN_OR_RETURN(int64_t bytes, d.ReadLong());
          if (bytes < 0) return CorruptData("negative block size {} at offset {}", bytes, at);
          if (static_cast<uint64_t>(bytes) > d.remaining()) {
            return CorruptData("block size {} at offset {} exceeds the {} bytes that remain", bytes,
                               at, d.remaining());
          }
          FLOE_RETURN_IF_ERROR(d.Skip(static_cast<size_t>(bytes)));
          continue;
        }
        FLOE_RETURN_IF_ERROR(CheckCount(raw, at, d, min_size, budget));
        for (int64_t i = 0; i < raw; ++i) {
          if (is_map) FLOE_RETURN_IF_ERROR(d.SkipBytes());
          FLOE_RETURN_IF_ERROR(Skip(is_map ? *w.values : *w.items, d, depth + 1, budget));
        }
      }
    }
  }
  return InternalError("unknown type");
}

std::unexpected<Error> Shape(const Node& node, std::string_view expected) {
  return InvalidArgument("a {} value needs a {} datum", TypeName(node.type), expected);
}

Status Write(const Node& node, const Datum& datum, Encoder& e, int depth) {
  if (depth > kMaxNesting)
    return InvalidArgument("datum nested deeper than {} levels", kMaxNesting);
  switch (node.type) {
    case Type::kNull:
      if (!datum.is_null()) return Shape(node, "null");
      return Ok();
    case Type::kBoolean:
      if (!datum.is<bool>()) return Shape(node, "bool");
      e.WriteBoolean(datum.as<bool>());
      return Ok();
    case Type::kInt:
      if (!datum.is<int32_t>()) return Shape(node, "int32");
      e.WriteInt(datum.as<int32_t>());
      return Ok();
    case Type::kLong:
      if (datum.is<int64_t>()) {
        e.WriteLong(datum.as<int64_t>());
      } else if (datum.is<int32_t>()) {
        e.WriteLong(datum.as<int32_t>());
      } else {
        return Shape(node, "int64");
      }
      return Ok();
    case Type::kFloat:
      if (!datum.is<float>()) return Shape(node, "float");
      e.WriteFloat(datum.as<float>());
      return Ok();
    case Type::kDouble:
      if (datum.is<double>()) {
        e.WriteDouble(datum.as<double>());
      } else if (datum.is<float>()) {
        e.WriteDouble(datum.as<float>());
      } else {
        return Shape(node, "double");
      }
      return Ok();
    case Type::kString:
      if (!datum.is<std::string>()) return Shape(node, "string");
      e.WriteBytes(datum.as<std::string>());
      return Ok();
    case Type::kBytes:
      if (!datum.is<Bytes>()) return Shape(node, "bytes");
      e.WriteBytes(datum.as<Bytes>().value);
      return Ok();
    case Type::kFixed:
      if (!datum.is<Bytes>()) return Shape(node, "bytes");
      if (datum.as<Bytes>().value.size() != static_cast<size_t>(node.fixed_size)) {
        return InvalidArgument("fixed {} needs {} bytes, not {}", node.full_name, node.fixed_size,
                               datum.as<Bytes>().value.size());
      }
      e.WriteFixed(datum.as<Bytes>().value);
      return Ok();
    case Type::kEnum: {
      if (!datum.is<EnumValue>()) return Shape(node, "enum");
      int32_t index = datum.as<EnumValue>().index;
      if (index < 0 || static_cast<size_t>(index) >= node.symbols.size()) {
        return InvalidArgument("enum index {} out of range for {}", index, node.full_name);
      }
      e.WriteInt(index);
      return Ok();
    }
    case Type::kArray: {
      if (!datum.is<Array>()) return Shape(node, "array");
      const auto& items = datum.as<Array>().items;
      if (!items.empty()) {
        e.WriteLong(static_cast<int64_t>(items.size()));
        for (const Datum& item : items)
          FLOE_RETURN_IF_ERROR(Write(*node.items, item, e, depth + 1));
      }
      e.WriteLong(0);
      return Ok();
    }
    case Type::kMap: {
      if (!datum.is<Map>()) return Shape(node, "map");
      const auto& entries = datum.as<Map>().entries;
      if (!entries.empty()) {
        e.WriteLong(static_cast<int64_t>(entries.size()));
        for (const auto& [key, value] : entries) {
          e.WriteBytes(key);
          FLOE_RETURN_IF_ERROR(Write(*node.values, value, e, depth + 1));
        }
      }
      e.WriteLong(0);
      return Ok();
    }
    case Type::kRecord: {
      if (!datum.is<Record>()) return Shape(node, "record");
      const auto& fields = datum.as<Record>().fields;
      if (fields.size() != node.fields.size()) {
        return InvalidArgument("record {} has {} fields, the datum {}", node.full_name,
                               node.fields.size(), fields.size());
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        Status s = Write(*node.fields[i].type, fields[i], e, depth + 1);
        if (!s) return std::unexpected(std::move(s.error().AddContext(node.fields[i].name)));
      }
      return Ok();
    }
    case Type::kUnion: {
      if (!datum.is<Union>()) return Shape(node, "union");
      const Union& u = datum.as<Union>();
      if (u.branch >= node.branches.size() || !u.value) {
        return InvalidArgument("union branch {} out of range", u.branch);
      }
      e.WriteLong(static_cast<int64_t>(u.branch));
      return Write(*node.branches[u.branch], *u.value, e, depth + 1);
    }
  }
  return InternalError("unknown type");
}

}  // namespace

Result<int64_t> ReadBlockCount(Decoder& d, size_t min_item_size, int64_t& zero_size_budget) {
  uint64_t at = d.offset();
  FLOE_ASSIGN_OR_RETURN(int64_t count, d.ReadLong());
  if (count < 0) {
    if (count == INT64_MIN) return CorruptData("invalid item count at offset {}", at);
    count = -count;
    FLOE_ASSIGN_OR_RETURN(int64_t bytes, d.ReadLong());
    if (bytes < 0) return CorruptData("negative block size {} at offset {}", bytes, at);
  }
  FLOE_RETURN_IF_ERROR(CheckCount(count, at, d, min_item_size, zero_size_budget));
  return count;
}

Status ReadDatum(const ReadPlan& plan, Decoder& decoder, Datum& out) {
  int64_t budget = kZeroSizeItemBudget;
  return Read(plan, decoder, out, 0, budget);
}

Status SkipValue(const Node& writer, Decoder& decoder) {
  int64_t budget = kZeroSizeItemBudget;
  return Skip(writer, decoder, 0, budget);
}

Status WriteDatum(const Node& node, const Datum& datum, Encoder& encoder) {
  return Write(node, datum, encoder, 0);
}

}  // namespace floe::avro
