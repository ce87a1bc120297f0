#pragma once

// The Parquet file and page metadata as plain C++ values: what the footer (FileMetaData), the page
// headers, the page index (ColumnIndex, OffsetIndex) and the bloom filter headers hold. Field names
// follow the Parquet format's Thrift definitions. Enumerations keep values this version does not
// know (a newer writer's encoding, say) instead of failing, so that a footer always parses; the
// code that needs a value checks that it knows it. Binary values (statistics, metadata) are bytes
// held in std::string.
//
// Their Thrift serde is in metadata_thrift.h; reading a footer from a file is in footer.h.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // the Hadoop-framed (or, from some writers, raw) LZ4 of old
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

enum class TimeUnit : int32_t { kMillis = 1, kMicros = 2, kNanos = 3 };

enum class EdgeInterpolation : int32_t {
  kSpherical = 0,
  kVincenty = 1,
  kThomas = 2,
  kAndoyer = 3,
  kKarney = 4,
};

// Names as the Parquet format spells them ("INT32", "RLE_DICTIONARY", "ZSTD"...), or "UNKNOWN(n)".
std::string PhysicalTypeName(PhysicalType type);
std::string ConvertedTypeName(ConvertedType type);
std::string RepetitionName(Repetition repetition);
std::string EncodingName(Encoding encoding);
std::string CodecName(Codec codec);
std::string PageTypeName(PageType type);
std::string BoundaryOrderName(BoundaryOrder order);
std::string TimeUnitName(TimeUnit unit);

// The LogicalType union: one kind plus the parameters that kind uses.
struct LogicalType {
  enum class Kind : int32_t {
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11,  // the "always null" type (NullType)
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
    kFile = 19,
    kUnrecognized =
        -1,  // a union member newer than this reader: treat the column as its physical type
  };
  Kind kind = Kind::kUnrecognized;
  int32_t unrecognized_id = 0;  // the union field id when kind is kUnrecognized
  // DECIMAL
  int32_t scale = 0;
  int32_t precision = 0;
  // TIME, TIMESTAMP
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::kMillis;
  // INTEGER
  int8_t bit_width = 0;
  bool is_signed = true;
  // VARIANT
  std::optional<int8_t> variant_specification_version;
  // GEOMETRY, GEOGRAPHY
  std::optional<std::string> crs;
  std::optional<EdgeInterpolation> algorithm;

  // "STRING", "DECIMAL(10,2)", "TIMESTAMP(MICROS,true)", "INTEGER(8,false)"...
  std::string ToString() const;
  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<PhysicalType> type;  // absent for groups
  std::optional<int32_t> type_length;
  std::optional<Repetition> repetition_type;  // absent only for the root
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
  bool operator==(const SchemaElement&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

// Min/max are encoded as the PLAIN encoding of one value (without a length prefix for byte arrays).
// min/max are the deprecated signed-order fields; min_value/max_value are the ones to trust.
struct Statistics {
  std::optional<std::string> max;
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  std::optional<double> zmin, zmax, mmin, mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::vector<int32_t> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  Codec codec = Codec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::vector<PageEncodingStats> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  // Present in encrypted files only, which floe rejects; kept so that they can be recognized.
  bool has_crypto_metadata = false;
  std::optional<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

// ColumnOrder union member ids: 1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER, 3 INT96_TIMESTAMP_ORDER.
enum class ColumnOrder : int32_t { kTypeDefined = 1, kIeee754TotalOrder = 2, kInt96Timestamp = 3 };

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  std::vector<ColumnOrder> column_orders;
  // Set by writers of encrypted files with a plaintext footer (the union member id, 1 or 2).
  std::optional<int32_t> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;  // CRC-32 of the page bytes as stored (after compression)
  std::optional<DataPageHeader> data_page_header;
  bool has_index_page_header = false;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::vector<int64_t> null_counts;
  std::vector<int64_t> repetition_level_histograms;
  std::vector<int64_t> definition_level_histograms;
  std::vector<int64_t> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

// The algorithm, hash and compression unions each have a single member today (split block, xxHash,
// uncompressed); their member ids are kept so that a reader can refuse what it does not know.
struct BloomFilterHeader {
  int32_t num_bytes = 0;
  int32_t algorithm = 1;
  int32_t hash = 1;
  int32_t compression = 1;
  bool operator==(const BloomFilterHeader&) const = default;
};

}  // namespace floe::parquet
