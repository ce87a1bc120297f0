#pragma once

// ORC's type tree as batch fields: boolean, tinyint..bigint, float, double, string (also char and
// varchar), binary, decimal (precision 38 when the writer recorded none), date, timestamp (a
// local date-time) and timestamp with local time zone (an instant), struct, list (element
// "element") and map (key "key", value "value"). The Iceberg attributes a type may carry give the
// field's id (`iceberg.id`) and requiredness (`iceberg.required`). Unions are refused
// (kUnsupported), as are type trees whose subtype ids do not point forward (kCorruptData).

#include <cstdint>
#include <string>
#include <vector>

#include "floe/batch/data_type.h"
#include "floe/format/orc/metadata.h"
#include "floe/util/error.h"

namespace floe::orc {

Result<Field> MapField(const std::vector<Type>& types, uint32_t column, std::string name,
                       TimeUnit timestamp_unit);

// The column ids of the subtree rooted at column: itself and every descendant (pre-order makes
// them consecutive, so the subtree is [column, end)).
Result<uint32_t> SubtreeEnd(const std::vector<Type>& types, uint32_t column);

}  // namespace floe::orc
