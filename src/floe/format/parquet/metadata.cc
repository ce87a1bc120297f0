#include "floe/format/parquet/metadata.h"

#include <fmt/core.h>

#include <array>

namespace floe::parquet {

namespace {

template <size_t N>
std::string NameOr(const std::array<std::string_view, N>& names, int32_t value) {
  if (value >= 0 && static_cast<size_t>(value) < N && !names[value].empty()) {
    return std::string(names[value]);
  }
  return fmt::format("UNKNOWN({})", value);
}

}  // namespace

std::string PhysicalTypeName(PhysicalType type) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "BOOLEAN", "INT32",  "INT64",      "INT96",
      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return NameOr(kNames, static_cast<int32_t>(type));
}

std::string ConvertedTypeName(ConvertedType type) {
  static constexpr std::array<std::string_view, 22> kNames = {"UTF8",
                                                              "MAP",
                                                              "MAP_KEY_VALUE",
                                                              "LIST",
                                                              "ENUM",
                                                              "DECIMAL",
                                                              "DATE",
                                                              "TIME_MILLIS",
                                                              "TIME_MICROS",
                                                              "TIMESTAMP_MILLIS",
                                                              "TIMESTAMP_MICROS",
                                                              "UINT_8",
                                                              "UINT_16",
                                                              "UINT_32",
                                                              "UINT_64",
                                                              "INT_8",
                                                              "INT_16",
                                                              "INT_32",
                                                              "INT_64",
                                                              "JSON",
                                                              "BSON",
                                                              "INTERVAL"};
  return NameOr(kNames, static_cast<int32_t>(type));
}

std::string RepetitionName(Repetition repetition) {
  static constexpr std::array<std::string_view, 3> kNames = {"REQUIRED", "OPTIONAL", "REPEATED"};
  return NameOr(kNames, static_cast<int32_t>(repetition));
}

std::string EncodingName(Encoding encoding) {
  static constexpr std::array<std::string_view, 10> kNames = {"PLAIN",
                                                              "",
                                                              "PLAIN_DICTIONARY",
                                                              "RLE",
                                                              "BIT_PACKED",
                                                              "DELTA_BINARY_PACKED",
                                                              "DELTA_LENGTH_BYTE_ARRAY",
                                                              "DELTA_BYTE_ARRAY",
                                                              "RLE_DICTIONARY",
                                                              "BYTE_STREAM_SPLIT"};
  return NameOr(kNames, static_cast<int32_t>(encoding));
}

std::string CodecName(Codec codec) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
  return NameOr(kNames, static_cast<int32_t>(codec));
}

std::string PageTypeName(PageType type) {
  static constexpr std::array<std::string_view, 4> kNames = {"DATA_PAGE", "INDEX_PAGE",
                                                             "DICTIONARY_PAGE", "DATA_PAGE_V2"};
  return NameOr(kNames, static_cast<int32_t>(type));
}

std::string BoundaryOrderName(BoundaryOrder order) {
  static constexpr std::array<std::string_view, 3> kNames = {"UNORDERED", "ASCENDING",
                                                             "DESCENDING"};
  return NameOr(kNames, static_cast<int32_t>(order));
}

std::string TimeUnitName(TimeUnit unit) {
  static constexpr std::array<std::string_view, 4> kNames = {"", "MILLIS", "MICROS", "NANOS"};
  return NameOr(kNames, static_cast<int32_t>(unit));
}

std::string LogicalType::ToString() const {
  switch (kind) {
    case Kind::kString:
      return "STRING";
    case Kind::kMap:
      return "MAP";
    case Kind::kList:
      return "LIST";
    case Kind::kEnum:
      return "ENUM";
    case Kind::kDecimal:
      return fmt::format("DECIMAL({},{})", precision, scale);
    case Kind::kDate:
      return "DATE";
    case Kind::kTime:
      return fmt::format("TIME({},{})", TimeUnitName(unit), is_adjusted_to_utc);
    case Kind::kTimestamp:
      return fmt::format("TIMESTAMP({},{})", TimeUnitName(unit), is_adjusted_to_utc);
    case Kind::kInteger:
      return fmt::format("INTEGER({},{})", bit_width, is_signed);
    case Kind::kUnknown:
      return "UNKNOWN";
    case Kind::kJson:
      return "JSON";
    case Kind::kBson:
      return "BSON";
    case Kind::kUuid:
      return "UUID";
    case Kind::kFloat16:
      return "FLOAT16";
    case Kind::kVariant:
      return variant_specification_version
                 ? fmt::format("VARIANT({})", *variant_specification_version)
                 : std::string("VARIANT");
    case Kind::kGeometry:
      return fmt::format("GEOMETRY({})", crs.value_or(""));
    case Kind::kGeography: {
      static constexpr std::array<std::string_view, 5> kAlgorithms = {
          "SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"};
      std::string algo =
          algorithm ? NameOr(kAlgorithms, static_cast<int32_t>(*algorithm)) : "SPHERICAL";
      return fmt::format("GEOGRAPHY({},{})", crs.value_or(""), algo);
    }
    case Kind::kFile:
      return "FILE";
    case Kind::kUnrecognized:
      break;
  }
  return fmt::format("UNRECOGNIZED({})", unrecognized_id);
}

}  // namespace floe::parquet
