#include "floe/format/parquet/metadata_thrift.h"

#include <initializer_list>
#include <limits>
#include <type_traits>

#include "floe/format/parquet/thrift/compact.h"

namespace floe::parquet {

namespace {

using thrift::CompactReader;
using thrift::CompactWriter;
using thrift::FieldHeader;
using thrift::ListHeader;
using thrift::WireType;

// ---------------------------------------------------------------------------------------------
// Decoding

std::unexpected<Error> WrongType(const CompactReader& r, WireType got, WireType want) {
  return CorruptData("thrift: value of type {} where {} was expected at offset {}",
                     thrift::WireTypeName(got), thrift::WireTypeName(want), r.position());
}

// Which field ids of a struct were seen, to check the required ones.
class Seen {
 public:
  void Add(int16_t id) {
    if (id >= 0 && id < 64) mask_ |= uint64_t{1} << id;
  }
  Status Require(const CompactReader& r, std::string_view name,
                 std::initializer_list<int16_t> ids) const {
    for (int16_t id : ids) {
      if ((mask_ & (uint64_t{1} << id)) == 0) {
        return CorruptData("thrift: {} lacks required field {} (struct ending at offset {})", name,
                           id, r.position());
      }
    }
    return Ok();
  }

 private:
  uint64_t mask_ = 0;
};

// Reads a struct's fields: fn(field) returns whether it consumed the value; unconsumed values are
// skipped. Field ids seen are recorded for the required-field check.
template <typename Fn>
Status ReadFields(CompactReader& r, Seen& seen, Fn&& fn) {
  FLOE_RETURN_IF_ERROR(r.BeginStruct());
  while (true) {
    FLOE_ASSIGN_OR_RETURN(FieldHeader field, r.ReadFieldHeader());
    if (field.is_stop()) break;
    Result<bool> consumed = fn(field);
    if (!consumed)
      return std::unexpected(
          std::move(consumed.error().AddContext(fmt::format("field {}", field.id))));
    if (*consumed) {
      seen.Add(field.id);
    } else {
      FLOE_RETURN_IF_ERROR(r.Skip(field.type));
    }
  }
  return r.EndStruct();
}

// Integers of any width are accepted where the value fits: some writers put i16 or i64 on the
// wire where the format says i32, and Thrift's own readers do not look at the wire type.
template <typename T>
Status ReadInteger(CompactReader& r, WireType w, T& out) {
  int64_t value = 0;
  switch (w) {
    case WireType::kByte: {
      FLOE_ASSIGN_OR_RETURN(value, r.ReadByte());
      break;
    }
    case WireType::kI16:
    case WireType::kI32:
    case WireType::kI64: {
      FLOE_ASSIGN_OR_RETURN(value, r.ReadI64());
      break;
    }
    default:
      return WrongType(r, w, WireType::kI32);
  }
  if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) {
    return CorruptData("thrift: integer {} out of range at offset {}", value, r.position());
  }
  out = static_cast<T>(value);
  return Ok();
}
Status ReadValue(CompactReader& r, WireType w, int8_t& out) { return ReadInteger(r, w, out); }
Status ReadValue(CompactReader& r, WireType w, int16_t& out) { return ReadInteger(r, w, out); }
Status ReadValue(CompactReader& r, WireType w, int32_t& out) { return ReadInteger(r, w, out); }
Status ReadValue(CompactReader& r, WireType w, int64_t& out) { return ReadInteger(r, w, out); }
Status ReadValue(CompactReader& r, WireType w, double& out) {
  if (w != WireType::kDouble) return WrongType(r, w, WireType::kDouble);
  FLOE_ASSIGN_OR_RETURN(out, r.ReadDouble());
  return Ok();
}
Status ReadValue(CompactReader& r, WireType w, std::string& out) {
  if (w != WireType::kBinary) return WrongType(r, w, WireType::kBinary);
  FLOE_ASSIGN_OR_RETURN(std::string_view view, r.ReadBinary());
  out.assign(view);
  return Ok();
}
template <typename E>
requires std::is_enum_v<E> Status ReadValue(CompactReader& r, WireType w, E& out) {
  int32_t value = 0;
  FLOE_RETURN_IF_ERROR(ReadValue(r, w, value));
  out = static_cast<E>(value);
  return Ok();
}

// Structs; each defined below.
Status ReadStruct(CompactReader& r, LogicalType& out);
Status ReadStruct(CompactReader& r, SchemaElement& out);
Status ReadStruct(CompactReader& r, KeyValue& out);
Status ReadStruct(CompactReader& r, Statistics& out);
Status ReadStruct(CompactReader& r, SizeStatistics& out);
Status ReadStruct(CompactReader& r, BoundingBox& out);
Status ReadStruct(CompactReader& r, GeospatialStatistics& out);
Status ReadStruct(CompactReader& r, PageEncodingStats& out);
Status ReadStruct(CompactReader& r, ColumnMetaData& out);
Status ReadStruct(CompactReader& r, ColumnChunk& out);
Status ReadStruct(CompactReader& r, SortingColumn& out);
Status ReadStruct(CompactReader& r, RowGroup& out);
Status ReadStruct(CompactReader& r, DataPageHeader& out);
Status ReadStruct(CompactReader& r, DictionaryPageHeader& out);
Status ReadStruct(CompactReader& r, DataPageHeaderV2& out);
Status ReadStruct(CompactReader& r, PageLocation& out);

template <typename T>
concept ThriftStruct = requires(CompactReader& r, T& t) {
  { ReadStruct(r, t) } -> std::same_as<Status>;
};

template <ThriftStruct T>
Status ReadValue(CompactReader& r, WireType w, T& out) {
  if (w != WireType::kStruct) return WrongType(r, w, WireType::kStruct);
  return ReadStruct(r, out);
}

template <typename T>
Status ReadValue(CompactReader& r, WireType w, std::vector<T>& out) {
  if (w != WireType::kList && w != WireType::kSet) return WrongType(r, w, WireType::kList);
  FLOE_ASSIGN_OR_RETURN(ListHeader list, r.ReadListHeader());
  out.clear();
  out.reserve(list.size);  // bounded by the bytes left (ReadListHeader checks)
  for (uint32_t i = 0; i < list.size; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      if (list.element_type != WireType::kBoolTrue && list.element_type != WireType::kBoolFalse) {
        return WrongType(r, list.element_type, WireType::kBoolTrue);
      }
      FLOE_ASSIGN_OR_RETURN(bool value, r.ReadBoolElement());
      out.push_back(value);
    } else {
      T value{};
      FLOE_RETURN_IF_ERROR(ReadValue(r, list.element_type, value));
      out.push_back(std::move(value));
    }
  }
  return Ok();
}

// Whether a field's wire type can hold a T. Like Thrift's generated readers, a field whose wire
// type does not match is skipped (old writers used some field ids for other things).
template <typename T>
bool Matches(WireType w, const T*) {
  if constexpr (std::is_same_v<T, bool>) {
    return w == WireType::kBoolTrue || w == WireType::kBoolFalse;
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return w == WireType::kByte || w == WireType::kI16 || w == WireType::kI32 ||
           w == WireType::kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return w == WireType::kDouble;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return w == WireType::kBinary;
  } else if constexpr (ThriftStruct<T>) {
    return w == WireType::kStruct;
  } else {
    return w == WireType::kList || w == WireType::kSet;
  }
}

// A field's value: bools come from the header, optionals are engaged.
template <typename T>
Result<bool> Field(CompactReader& r, const FieldHeader& f, T& out) {
  if (!Matches(f.type, &out)) return false;
  FLOE_RETURN_IF_ERROR(ReadValue(r, f.type, out));
  return true;
}
Result<bool> Field(CompactReader&, const FieldHeader& f, bool& out) {
  if (f.type != WireType::kBoolTrue && f.type != WireType::kBoolFalse) return false;
  out = f.bool_value();
  return true;
}
template <typename T>
Result<bool> Field(CompactReader& r, const FieldHeader& f, std::optional<T>& out) {
  T value{};
  FLOE_ASSIGN_OR_RETURN(bool consumed, Field(r, f, value));
  if (consumed) out = std::move(value);
  return consumed;
}

// The empty structs that make up Thrift unions without data.
Status ReadEmpty(CompactReader& r, WireType w) {
  if (w != WireType::kStruct) return WrongType(r, w, WireType::kStruct);
  return r.Skip(w);
}

Status ReadTimeUnit(CompactReader& r, TimeUnit& out) {
  Seen seen;
  bool found = false;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    if (f.id < 1 || f.id > 3) return false;
    FLOE_RETURN_IF_ERROR(ReadEmpty(r, f.type));
    out = static_cast<TimeUnit>(f.id);
    found = true;
    return true;
  }));
  if (!found)
    return CorruptData("thrift: TimeUnit without a known unit at offset {}", r.position());
  return Ok();
}

Status ReadStruct(CompactReader& r, LogicalType& out) {
  Seen seen;
  bool found = false;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    if (f.type != WireType::kStruct) return WrongType(r, f.type, WireType::kStruct);
    found = true;
    Seen inner;
    using K = LogicalType::Kind;
    switch (f.id) {
      case 1:
      case 2:
      case 3:
      case 4:
      case 6:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
      case 19:
        out.kind = static_cast<K>(f.id);
        FLOE_RETURN_IF_ERROR(r.Skip(f.type));
        return true;
      case 5:
        out.kind = K::kDecimal;
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          if (g.id == 1) return Field(r, g, out.scale);
          if (g.id == 2) return Field(r, g, out.precision);
          return false;
        }));
        FLOE_RETURN_IF_ERROR(inner.Require(r, "DecimalType", {1, 2}));
        return true;
      case 7:
      case 8:
        out.kind = static_cast<K>(f.id);
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          if (g.id == 1) return Field(r, g, out.is_adjusted_to_utc);
          if (g.id == 2) {
            if (g.type != WireType::kStruct) return WrongType(r, g.type, WireType::kStruct);
            FLOE_RETURN_IF_ERROR(ReadTimeUnit(r, out.unit));
            return true;
          }
          return false;
        }));
        FLOE_RETURN_IF_ERROR(inner.Require(r, "TimeType/TimestampType", {1, 2}));
        return true;
      case 10:
        out.kind = K::kInteger;
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          if (g.id == 1) return Field(r, g, out.bit_width);
          if (g.id == 2) return Field(r, g, out.is_signed);
          return false;
        }));
        FLOE_RETURN_IF_ERROR(inner.Require(r, "IntType", {1, 2}));
        return true;
      case 16:
        out.kind = K::kVariant;
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          if (g.id == 1) return Field(r, g, out.variant_specification_version);
          return false;
        }));
        return true;
      case 17:
      case 18:
        out.kind = static_cast<K>(f.id);
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          if (g.id == 1) return Field(r, g, out.crs);
          if (g.id == 2 && f.id == 18) return Field(r, g, out.algorithm);
          return false;
        }));
        return true;
      default:
        out.kind = K::kUnrecognized;
        out.unrecognized_id = f.id;
        return false;
    }
  }));
  if (!found) return CorruptData("thrift: empty LogicalType union at offset {}", r.position());
  return Ok();
}

Status ReadStruct(CompactReader& r, SchemaElement& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.type);
      case 2:
        return Field(r, f, out.type_length);
      case 3:
        return Field(r, f, out.repetition_type);
      case 4:
        return Field(r, f, out.name);
      case 5:
        return Field(r, f, out.num_children);
      case 6:
        return Field(r, f, out.converted_type);
      case 7:
        return Field(r, f, out.scale);
      case 8:
        return Field(r, f, out.precision);
      case 9:
        return Field(r, f, out.field_id);
      case 10:
        return Field(r, f, out.logical_type);
    }
    return false;
  }));
  return seen.Require(r, "SchemaElement", {4});
}

Status ReadStruct(CompactReader& r, KeyValue& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    if (f.id == 1) return Field(r, f, out.key);
    if (f.id == 2) return Field(r, f, out.value);
    return false;
  }));
  return seen.Require(r, "KeyValue", {1});
}

Status ReadStruct(CompactReader& r, Statistics& out) {
  Seen seen;
  return ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.max);
      case 2:
        return Field(r, f, out.min);
      case 3:
        return Field(r, f, out.null_count);
      case 4:
        return Field(r, f, out.distinct_count);
      case 5:
        return Field(r, f, out.max_value);
      case 6:
        return Field(r, f, out.min_value);
      case 7:
        return Field(r, f, out.is_max_value_exact);
      case 8:
        return Field(r, f, out.is_min_value_exact);
      case 9:
        return Field(r, f, out.nan_count);
    }
    return false;
  });
}

Status ReadStruct(CompactReader& r, SizeStatistics& out) {
  Seen seen;
  return ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.unencoded_byte_array_data_bytes);
      case 2:
        return Field(r, f, out.repetition_level_histogram);
      case 3:
        return Field(r, f, out.definition_level_histogram);
    }
    return false;
  });
}

Status ReadStruct(CompactReader& r, BoundingBox& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.xmin);
      case 2:
        return Field(r, f, out.xmax);
      case 3:
        return Field(r, f, out.ymin);
      case 4:
        return Field(r, f, out.ymax);
      case 5:
        return Field(r, f, out.zmin);
      case 6:
        return Field(r, f, out.zmax);
      case 7:
        return Field(r, f, out.mmin);
      case 8:
        return Field(r, f, out.mmax);
    }
    return false;
  }));
  return seen.Require(r, "BoundingBox", {1, 2, 3, 4});
}

Status ReadStruct(CompactReader& r, GeospatialStatistics& out) {
  Seen seen;
  return ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    if (f.id == 1) return Field(r, f, out.bbox);
    if (f.id == 2) return Field(r, f, out.geospatial_types);
    return false;
  });
}

Status ReadStruct(CompactReader& r, PageEncodingStats& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.page_type);
      case 2:
        return Field(r, f, out.encoding);
      case 3:
        return Field(r, f, out.count);
    }
    return false;
  }));
  return seen.Require(r, "PageEncodingStats", {1, 2, 3});
}

Status ReadStruct(CompactReader& r, ColumnMetaData& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.type);
      case 2:
        return Field(r, f, out.encodings);
      case 3:
        return Field(r, f, out.path_in_schema);
      case 4:
        return Field(r, f, out.codec);
      case 5:
        return Field(r, f, out.num_values);
      case 6:
        return Field(r, f, out.total_uncompressed_size);
      case 7:
        return Field(r, f, out.total_compressed_size);
      case 8:
        return Field(r, f, out.key_value_metadata);
      case 9:
        return Field(r, f, out.data_page_offset);
      case 10:
        return Field(r, f, out.index_page_offset);
      case 11:
        return Field(r, f, out.dictionary_page_offset);
      case 12:
        return Field(r, f, out.statistics);
      case 13:
        return Field(r, f, out.encoding_stats);
      case 14:
        return Field(r, f, out.bloom_filter_offset);
      case 15:
        return Field(r, f, out.bloom_filter_length);
      case 16:
        return Field(r, f, out.size_statistics);
      case 17:
        return Field(r, f, out.geospatial_statistics);
    }
    return false;
  }));
  return seen.Require(r, "ColumnMetaData", {1, 2, 3, 4, 5, 6, 7, 9});
}

Status ReadStruct(CompactReader& r, ColumnChunk& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.file_path);
      case 2:
        return Field(r, f, out.file_offset);
      case 3:
        return Field(r, f, out.meta_data);
      case 4:
        return Field(r, f, out.offset_index_offset);
      case 5:
        return Field(r, f, out.offset_index_length);
      case 6:
        return Field(r, f, out.column_index_offset);
      case 7:
        return Field(r, f, out.column_index_length);
      case 8:
        out.has_crypto_metadata = true;
        return false;
      case 9:
        return Field(r, f, out.encrypted_column_metadata);
    }
    return false;
  }));
  return Ok();
}

Status ReadStruct(CompactReader& r, SortingColumn& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.column_idx);
      case 2:
        return Field(r, f, out.descending);
      case 3:
        return Field(r, f, out.nulls_first);
    }
    return false;
  }));
  return seen.Require(r, "SortingColumn", {1, 2, 3});
}

Status ReadStruct(CompactReader& r, RowGroup& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.columns);
      case 2:
        return Field(r, f, out.total_byte_size);
      case 3:
        return Field(r, f, out.num_rows);
      case 4:
        return Field(r, f, out.sorting_columns);
      case 5:
        return Field(r, f, out.file_offset);
      case 6:
        return Field(r, f, out.total_compressed_size);
      case 7:
        return Field(r, f, out.ordinal);
    }
    return false;
  }));
  return seen.Require(r, "RowGroup", {1, 2, 3});
}

Result<bool> ReadColumnOrders(CompactReader& r, const FieldHeader& f,
                              std::vector<ColumnOrder>& out) {
  if (f.type != WireType::kList) return WrongType(r, f.type, WireType::kList);
  FLOE_ASSIGN_OR_RETURN(ListHeader list, r.ReadListHeader());
  if (list.element_type != WireType::kStruct) {
    return WrongType(r, list.element_type, WireType::kStruct);
  }
  for (uint32_t i = 0; i < list.size; ++i) {
    Seen seen;
    int32_t member = 0;
    FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& g) -> Result<bool> {
      member = g.id;
      return false;
    }));
    out.push_back(static_cast<ColumnOrder>(member));
  }
  return true;
}

Status ReadStruct(CompactReader& r, DataPageHeader& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.num_values);
      case 2:
        return Field(r, f, out.encoding);
      case 3:
        return Field(r, f, out.definition_level_encoding);
      case 4:
        return Field(r, f, out.repetition_level_encoding);
      case 5:
        return Field(r, f, out.statistics);
    }
    return false;
  }));
  return seen.Require(r, "DataPageHeader", {1, 2, 3, 4});
}

Status ReadStruct(CompactReader& r, DictionaryPageHeader& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.num_values);
      case 2:
        return Field(r, f, out.encoding);
      case 3:
        return Field(r, f, out.is_sorted);
    }
    return false;
  }));
  return seen.Require(r, "DictionaryPageHeader", {1, 2});
}

Status ReadStruct(CompactReader& r, DataPageHeaderV2& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.num_values);
      case 2:
        return Field(r, f, out.num_nulls);
      case 3:
        return Field(r, f, out.num_rows);
      case 4:
        return Field(r, f, out.encoding);
      case 5:
        return Field(r, f, out.definition_levels_byte_length);
      case 6:
        return Field(r, f, out.repetition_levels_byte_length);
      case 7:
        return Field(r, f, out.is_compressed);
      case 8:
        return Field(r, f, out.statistics);
    }
    return false;
  }));
  return seen.Require(r, "DataPageHeaderV2", {1, 2, 3, 4, 5, 6});
}

Status ReadStruct(CompactReader& r, PageLocation& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.offset);
      case 2:
        return Field(r, f, out.compressed_page_size);
      case 3:
        return Field(r, f, out.first_row_index);
    }
    return false;
  }));
  return seen.Require(r, "PageLocation", {1, 2, 3});
}

Status ReadFileMetaData(CompactReader& r, FileMetaData& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.version);
      case 2:
        return Field(r, f, out.schema);
      case 3:
        return Field(r, f, out.num_rows);
      case 4:
        return Field(r, f, out.row_groups);
      case 5:
        return Field(r, f, out.key_value_metadata);
      case 6:
        return Field(r, f, out.created_by);
      case 7:
        return ReadColumnOrders(r, f, out.column_orders);
      case 8: {
        if (f.type != WireType::kStruct) return WrongType(r, f.type, WireType::kStruct);
        Seen inner;
        int32_t member = 0;
        FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
          member = g.id;
          return false;
        }));
        out.encryption_algorithm = member;
        return true;
      }
      case 9:
        return Field(r, f, out.footer_signing_key_metadata);
    }
    return false;
  }));
  return seen.Require(r, "FileMetaData", {1, 2, 3, 4});
}

Status ReadPageHeader(CompactReader& r, PageHeader& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.type);
      case 2:
        return Field(r, f, out.uncompressed_page_size);
      case 3:
        return Field(r, f, out.compressed_page_size);
      case 4:
        return Field(r, f, out.crc);
      case 5:
        return Field(r, f, out.data_page_header);
      case 6:
        FLOE_RETURN_IF_ERROR(ReadEmpty(r, f.type));
        out.has_index_page_header = true;
        return true;
      case 7:
        return Field(r, f, out.dictionary_page_header);
      case 8:
        return Field(r, f, out.data_page_header_v2);
    }
    return false;
  }));
  return seen.Require(r, "PageHeader", {1, 2, 3});
}

Status ReadColumnIndex(CompactReader& r, ColumnIndex& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.null_pages);
      case 2:
        return Field(r, f, out.min_values);
      case 3:
        return Field(r, f, out.max_values);
      case 4:
        return Field(r, f, out.boundary_order);
      case 5:
        return Field(r, f, out.null_counts);
      case 6:
        return Field(r, f, out.repetition_level_histograms);
      case 7:
        return Field(r, f, out.definition_level_histograms);
      case 8:
        return Field(r, f, out.nan_counts);
    }
    return false;
  }));
  return seen.Require(r, "ColumnIndex", {1, 2, 3, 4});
}

Status ReadOffsetIndex(CompactReader& r, OffsetIndex& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    if (f.id == 1) return Field(r, f, out.page_locations);
    if (f.id == 2) return Field(r, f, out.unencoded_byte_array_data_bytes);
    return false;
  }));
  return seen.Require(r, "OffsetIndex", {1});
}

// Reads a one-member union of empty structs, returning the member id.
Result<bool> UnionMember(CompactReader& r, const FieldHeader& f, int32_t& out) {
  if (f.type != WireType::kStruct) return WrongType(r, f.type, WireType::kStruct);
  Seen inner;
  out = 0;
  FLOE_RETURN_IF_ERROR(ReadFields(r, inner, [&](const FieldHeader& g) -> Result<bool> {
    out = g.id;
    return false;
  }));
  return true;
}

Status ReadBloomFilterHeader(CompactReader& r, BloomFilterHeader& out) {
  Seen seen;
  FLOE_RETURN_IF_ERROR(ReadFields(r, seen, [&](const FieldHeader& f) -> Result<bool> {
    switch (f.id) {
      case 1:
        return Field(r, f, out.num_bytes);
      case 2:
        return UnionMember(r, f, out.algorithm);
      case 3:
        return UnionMember(r, f, out.hash);
      case 4:
        return UnionMember(r, f, out.compression);
    }
    return false;
  }));
  return seen.Require(r, "BloomFilterHeader", {1, 2, 3, 4});
}

// ---------------------------------------------------------------------------------------------
// Encoding

template <typename E>
int32_t EnumValue(E e) {
  return static_cast<int32_t>(e);
}

void WriteI32List(CompactWriter& w, int16_t id, const std::vector<int32_t>& values) {
  w.WriteFieldHeader(id, WireType::kList);
  w.WriteListHeader(WireType::kI32, static_cast<uint32_t>(values.size()));
  for (int32_t v : values) w.WriteI32(v);
}

void WriteI64List(CompactWriter& w, int16_t id, const std::vector<int64_t>& values) {
  w.WriteFieldHeader(id, WireType::kList);
  w.WriteListHeader(WireType::kI64, static_cast<uint32_t>(values.size()));
  for (int64_t v : values) w.WriteI64(v);
}

void WriteBinaryList(CompactWriter& w, int16_t id, const std::vector<std::string>& values) {
  w.WriteFieldHeader(id, WireType::kList);
  w.WriteListHeader(WireType::kBinary, static_cast<uint32_t>(values.size()));
  for (const auto& v : values) w.WriteBinary(v);
}

template <typename T, typename Fn>
void WriteStructList(CompactWriter& w, int16_t id, const std::vector<T>& values, Fn&& write_one) {
  w.WriteFieldHeader(id, WireType::kList);
  w.WriteListHeader(WireType::kStruct, static_cast<uint32_t>(values.size()));
  for (const auto& v : values) {
    w.BeginStruct();
    write_one(w, v);
    w.EndStruct();
  }
}

void WriteLogicalType(CompactWriter& w, const LogicalType& t) {
  using K = LogicalType::Kind;
  auto id = static_cast<int16_t>(t.kind);
  switch (t.kind) {
    case K::kDecimal:
      w.BeginStructField(id);
      w.I32Field(1, t.scale);
      w.I32Field(2, t.precision);
      w.EndStruct();
      return;
    case K::kTime:
    case K::kTimestamp:
      w.BeginStructField(id);
      w.BoolField(1, t.is_adjusted_to_utc);
      w.BeginStructField(2);
      w.EmptyStructField(static_cast<int16_t>(t.unit));
      w.EndStruct();
      w.EndStruct();
      return;
    case K::kInteger:
      w.BeginStructField(id);
      w.ByteField(1, t.bit_width);
      w.BoolField(2, t.is_signed);
      w.EndStruct();
      return;
    case K::kVariant:
      w.BeginStructField(id);
      if (t.variant_specification_version) w.ByteField(1, *t.variant_specification_version);
      w.EndStruct();
      return;
    case K::kGeometry:
    case K::kGeography:
      w.BeginStructField(id);
      if (t.crs) w.BinaryField(1, *t.crs);
      if (t.kind == K::kGeography && t.algorithm) w.I32Field(2, EnumValue(*t.algorithm));
      w.EndStruct();
      return;
    case K::kUnrecognized:
      return;
    default:
      w.EmptyStructField(id);
      return;
  }
}

void WriteSchemaElement(CompactWriter& w, const SchemaElement& e) {
  if (e.type) w.I32Field(1, EnumValue(*e.type));
  if (e.type_length) w.I32Field(2, *e.type_length);
  if (e.repetition_type) w.I32Field(3, EnumValue(*e.repetition_type));
  w.BinaryField(4, e.name);
  if (e.num_children) w.I32Field(5, *e.num_children);
  if (e.converted_type) w.I32Field(6, EnumValue(*e.converted_type));
  if (e.scale) w.I32Field(7, *e.scale);
  if (e.precision) w.I32Field(8, *e.precision);
  if (e.field_id) w.I32Field(9, *e.field_id);
  if (e.logical_type && e.logical_type->kind != LogicalType::Kind::kUnrecognized) {
    w.BeginStructField(10);
    WriteLogicalType(w, *e.logical_type);
    w.EndStruct();
  }
}

void WriteKeyValue(CompactWriter& w, const KeyValue& kv) {
  w.BinaryField(1, kv.key);
  if (kv.value) w.BinaryField(2, *kv.value);
}

void WriteStatistics(CompactWriter& w, const Statistics& s) {
  if (s.max) w.BinaryField(1, *s.max);
  if (s.min) w.BinaryField(2, *s.min);
  if (s.null_count) w.I64Field(3, *s.null_count);
  if (s.distinct_count) w.I64Field(4, *s.distinct_count);
  if (s.max_value) w.BinaryField(5, *s.max_value);
  if (s.min_value) w.BinaryField(6, *s.min_value);
  if (s.is_max_value_exact) w.BoolField(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w.BoolField(8, *s.is_min_value_exact);
  if (s.nan_count) w.I64Field(9, *s.nan_count);
}

void WriteColumnMetaData(CompactWriter& w, const ColumnMetaData& m) {
  w.I32Field(1, EnumValue(m.type));
  w.WriteFieldHeader(2, WireType::kList);
  w.WriteListHeader(WireType::kI32, static_cast<uint32_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w.WriteI32(EnumValue(e));
  WriteBinaryList(w, 3, m.path_in_schema);
  w.I32Field(4, EnumValue(m.codec));
  w.I64Field(5, m.num_values);
  w.I64Field(6, m.total_uncompressed_size);
  w.I64Field(7, m.total_compressed_size);
  if (!m.key_value_metadata.empty()) WriteStructList(w, 8, m.key_value_metadata, WriteKeyValue);
  w.I64Field(9, m.data_page_offset);
  if (m.index_page_offset) w.I64Field(10, *m.index_page_offset);
  if (m.dictionary_page_offset) w.I64Field(11, *m.dictionary_page_offset);
  if (m.statistics) {
    w.BeginStructField(12);
    WriteStatistics(w, *m.statistics);
    w.EndStruct();
  }
  if (!m.encoding_stats.empty()) {
    WriteStructList(w, 13, m.encoding_stats, [](CompactWriter& w2, const PageEncodingStats& s) {
      w2.I32Field(1, EnumValue(s.page_type));
      w2.I32Field(2, EnumValue(s.encoding));
      w2.I32Field(3, s.count);
    });
  }
  if (m.bloom_filter_offset) w.I64Field(14, *m.bloom_filter_offset);
  if (m.bloom_filter_length) w.I32Field(15, *m.bloom_filter_length);
  if (m.size_statistics) {
    const SizeStatistics& s = *m.size_statistics;
    w.BeginStructField(16);
    if (s.unencoded_byte_array_data_bytes) w.I64Field(1, *s.unencoded_byte_array_data_bytes);
    if (!s.repetition_level_histogram.empty()) WriteI64List(w, 2, s.repetition_level_histogram);
    if (!s.definition_level_histogram.empty()) WriteI64List(w, 3, s.definition_level_histogram);
    w.EndStruct();
  }
  if (m.geospatial_statistics) {
    const GeospatialStatistics& g = *m.geospatial_statistics;
    w.BeginStructField(17);
    if (g.bbox) {
      const BoundingBox& b = *g.bbox;
      w.BeginStructField(1);
      w.DoubleField(1, b.xmin);
      w.DoubleField(2, b.xmax);
      w.DoubleField(3, b.ymin);
      w.DoubleField(4, b.ymax);
      if (b.zmin) w.DoubleField(5, *b.zmin);
      if (b.zmax) w.DoubleField(6, *b.zmax);
      if (b.mmin) w.DoubleField(7, *b.mmin);
      if (b.mmax) w.DoubleField(8, *b.mmax);
      w.EndStruct();
    }
    if (!g.geospatial_types.empty()) WriteI32List(w, 2, g.geospatial_types);
    w.EndStruct();
  }
}

void WriteColumnChunk(CompactWriter& w, const ColumnChunk& c) {
  if (c.file_path) w.BinaryField(1, *c.file_path);
  w.I64Field(2, c.file_offset);
  if (c.meta_data) {
    w.BeginStructField(3);
    WriteColumnMetaData(w, *c.meta_data);
    w.EndStruct();
  }
  if (c.offset_index_offset) w.I64Field(4, *c.offset_index_offset);
  if (c.offset_index_length) w.I32Field(5, *c.offset_index_length);
  if (c.column_index_offset) w.I64Field(6, *c.column_index_offset);
  if (c.column_index_length) w.I32Field(7, *c.column_index_length);
}

void WriteRowGroup(CompactWriter& w, const RowGroup& g) {
  WriteStructList(w, 1, g.columns, WriteColumnChunk);
  w.I64Field(2, g.total_byte_size);
  w.I64Field(3, g.num_rows);
  if (!g.sorting_columns.empty()) {
    WriteStructList(w, 4, g.sorting_columns, [](CompactWriter& w2, const SortingColumn& s) {
      w2.I32Field(1, s.column_idx);
      w2.BoolField(2, s.descending);
      w2.BoolField(3, s.nulls_first);
    });
  }
  if (g.file_offset) w.I64Field(5, *g.file_offset);
  if (g.total_compressed_size) w.I64Field(6, *g.total_compressed_size);
  if (g.ordinal) w.I16Field(7, *g.ordinal);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Result<FileMetaData> DecodeFileMetaData(std::span<const std::byte> data) {
  CompactReader r(data);
  FileMetaData out;
  FLOE_RETURN_IF_ERROR_CTX(ReadFileMetaData(r, out), "FileMetaData");
  return out;
}

std::vector<std::byte> EncodeFileMetaData(const FileMetaData& m) {
  CompactWriter w;
  w.BeginStruct();
  w.I32Field(1, m.version);
  WriteStructList(w, 2, m.schema, WriteSchemaElement);
  w.I64Field(3, m.num_rows);
  WriteStructList(w, 4, m.row_groups, WriteRowGroup);
  if (!m.key_value_metadata.empty()) WriteStructList(w, 5, m.key_value_metadata, WriteKeyValue);
  if (m.created_by) w.BinaryField(6, *m.created_by);
  if (!m.column_orders.empty()) {
    w.WriteFieldHeader(7, WireType::kList);
    w.WriteListHeader(WireType::kStruct, static_cast<uint32_t>(m.column_orders.size()));
    for (ColumnOrder order : m.column_orders) {
      w.BeginStruct();
      w.EmptyStructField(static_cast<int16_t>(order));
      w.EndStruct();
    }
  }
  w.EndStruct();
  return w.Release();
}

Result<DecodedPageHeader> DecodePageHeader(std::span<const std::byte> data) {
  CompactReader r(data);
  DecodedPageHeader out;
  FLOE_RETURN_IF_ERROR_CTX(ReadPageHeader(r, out.header), "PageHeader");
  out.size = r.position();
  return out;
}

std::vector<std::byte> EncodePageHeader(const PageHeader& h) {
  CompactWriter w;
  w.BeginStruct();
  w.I32Field(1, EnumValue(h.type));
  w.I32Field(2, h.uncompressed_page_size);
  w.I32Field(3, h.compressed_page_size);
  if (h.crc) w.I32Field(4, *h.crc);
  if (h.data_page_header) {
    const DataPageHeader& d = *h.data_page_header;
    w.BeginStructField(5);
    w.I32Field(1, d.num_values);
    w.I32Field(2, EnumValue(d.encoding));
    w.I32Field(3, EnumValue(d.definition_level_encoding));
    w.I32Field(4, EnumValue(d.repetition_level_encoding));
    if (d.statistics) {
      w.BeginStructField(5);
      WriteStatistics(w, *d.statistics);
      w.EndStruct();
    }
    w.EndStruct();
  }
  if (h.has_index_page_header) w.EmptyStructField(6);
  if (h.dictionary_page_header) {
    const DictionaryPageHeader& d = *h.dictionary_page_header;
    w.BeginStructField(7);
    w.I32Field(1, d.num_values);
    w.I32Field(2, EnumValue(d.encoding));
    if (d.is_sorted) w.BoolField(3, *d.is_sorted);
    w.EndStruct();
  }
  if (h.data_page_header_v2) {
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    w.BeginStructField(8);
    w.I32Field(1, d.num_values);
    w.I32Field(2, d.num_nulls);
    w.I32Field(3, d.num_rows);
    w.I32Field(4, EnumValue(d.encoding));
    w.I32Field(5, d.definition_levels_byte_length);
    w.I32Field(6, d.repetition_levels_byte_length);
    w.BoolField(7, d.is_compressed);
    if (d.statistics) {
      w.BeginStructField(8);
      WriteStatistics(w, *d.statistics);
      w.EndStruct();
    }
    w.EndStruct();
  }
  w.EndStruct();
  return w.Release();
}

Result<ColumnIndex> DecodeColumnIndex(std::span<const std::byte> data) {
  CompactReader r(data);
  ColumnIndex out;
  FLOE_RETURN_IF_ERROR_CTX(ReadColumnIndex(r, out), "ColumnIndex");
  return out;
}

std::vector<std::byte> EncodeColumnIndex(const ColumnIndex& c) {
  CompactWriter w;
  w.BeginStruct();
  w.WriteFieldHeader(1, WireType::kList);
  w.WriteListHeader(WireType::kBoolTrue, static_cast<uint32_t>(c.null_pages.size()));
  for (bool b : c.null_pages) w.WriteBoolElement(b);
  WriteBinaryList(w, 2, c.min_values);
  WriteBinaryList(w, 3, c.max_values);
  w.I32Field(4, EnumValue(c.boundary_order));
  if (!c.null_counts.empty()) WriteI64List(w, 5, c.null_counts);
  if (!c.repetition_level_histograms.empty()) WriteI64List(w, 6, c.repetition_level_histograms);
  if (!c.definition_level_histograms.empty()) WriteI64List(w, 7, c.definition_level_histograms);
  if (!c.nan_counts.empty()) WriteI64List(w, 8, c.nan_counts);
  w.EndStruct();
  return w.Release();
}

Result<OffsetIndex> DecodeOffsetIndex(std::span<const std::byte> data) {
  CompactReader r(data);
  OffsetIndex out;
  FLOE_RETURN_IF_ERROR_CTX(ReadOffsetIndex(r, out), "OffsetIndex");
  return out;
}

std::vector<std::byte> EncodeOffsetIndex(const OffsetIndex& o) {
  CompactWriter w;
  w.BeginStruct();
  WriteStructList(w, 1, o.page_locations, [](CompactWriter& w2, const PageLocation& p) {
    w2.I64Field(1, p.offset);
    w2.I32Field(2, p.compressed_page_size);
    w2.I64Field(3, p.first_row_index);
  });
  if (!o.unencoded_byte_array_data_bytes.empty()) {
    WriteI64List(w, 2, o.unencoded_byte_array_data_bytes);
  }
  w.EndStruct();
  return w.Release();
}

Result<DecodedBloomFilterHeader> DecodeBloomFilterHeader(std::span<const std::byte> data) {
  CompactReader r(data);
  DecodedBloomFilterHeader out;
  FLOE_RETURN_IF_ERROR_CTX(ReadBloomFilterHeader(r, out.header), "BloomFilterHeader");
  out.size = r.position();
  return out;
}

std::vector<std::byte> EncodeBloomFilterHeader(const BloomFilterHeader& h) {
  CompactWriter w;
  w.BeginStruct();
  w.I32Field(1, h.num_bytes);
  w.BeginStructField(2);
  w.EmptyStructField(static_cast<int16_t>(h.algorithm));
  w.EndStruct();
  w.BeginStructField(3);
  w.EmptyStructField(static_cast<int16_t>(h.hash));
  w.EndStruct();
  w.BeginStructField(4);
  w.EmptyStructField(static_cast<int16_t>(h.compression));
  w.EndStruct();
  w.EndStruct();
  return w.Release();
}

}  // namespace floe::parquet
