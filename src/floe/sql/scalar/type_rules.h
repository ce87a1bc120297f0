#pragma once

// Flink's type rules on batch types: which kinds are numeric, the widening of two numeric types,
// the precision and scale of decimal arithmetic (Flink's LogicalTypeMerging), the common type of
// branches and compared operands, and the Flink spelling of a type for error messages.

#include <string>

#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe::sql::scalar {

bool IsInteger(const DataType& type);
bool IsFloating(const DataType& type);
bool IsDecimal(const DataType& type);
bool IsNumeric(const DataType& type);
bool IsString(const DataType& type);
bool IsNullType(const DataType& type);

// "INT", "DECIMAL(10, 2)", "STRING", "TIMESTAMP(6)", "TIMESTAMP_LTZ(6)", "ARRAY<INT>"...
std::string SqlTypeName(const DataType& type);

// The decimal an integer type fits in: TINYINT DECIMAL(3, 0) ... BIGINT DECIMAL(19, 0).
DataTypePtr IntegerAsDecimal(const DataType& type);
// DECIMAL(p, s) kept within 38 digits as Flink does: when p > 38, the integer digits are kept
// and the scale shrinks, but not below min(s, 6).
DataTypePtr AdjustedDecimal(int precision, int scale);

// The wider of two numeric types: integers widen to the larger, any float/double gives DOUBLE
// (FLOAT with an integer stays FLOAT), integers with decimals become decimals wide enough for
// both.
DataTypePtr WiderNumeric(const DataTypePtr& a, const DataTypePtr& b);

// Equal (DataType::Equals) and with the same precision in every TIME and TIMESTAMP of them, so
// that a value of `a` also shows as one of `b`: where a cast can be left out.
bool SameSqlType(const DataType& a, const DataType& b);

// The type two values are compared or merged in (CASE branches, COALESCE, IN lists, UNION);
// nullopt when Flink has no implicit conversion between them. NULL goes with anything.
std::optional<DataTypePtr> CommonType(const DataTypePtr& a, const DataTypePtr& b);

}  // namespace floe::sql::scalar
