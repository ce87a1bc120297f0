#pragma once

// The parts of an ORC file's tail and stripe footers, as the ORC v1 specification defines them
// (orc_proto.proto), decoded from their protobuf form (ParsePostScript... below). Only the fields
// a reader uses are kept; unknown fields are skipped, so files of newer writers still parse.
//
//   "ORC" header | stripes (index streams, data streams, stripe footer)... | metadata | footer |
//   postscript | one byte: the postscript's length
//
// The postscript is never compressed; the footer, the metadata and the stripe footers are, in the
// chunked framing of the postscript's compression (stream.h).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "floe/util/error.h"

namespace floe::orc {

enum class CompressionKind : uint8_t {
  kNone = 0,
  kZlib = 1,
  kSnappy = 2,
  kLzo = 3,
  kLz4 = 4,
  kZstd = 5
};
std::string_view CompressionKindName(CompressionKind kind);

struct PostScript {
  uint64_t footer_length = 0;
  CompressionKind compression = CompressionKind::kNone;
  uint64_t compression_block_size = 256 * 1024;
  std::vector<uint64_t> version;  // [major, minor]
  uint64_t metadata_length = 0;
  uint32_t writer_version = 0;
  std::string magic;
};

enum class TypeKind : uint8_t {
  kBoolean = 0,
  kByte = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kFloat = 5,
  kDouble = 6,
  kString = 7,
  kBinary = 8,
  kTimestamp = 9,
  kList = 10,
  kMap = 11,
  kStruct = 12,
  kUnion = 13,
  kDecimal = 14,
  kDate = 15,
  kVarchar = 16,
  kChar = 17,
  kTimestampInstant = 18,
};
std::string_view TypeKindName(TypeKind kind);

// One node of the type tree; the footer lists them in pre-order, the root (a struct) first, and a
// node's column id is its index in that list.
struct Type {
  TypeKind kind = TypeKind::kStruct;
  std::vector<uint32_t> subtypes;
  std::vector<std::string> field_names;  // struct
  uint32_t maximum_length = 0;           // varchar, char
  uint32_t precision = 0;                // decimal; 0 when the writer recorded none
  uint32_t scale = 0;
  std::vector<std::pair<std::string, std::string>> attributes;  // e.g. iceberg.id

  // The attribute's value, or nullopt.
  std::optional<std::string> Attribute(std::string_view key) const;
};

struct StripeInformation {
  uint64_t offset = 0;
  uint64_t index_length = 0;
  uint64_t data_length = 0;
  uint64_t footer_length = 0;
  uint64_t number_of_rows = 0;
};

struct ColumnStatistics {
  uint64_t number_of_values = 0;
  bool has_null = false;
  // At most one of these, by the column's type.
  std::optional<std::pair<int64_t, int64_t>> int_range;  // integers, also date (days)
  std::optional<std::pair<double, double>> double_range;
  std::optional<std::pair<std::string, std::string>> string_range;  // strings, also decimals
  std::optional<std::pair<int64_t, int64_t>> timestamp_range;       // UTC milliseconds
  std::optional<uint64_t> true_count;                               // boolean
};

struct Footer {
  uint64_t header_length = 0;
  uint64_t content_length = 0;
  std::vector<StripeInformation> stripes;
  std::vector<Type> types;
  std::vector<std::pair<std::string, std::string>> metadata;
  uint64_t number_of_rows = 0;
  std::vector<ColumnStatistics> statistics;
  uint32_t row_index_stride = 0;
  std::optional<uint32_t> writer;
  std::string software_version;
};

enum class StreamKind : uint8_t {
  kPresent = 0,
  kData = 1,
  kLength = 2,
  kDictionaryData = 3,
  kDictionaryCount = 4,
  kSecondary = 5,
  kRowIndex = 6,
  kBloomFilter = 7,
  kBloomFilterUtf8 = 8,
  kEncryptedIndex = 9,
  kEncryptedData = 10,
};

struct Stream {
  uint32_t kind = 0;  // a StreamKind, or a kind of a newer writer
  uint32_t column = 0;
  uint64_t length = 0;
};

enum class EncodingKind : uint8_t {
  kDirect = 0,
  kDictionary = 1,
  kDirectV2 = 2,
  kDictionaryV2 = 3
};

struct ColumnEncoding {
  EncodingKind kind = EncodingKind::kDirect;
  uint32_t dictionary_size = 0;
};

struct StripeFooter {
  std::vector<Stream> streams;
  std::vector<ColumnEncoding> columns;
  std::string writer_timezone;
};

// The per-stripe statistics of the metadata section: one list per stripe, one entry per column.
using StripeStatistics = std::vector<std::vector<ColumnStatistics>>;

Result<PostScript> ParsePostScript(std::span<const std::byte> bytes);
Result<Footer> ParseFooter(std::span<const std::byte> bytes);
Result<StripeStatistics> ParseMetadata(std::span<const std::byte> bytes);
Result<StripeFooter> ParseStripeFooter(std::span<const std::byte> bytes);

}  // namespace floe::orc
