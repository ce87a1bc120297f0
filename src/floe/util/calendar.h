#pragma once

// Calendar arithmetic on the proleptic Gregorian calendar, and the ISO-8601 text floe prints for
// dates, times and timestamps everywhere (CLI JSON lines, JSON single values, Avro and Parquet
// tools). Years outside 0000..9999 are written as java.time writes them: "+10000-01-01",
// "-0001-12-31".

#include <cstdint>
#include <string>
#include <string_view>

namespace floe {

// Division rounding toward negative infinity, and the matching non-negative remainder (for b > 0):
// what pre-epoch instants need (-1 microsecond is 1969-12-31T23:59:59.999999).
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
// Computed from the remainder, not as a - FloorDiv(a, b) * b, which overflows near INT64_MIN.
constexpr int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

// Days since 1970-01-01 <-> calendar date, exact for every int64 day count a timestamp can hold.
CivilDate CivilFromDays(int64_t days);
int64_t DaysFromCivil(int64_t year, int month, int day);
bool IsLeapYear(int64_t year);
int DaysInMonth(int64_t year, int month);

void AppendIsoYear(std::string& out, int64_t year);
// "2026-01-31".
void AppendIsoDate(std::string& out, int64_t days);
// "10:30:00.000000" with as many fraction digits as units_per_second has zeros (3, 6 or 9);
// units_of_day must lie within one day. A `precision` below that shows that many digits, and
// the ones past it only where they are not zero ("10:30:00" and "10:30:00.5" at 0, "10:30:00.500"
// at 3): how SQL engines write a value of a TIME(p) or TIMESTAMP(p) column.
void AppendIsoTimeOfDay(std::string& out, int64_t units_of_day, int64_t units_per_second,
                        int precision = 9);
// "2026-01-31T10:30:00.000000", plus "+00:00" when utc; `precision` as above.
void AppendIsoTimestamp(std::string& out, int64_t value, int64_t units_per_second, bool utc,
                        int precision = 9);

// Lower-case hexadecimal digits of the bytes.
void AppendHex(std::string& out, std::string_view bytes);

}  // namespace floe
