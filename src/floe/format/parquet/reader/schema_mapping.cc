#include "floe/format/parquet/reader/schema_mapping.h"

#include <string>

#include "floe/format/parquet/schema.h"

namespace floe::parquet {

namespace {

using LK = LogicalType::Kind;

struct LeafType {
  DataTypePtr type;
  LeafConversion conversion;
};

bool Has(const SchemaNode& n, ConvertedType c) { return n.converted_type == c; }
bool HasLogical(const SchemaNode& n, LK k) { return n.logical_type && n.logical_type->kind == k; }

Result<LeafType> DecimalType(const SchemaNode& n, int32_t precision, int32_t scale,
                             LeafConversion conversion) {
  if (precision < 1 || precision > 38) {
    return Unsupported("column {}: decimal precision {} is outside 1..38", n.name, precision);
  }
  return LeafType{DataType::Decimal128(precision, scale), conversion};
}

Result<LeafType> MapLeaf(const SchemaNode& n, const MappingOptions& options) {
  const PhysicalType physical = *n.physical_type;
  const LogicalType* logical = n.logical_type ? &*n.logical_type : nullptr;
  if (logical && logical->kind == LK::kUnknown)
    return LeafType{DataType::Null(), LeafConversion::kNull};
  const bool is_decimal = HasLogical(n, LK::kDecimal) || Has(n, ConvertedType::kDecimal);
  const int32_t precision =
      logical && logical->kind == LK::kDecimal ? logical->precision : n.precision;
  const int32_t scale = logical && logical->kind == LK::kDecimal ? logical->scale : n.scale;
  switch (physical) {
    case PhysicalType::kBoolean:
      return LeafType{DataType::Bool(), LeafConversion::kBool};
    case PhysicalType::kInt32: {
      if (is_decimal) return DecimalType(n, precision, scale, LeafConversion::kInt32Decimal);
      if (HasLogical(n, LK::kDate) || Has(n, ConvertedType::kDate)) {
        return LeafType{DataType::Date32(), LeafConversion::kInt32};
      }
      if (HasLogical(n, LK::kTime) || Has(n, ConvertedType::kTimeMillis)) {
        return LeafType{DataType::Time64(floe::TimeUnit::kMicro), LeafConversion::kInt32TimeMillis};
      }
      int bits = 32;
      bool is_signed = true;
      if (logical && logical->kind == LK::kInteger) {
        bits = logical->bit_width;
        is_signed = logical->is_signed;
      } else if (n.converted_type) {
        switch (*n.converted_type) {
          case ConvertedType::kInt8:
            bits = 8;
            break;
          case ConvertedType::kInt16:
            bits = 16;
            break;
          case ConvertedType::kUint8:
            bits = 8;
            is_signed = false;
            break;
          case ConvertedType::kUint16:
            bits = 16;
            is_signed = false;
            break;
          case ConvertedType::kUint32:
            is_signed = false;
            break;
          default:
            break;
        }
      }
      if (bits == 8) {
        return is_signed ? LeafType{DataType::Int8(), LeafConversion::kInt32ToInt8}
                         : LeafType{DataType::UInt8(), LeafConversion::kInt32ToUInt8};
      }
      if (bits == 16) {
        return is_signed ? LeafType{DataType::Int16(), LeafConversion::kInt32ToInt16}
                         : LeafType{DataType::UInt16(), LeafConversion::kInt32ToUInt16};
      }
      return is_signed ? LeafType{DataType::Int32(), LeafConversion::kInt32}
                       : LeafType{DataType::UInt32(), LeafConversion::kInt32ToUInt32};
    }
    case PhysicalType::kInt64: {
      if (is_decimal) return DecimalType(n, precision, scale, LeafConversion::kInt64Decimal);
      if (logical && logical->kind == LK::kTime) {
        floe::TimeUnit unit =
            logical->unit == TimeUnit::kNanos ? floe::TimeUnit::kNano : floe::TimeUnit::kMicro;
        return LeafType{DataType::Time64(unit), LeafConversion::kInt64};
      }
      if (Has(n, ConvertedType::kTimeMicros)) {
        return LeafType{DataType::Time64(floe::TimeUnit::kMicro), LeafConversion::kInt64};
      }
      if (logical && logical->kind == LK::kTimestamp) {
        const bool utc = logical->is_adjusted_to_utc;
        switch (logical->unit) {
          case TimeUnit::kMillis:
            return LeafType{DataType::Timestamp(floe::TimeUnit::kMicro, utc),
                            LeafConversion::kInt64Millis};
          case TimeUnit::kMicros:
            return LeafType{DataType::Timestamp(floe::TimeUnit::kMicro, utc),
                            LeafConversion::kInt64};
          case TimeUnit::kNanos:
            return LeafType{DataType::Timestamp(floe::TimeUnit::kNano, utc),
                            LeafConversion::kInt64};
        }
      }
      // The converted types predate isAdjustedToUTC and mean instants.
      if (Has(n, ConvertedType::kTimestampMillis)) {
        return LeafType{DataType::Timestamp(floe::TimeUnit::kMicro, true),
                        LeafConversion::kInt64Millis};
      }
      if (Has(n, ConvertedType::kTimestampMicros)) {
        return LeafType{DataType::Timestamp(floe::TimeUnit::kMicro, true), LeafConversion::kInt64};
      }
      const bool is_unsigned = (logical && logical->kind == LK::kInteger && !logical->is_signed) ||
                               Has(n, ConvertedType::kUint64);
      if (is_unsigned) return LeafType{DataType::UInt64(), LeafConversion::kInt64ToUInt64};
      return LeafType{DataType::Int64(), LeafConversion::kInt64};
    }
    case PhysicalType::kInt96:
      return options.int96_unit == floe::TimeUnit::kNano
                 ? LeafType{DataType::Timestamp(floe::TimeUnit::kNano, false),
                            LeafConversion::kInt96ToNanos}
                 : LeafType{DataType::Timestamp(floe::TimeUnit::kMicro, false),
                            LeafConversion::kInt96ToMicros};
    case PhysicalType::kFloat:
      return LeafType{DataType::Float32(), LeafConversion::kFloat};
    case PhysicalType::kDouble:
      return LeafType{DataType::Float64(), LeafConversion::kDouble};
    case PhysicalType::kByteArray: {
      if (is_decimal) return DecimalType(n, precision, scale, LeafConversion::kBytesDecimal);
      const bool is_text = HasLogical(n, LK::kString) || HasLogical(n, LK::kEnum) ||
                           HasLogical(n, LK::kJson) || Has(n, ConvertedType::kUtf8) ||
                           Has(n, ConvertedType::kEnum) || Has(n, ConvertedType::kJson);
      return LeafType{is_text ? DataType::String() : DataType::Binary(), LeafConversion::kBytes};
    }
    case PhysicalType::kFixedLenByteArray: {
      if (is_decimal) return DecimalType(n, precision, scale, LeafConversion::kBytesDecimal);
      if (HasLogical(n, LK::kFloat16) && n.type_length == 2) {
        return LeafType{DataType::Float16(), LeafConversion::kFloat16};
      }
      if (n.type_length < 0) {
        return CorruptData("column {}: negative FIXED_LEN_BYTE_ARRAY length {}", n.name,
                           n.type_length);
      }
      return LeafType{DataType::FixedSizeBinary(n.type_length), LeafConversion::kFixed};
    }
  }
  return CorruptData("column {}: unknown physical type {}", n.name, static_cast<int>(physical));
}

class Mapper {
 public:
  Mapper(const SchemaTree& schema, const MappingOptions& options)
      : schema_(schema), options_(options) {}

  // Builds the node for schema node `index`. as_element: the node is the element of a list made
  // from its own repetition, so its repetition is not applied again.
  Result<ReadNode> Build(int index, bool as_element) {
    const SchemaNode& n = schema_.node(index);
    if (n.repetition == Repetition::kRepeated && !as_element) {
      // An unannotated repeated field is a required list of required elements.
      FLOE_ASSIGN_OR_RETURN(ReadNode element, Build(index, true));
      return MakeList(n, std::move(element), /*list_def=*/n.max_definition_level - 1,
                      /*nullable=*/false, n);
    }
    ReadNode node;
    node.field.name = n.name;
    node.field.field_id = n.field_id;
    node.field.nullable = n.repetition == Repetition::kOptional;
    node.def_level = n.max_definition_level;
    if (n.is_leaf()) {
      FLOE_ASSIGN_OR_RETURN(LeafType leaf, MapLeaf(n, options_));
      node.kind = ReadNode::Kind::kLeaf;
      node.field.type = leaf.type;
      node.conversion = leaf.conversion;
      node.column = n.column;
      node.columns = {n.column};
      return node;
    }
    const bool is_list = HasLogical(n, LK::kList) || Has(n, ConvertedType::kList);
    const bool is_map = HasLogical(n, LK::kMap) || Has(n, ConvertedType::kMap) ||
                        Has(n, ConvertedType::kMapKeyValue);
    if (is_list || is_map) {
      if (n.children.size() != 1 ||
          schema_.node(n.children[0]).repetition != Repetition::kRepeated) {
        return CorruptData("group {}: a {} must have exactly one repeated child", n.name,
                           is_list ? "LIST" : "MAP");
      }
      const int repeated_index = n.children[0];
      const SchemaNode& repeated = schema_.node(repeated_index);
      if (is_list) {
        // LogicalTypes.md backward compatibility: the repeated field is itself the element when
        // it is primitive, has several fields, or is named "array" or "<list>_tuple".
        const bool repeated_is_element = repeated.is_leaf() || repeated.children.size() > 1 ||
                                         repeated.name == "array" ||
                                         repeated.name == n.name + "_tuple";
        FLOE_ASSIGN_OR_RETURN(ReadNode element, repeated_is_element
                                                    ? Build(repeated_index, true)
                                                    : Build(repeated.children[0], false));
        return MakeList(n, std::move(element), n.max_definition_level,
                        n.repetition == Repetition::kOptional, repeated);
      }
      if (repeated.is_leaf() || repeated.children.empty() || repeated.children.size() > 2) {
        return CorruptData("group {}: a MAP's repeated group must have a key and a value", n.name);
      }
      FLOE_ASSIGN_OR_RETURN(ReadNode key, Build(repeated.children[0], false));
      ReadNode value;
      if (repeated.children.size() == 2) {
        FLOE_ASSIGN_OR_RETURN(value, Build(repeated.children[1], false));
      } else {
        value.kind = ReadNode::Kind::kNull;
        value.field = Field{"value", DataType::Null(), true, std::nullopt};
      }
      key.field.nullable = false;
      node.kind = ReadNode::Kind::kMap;
      node.elements_def_level = repeated.max_definition_level;
      node.rep_level = repeated.max_repetition_level;
      Field key_field{"key", key.field.type, false, key.field.field_id};
      Field value_field{"value", value.field.type, value.field.nullable, value.field.field_id};
      node.field.type = DataType::Map(std::move(key_field), std::move(value_field));
      node.columns = key.columns;
      node.columns.insert(node.columns.end(), value.columns.begin(), value.columns.end());
      node.children.push_back(std::move(key));
      node.children.push_back(std::move(value));
      return node;
    }
    if (n.children.empty()) return CorruptData("group {} has no fields", n.name);
    node.kind = ReadNode::Kind::kStruct;
    std::vector<Field> fields;
    for (int child : n.children) {
      FLOE_ASSIGN_OR_RETURN(ReadNode c, Build(child, false));
      fields.push_back(c.field);
      node.columns.insert(node.columns.end(), c.columns.begin(), c.columns.end());
      node.children.push_back(std::move(c));
    }
    node.field.type = DataType::Struct(std::move(fields));
    return node;
  }

 private:
  ReadNode MakeList(const SchemaNode& n, ReadNode element, int16_t list_def, bool nullable,
                    const SchemaNode& repeated) {
    ReadNode node;
    node.kind = ReadNode::Kind::kList;
    node.field.name = n.name;
    node.field.field_id = n.field_id;
    node.field.nullable = nullable;
    node.def_level = list_def;
    node.elements_def_level = repeated.max_definition_level;
    node.rep_level = repeated.max_repetition_level;
    Field element_field{"element", element.field.type, element.field.nullable,
                        element.field.field_id};
    node.field.type = DataType::List(std::move(element_field));
    node.columns = element.columns;
    node.children.push_back(std::move(element));
    return node;
  }

  const SchemaTree& schema_;
  const MappingOptions& options_;
};

}  // namespace

Result<std::vector<ReadNode>> MapSchema(const SchemaTree& schema, const MappingOptions& options) {
  Mapper mapper(schema, options);
  std::vector<ReadNode> fields;
  for (int child : schema.root().children) {
    FLOE_ASSIGN_OR_RETURN(ReadNode node, mapper.Build(child, false));
    fields.push_back(std::move(node));
  }
  return fields;
}

}  // namespace floe::parquet
