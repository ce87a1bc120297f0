#pragma once

// Sort orders in their JSON form (spec Appendix C, "Sort Orders"):
//   {"order-id": 1, "fields": [{"transform": "identity", "source-id": 2, "direction": "asc",
//                               "null-order": "nulls-first"}]}
// Errors are kCorruptData naming the order and field.

#include "floe/spec/sort_order.h"
#include "floe/util/error.h"
#include "floe/util/json.h"

namespace floe {

Json SortOrderToJson(const SortOrder& order);
// Unknown transforms are kept; nothing is checked against a schema (see SortOrder::Validate*).
Result<SortOrderPtr> SortOrderFromJson(const Json& json);

}  // namespace floe
