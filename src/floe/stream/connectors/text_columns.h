#pragma once

// The column types text cells (CSV fields, JSON scalars) are parsed into, by `floe convert` and the
// file sources: how they are inferred from sample cells, and how --schema names them. Parsing a
// cell never allocates; a cell that does not fit its column's type fails with kInvalidArgument
// quoting it.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "floe/batch/builder.h"
#include "floe/util/error.h"

namespace floe::stream {

struct TextColumnType {
  enum class Kind : uint8_t {
    kInt32,
    kInt64,
    kFloat32,
    kFloat64,
    kBool,
    kDate,
    kTimestamp,
    kTimestampTz,
    kDecimal,
    kString
  };
  Kind kind = Kind::kString;
  int precision = 0, scale = 0;  // kDecimal

  // The kind that parses cells into `type`; kUnsupported for types text does not map to.
  static Result<TextColumnType> FromDataType(const DataType& type);

  DataTypePtr ToDataType() const;
  // Parses a non-null cell into the builder, which must be MakeBuilder(ToDataType()).
  Status Append(std::string_view cell, ArrayBuilder& builder) const;
};

// The narrowest of int64, float64, bool, date, timestamp, timestamptz that every cell parses as;
// else string (also for no cells).
TextColumnType InferTextColumnType(std::span<const std::string_view> cells);

// "name:type,..." with Iceberg primitive type names (int, long, float, double, boolean, date,
// timestamp, timestamptz, decimal(P,S), string); empty text gives no columns.
Result<std::map<std::string, TextColumnType>> ParseTextSchema(std::string_view text);

}  // namespace floe::stream
