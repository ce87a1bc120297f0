#pragma once

// The "human" strings of partition values that partition paths are made of
// ("ts_day=2026-01-01/id_bucket=7"), written exactly as the reference implementation (Iceberg Java)
// writes them, so that floe lays out files where other engines do: dates "2026-01-01", times as
// java.time prints them ("10:15", "10:15:30.250"), timestamps ISO-8601 with "+00:00" for
// timestamptz, binary and fixed as base64, decimals as java.math.BigDecimal prints them ("0E-11"),
// floats as Java prints them ("1.0E10"). These never fail.

#include <cstdint>
#include <string>

namespace floe {

class Literal;

// A value of any primitive type by its type; null is "null".
std::string HumanString(const Literal& value);

// The time transforms' results: years, months, days and hours since 1970-01-01 00:00 (negative
// before it).
std::string HumanYear(int32_t years);    // "2026"
std::string HumanMonth(int32_t months);  // "2026-01"
std::string HumanDay(int32_t days);      // "2026-01-01"
std::string HumanHour(int32_t hours);    // "2026-01-01-10"

}  // namespace floe
