#pragma once

// The type two branches of a UNION, or the rows of a VALUES column, are unified to, with Flink's
// widening: NULL takes the other type; integers widen to the wider integer; integers and decimals
// to a decimal holding both; anything with FLOAT/DOUBLE to the wider floating type; strings stay
// strings. Other mixes are kInvalidArgument naming both types.

#include <string_view>

#include "floe/batch/data_type.h"
#include "floe/util/error.h"

namespace floe::sql::plan {

Result<DataTypePtr> CommonType(const DataTypePtr& a, const DataTypePtr& b, std::string_view what);

}  // namespace floe::sql::plan
