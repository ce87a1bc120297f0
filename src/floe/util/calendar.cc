#include "floe/util/calendar.h"

#include <fmt/format.h>

namespace floe {
namespace {

constexpr int64_t kSecondsPerDay = 86'400;

int FractionDigits(int64_t units_per_second) {
  int digits = 0;
  for (int64_t u = units_per_second; u > 1; u /= 10) ++digits;
  return digits;
}

}  // namespace

// The era-based method: shift the epoch to 0000-03-01 so that leap days end each 400-year era of
// exactly 146097 days; no loops, exact for the whole range.
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = FloorDiv(days, 146097);
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;  // March = 0
  const int day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  const int month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = FloorDiv(year, 400);
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

void AppendIsoYear(std::string& out, int64_t year) {
  if (year > 9999) {
    fmt::format_to(std::back_inserter(out), "+{}", year);
  } else if (year < 0) {
    fmt::format_to(std::back_inserter(out), "-{:04}", -year);
  } else {
    fmt::format_to(std::back_inserter(out), "{:04}", year);
  }
}

void AppendIsoDate(std::string& out, int64_t days) {
  const CivilDate date = CivilFromDays(days);
  AppendIsoYear(out, date.year);
  fmt::format_to(std::back_inserter(out), "-{:02}-{:02}", date.month, date.day);
}

void AppendIsoTimeOfDay(std::string& out, int64_t units_of_day, int64_t units_per_second,
                        int precision) {
  const int64_t seconds = units_of_day / units_per_second;
  fmt::format_to(std::back_inserter(out), "{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60,
                 seconds % 60);
  int digits = FractionDigits(units_per_second);
  int64_t fraction = units_of_day % units_per_second;
  while (digits > precision && fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  if (digits > 0) fmt::format_to(std::back_inserter(out), ".{:0{}}", fraction, digits);
}

void AppendIsoTimestamp(std::string& out, int64_t value, int64_t units_per_second, bool utc,
                        int precision) {
  const int64_t units_per_day = units_per_second * kSecondsPerDay;
  AppendIsoDate(out, FloorDiv(value, units_per_day));
  out.push_back('T');
  AppendIsoTimeOfDay(out, FloorMod(value, units_per_day), units_per_second, precision);
  if (utc) out.append("+00:00");
}

void AppendHex(std::string& out, std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out.reserve(out.size() + bytes.size() * 2);
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
}

}  // namespace floe
