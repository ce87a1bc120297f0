#pragma once

// Renders Avro values as JSON for people and tools, following floe's CLI conventions: 64-bit
// integers exact, bytes and fixed as hex, decimals as strings, dates/times/timestamps ISO-8601 (UTC
// timestamps with "+00:00"), UUIDs canonical, enums as their symbol, unions as the value of their
// branch, maps as arrays of {"key", "value"}, NaN and infinities as strings.

#include "floe/format/avro/datum.h"
#include "floe/format/avro/schema.h"
#include "floe/util/json.h"

namespace floe::avro {

// A Datum whose shape does not match the node prints as null where it differs.
Json DatumToJson(const Node& node, const Datum& datum);

// Formatting helpers for logical values, shared with other printers.
std::string FormatDate(int64_t days);               // 2024-02-29
std::string FormatTime(int64_t value, int digits);  // 13:45:00.123456 (digits: 3, 6 or 9)
std::string FormatTimestamp(int64_t value, int digits, bool utc);  // 2024-02-29T13:45:00.123+00:00
std::string FormatDecimal(std::string_view big_endian_twos_complement, int32_t scale);
std::string FormatHex(std::string_view bytes);

}  // namespace floe::avro
