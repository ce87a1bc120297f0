#pragma once

// Maps a Parquet schema tree to batch types: every leaf gets a DataType and a conversion from its
// physical values (e.g. INT32 with INT(8, true) to int8, TIMESTAMP(MILLIS) to microseconds, INT96
// to a timestamp, big-endian decimal bytes to decimal128), and groups become structs, lists and
// maps following LogicalTypes.md, including its backward-compatibility rules for legacy 2-level
// lists and unannotated repeated fields. The result (ReadNode) also carries the definition and
// repetition levels the record assembler needs. Fails with kUnsupported for types floe cannot
// represent (decimals wider than 38 digits) and kCorruptData for malformed LIST/MAP groups.

#include <cstdint>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe::parquet {

class SchemaTree;

// How a leaf's physical values become builder values.
enum class LeafConversion : uint8_t {
  kNull,  // UNKNOWN logical type: always null
  kBool,
  kInt32,            // to int32 or date32
  kInt32ToInt8,
  kInt32ToInt16,
  kInt32ToUInt8,
  kInt32ToUInt16,
  kInt32ToUInt32,
  kInt32TimeMillis,  // to time64[us]
  kInt32Decimal,
  kInt64,            // to int64, time64, timestamp
  kInt64ToUInt64,
  kInt64Decimal,
  kInt64Millis,      // timestamp millis to micros
  kInt96ToNanos,
  kInt96ToMicros,
  kFloat,
  kDouble,
  kBytes,            // binary or string
  kFixed,            // fixed_size_binary
  kBytesDecimal,     // big-endian two's complement (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY)
  kFloat16,          // FIXED_LEN_BYTE_ARRAY(2), little-endian half
};

struct ReadNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap, kNull };
  Kind kind = Kind::kLeaf;
  Field field;
  // The definition level at which this value is present (not null).
  int16_t def_level = 0;
  // Lists and maps: the repeated node's definition level (the list is non-empty at it) and
  // repetition level (a new element of this list starts with it).
  int16_t elements_def_level = 0;
  int16_t rep_level = 0;
  int column = -1;  // leaves: the column index
  LeafConversion conversion = LeafConversion::kNull;
  std::vector<ReadNode> children;  // struct fields; list element; map key and value
  std::vector<int> columns;        // every column below (leaves included)
};

struct MappingOptions {
  // The unit INT96 (legacy Impala/Hive/Spark) timestamps are read in.
  floe::TimeUnit int96_unit = floe::TimeUnit::kMicro;
};

// One node per top-level field of the file.
Result<std::vector<ReadNode>> MapSchema(const SchemaTree& schema, const MappingOptions& options);

}  // namespace floe::parquet
