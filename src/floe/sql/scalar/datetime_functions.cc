// Date and time functions in Flink's session time zone, which floe fixes at UTC: CURRENT_DATE,
// CURRENT_TIMESTAMP/NOW (TIMESTAMP_LTZ), LOCALTIMESTAMP, EXTRACT and YEAR...SECOND, DATE_FORMAT,
// TO_DATE and TO_TIMESTAMP with Java date patterns (yyyy MM dd HH mm ss SSS and quoted text),
// date/timestamp +/- INTERVAL, TIMESTAMPADD and TIMESTAMPDIFF. A text that does not match its
// pattern gives null, as in Flink.

#include <fmt/core.h>

#include <chrono>
#include <cmath>

#include "floe/sql/scalar/binder_internal.h"
#include "floe/sql/scalar/cast_internal.h"
#include "floe/sql/scalar/functions_internal.h"
#include "floe/sql/scalar/node_internal.h"
#include "floe/sql/scalar/rows_internal.h"
#include "floe/sql/scalar/temporal_internal.h"
#include "floe/sql/scalar/type_rules.h"
#include "floe/util/calendar.h"
#include "floe/util/strings.h"

namespace floe::sql::scalar {
namespace {

using Args = std::vector<ScalarExprPtr>;

bool IsDateOrTimestamp(const DataType& type) {
  return type.kind() == TypeKind::kDate32 || type.kind() == TypeKind::kTimestamp;
}

// Row i of a date, time or timestamp column as microseconds (since the epoch; since midnight for
// TIME).
int64_t MicrosAt(const Array& a, int64_t i) {
  switch (a.kind()) {
    case TypeKind::kDate32:
      return a.Value<int32_t>(i) * kMicrosPerDay;
    case TypeKind::kTimestamp:
    case TypeKind::kTime64: {
      const int64_t v = a.Value<int64_t>(i);
      return a.type()->unit() == TimeUnit::kNano ? FloorDiv(v, 1000) : v;
    }
    default:
      return 0;
  }
}

struct Civil {
  int64_t year;
  int month, day, hour, minute, second;
  int64_t micros;  // of the second
  int64_t days;    // since the epoch
};

Civil CivilOf(int64_t micros) {
  Civil c{};
  c.days = FloorDiv(micros, kMicrosPerDay);
  const int64_t of_day = FloorMod(micros, kMicrosPerDay);
  CivilDate date = CivilFromDays(c.days);
  c.year = date.year;
  c.month = date.month;
  c.day = date.day;
  c.hour = static_cast<int>(of_day / (3600 * kMicrosPerSecond));
  c.minute = static_cast<int>(of_day / (60 * kMicrosPerSecond) % 60);
  c.second = static_cast<int>(of_day / kMicrosPerSecond % 60);
  c.micros = of_day % kMicrosPerSecond;
  return c;
}

// ISO day of week, Monday 1 .. Sunday 7.
int IsoWeekday(int64_t days) { return static_cast<int>(FloorMod(days + 3, 7)) + 1; }

int64_t IsoWeek(const Civil& c) {
  // The week containing this date's Thursday decides the ISO week's year.
  const int64_t thursday = c.days - IsoWeekday(c.days) + 4;
  const CivilDate t = CivilFromDays(thursday);
  const int64_t first = DaysFromCivil(t.year, 1, 1);
  return (thursday - first) / 7 + 1;
}

std::optional<int64_t> Extract(std::string_view unit, int64_t micros) {
  const Civil c = CivilOf(micros);
  if (unit == "YEAR") return c.year;
  if (unit == "QUARTER") return (c.month - 1) / 3 + 1;
  if (unit == "MONTH") return c.month;
  if (unit == "WEEK") return IsoWeek(c);
  if (unit == "DAY" || unit == "DAYOFMONTH") return c.day;
  if (unit == "DOY" || unit == "DAYOFYEAR") return c.days - DaysFromCivil(c.year, 1, 1) + 1;
  // Flink (Calcite): DOW is Sunday 1 .. Saturday 7.
  if (unit == "DOW" || unit == "DAYOFWEEK") return IsoWeekday(c.days) % 7 + 1;
  if (unit == "HOUR") return c.hour;
  if (unit == "MINUTE") return c.minute;
  if (unit == "SECOND") return c.second;
  if (unit == "MILLISECOND") return c.second * 1000 + c.micros / 1000;
  if (unit == "MICROSECOND") return c.second * kMicrosPerSecond + c.micros;
  if (unit == "EPOCH") return FloorDiv(micros, kMicrosPerSecond);
  return std::nullopt;
}

Result<ScalarExprPtr> TemporalArg(const Expr& call, ScalarExprPtr arg, int index) {
  const DataType& type = *arg->type();
  if (IsNullType(type)) return Coerce(std::move(arg), DataType::Timestamp(TimeUnit::kMicro, false));
  if (IsString(type) && arg->constant()) {
    return Coerce(std::move(arg), DataType::Timestamp(TimeUnit::kMicro, false));
  }
  if (!IsDateOrTimestamp(type) && type.kind() != TypeKind::kTime64) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{}: argument {} must be a date, time or "
                                  "timestamp, not {}",
                                  CallName(call), index + 1, SqlTypeName(type))));
  }
  return arg;
}

Result<ScalarExprPtr> ExtractCall(const Expr& call, std::string unit, ScalarExprPtr arg,
                                  int index) {
  FLOE_ASSIGN_OR_RETURN(arg, TemporalArg(call, std::move(arg), index));
  if (!Extract(unit, 0)) {
    return std::unexpected(
        ErrorAt(call, fmt::format("{}: unknown time unit {}", CallName(call), unit)));
  }
  const bool nullable = arg->nullable();
  return MakeCall(NodeKind::kCall, {std::move(arg)}, DataType::Int64(), nullable, TextOf(call),
                  [unit](std::span<const Array> a, int64_t n) {
                    return MapFixed<int64_t>(a, DataType::Int64(), n, [&](int64_t i, int64_t& out) {
                      out = *Extract(unit, MicrosAt(a[0], i));
                      return true;
                    });
                  });
}

Result<std::string> UnitOf(const Expr& call) {
  const Expr& unit = *call.args[0];
  if (unit.kind != ExprKind::kColumn || unit.name.size() != 1) {
    return std::unexpected(ErrorAt(unit, fmt::format("{}: expected a time unit (YEAR, MONTH, "
                                                     "DAY...)",
                                                     CallName(call))));
  }
  std::string name = AsciiUpper(unit.name[0]);
  if (name.starts_with("SQL_TSI_")) name = name.substr(8);
  return name;
}

Result<ScalarExprPtr> BindExtract(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(std::string unit, UnitOf(call));
  return ExtractCall(call, std::move(unit), std::move(args[1]), 1);
}

template <const char* kUnit>
Result<ScalarExprPtr> BindPart(const Expr& call, Args args) {
  return ExtractCall(call, kUnit, std::move(args[0]), 0);
}

constexpr char kYear[] = "YEAR", kQuarter[] = "QUARTER", kMonth[] = "MONTH", kWeek[] = "WEEK",
               kDayOfYear[] = "DAYOFYEAR", kDayOfMonth[] = "DAYOFMONTH", kDayOfWeek[] = "DAYOFWEEK",
               kHour[] = "HOUR", kMinute[] = "MINUTE", kSecond[] = "SECOND";

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The current time, read when a batch is evaluated, in the precision of `type` (Flink reads a
// millisecond clock: CURRENT_TIMESTAMP is TIMESTAMP_LTZ(3), LOCALTIME is TIME(0)).
Result<ScalarExprPtr> NowCall(const Expr& call, DataTypePtr type) {
  int64_t step = 1;
  if (type->kind() != TypeKind::kDate32) {
    for (int digits = 6; digits > type->precision(); --digits) step *= 10;
  }
  return MakeCall(NodeKind::kCall, {}, type, false, TextOf(call),
                  [type, step](std::span<const Array>, int64_t n) -> Result<Array> {
                    const int64_t now = FloorDiv(NowMicros(), step) * step;
                    if (type->kind() == TypeKind::kDate32) {
                      const auto days = static_cast<int32_t>(FloorDiv(now, kMicrosPerDay));
                      return MakeFixed<int32_t>(
                          type, n, {}, [&](int32_t* out) { std::fill(out, out + n, days); });
                    }
                    const int64_t value =
                        type->kind() == TypeKind::kTime64 ? FloorMod(now, kMicrosPerDay) : now;
                    return MakeFixed<int64_t>(
                        type, n, {}, [&](int64_t* out) { std::fill(out, out + n, value); });
                  },
                  {.deterministic = false});
}

Result<ScalarExprPtr> BindCurrentDate(const Expr& call, Args) {
  return NowCall(call, DataType::Date32());
}
Result<ScalarExprPtr> BindCurrentTimestamp(const Expr& call, Args) {
  return NowCall(call, DataType::Timestamp(TimeUnit::kMicro, true, 3));
}
Result<ScalarExprPtr> BindLocalTimestamp(const Expr& call, Args) {
  return NowCall(call, DataType::Timestamp(TimeUnit::kMicro, false, 3));
}
Result<ScalarExprPtr> BindCurrentTime(const Expr& call, Args) {
  return NowCall(call, DataType::Time64(TimeUnit::kMicro, 0));
}

// ---- Java date patterns ----

void AppendPadded(std::string& out, int64_t value, int width) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  if (value < 0) out += '-';
  for (int k = static_cast<int>(digits.size()); k < width; ++k) out += '0';
  out += digits;
}

// Letters of SimpleDateFormat that floe writes and reads; other letters are copied.
void FormatMicros(std::string_view pattern, int64_t micros, std::string& out) {
  const Civil c = CivilOf(micros);
  for (size_t i = 0; i < pattern.size();) {
    const char letter = pattern[i];
    if (letter == '\'') {
      size_t end = pattern.find('\'', i + 1);
      if (end == std::string_view::npos) end = pattern.size();
      if (end == i + 1) {
        out += '\'';
      } else {
        out.append(pattern.substr(i + 1, end - i - 1));
      }
      i = end + 1;
      continue;
    }
    size_t run = 1;
    while (i + run < pattern.size() && pattern[i + run] == letter) ++run;
    const int width = static_cast<int>(run);
    switch (letter) {
      case 'y':
        AppendPadded(out, width == 2 ? FloorMod(c.year, 100) : c.year, width);
        break;
      case 'M':
        AppendPadded(out, c.month, width);
        break;
      case 'd':
        AppendPadded(out, c.day, width);
        break;
      case 'H':
        AppendPadded(out, c.hour, width);
        break;
      case 'h':
        AppendPadded(out, (c.hour + 11) % 12 + 1, width);
        break;
      case 'm':
        AppendPadded(out, c.minute, width);
        break;
      case 's':
        AppendPadded(out, c.second, width);
        break;
      case 'S': {
        std::string fraction;
        AppendPadded(fraction, c.micros, 6);
        fraction.resize(std::min<size_t>(run, 6), '0');
        out += fraction;
        for (size_t k = 6; k < run; ++k) out += '0';
        break;
      }
      case 'D':
        AppendPadded(out, c.days - DaysFromCivil(c.year, 1, 1) + 1, width);
        break;
      case 'a':
        out += c.hour < 12 ? "AM" : "PM";
        break;
      default:
        out.append(run, letter);
        break;
    }
    i += run;
  }
}

// Reads text by a pattern; nullopt when it does not match.
std::optional<int64_t> ParseMicros(std::string_view pattern, std::string_view text) {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  size_t t = 0;
  auto read_number = [&](size_t max_digits, int64_t& value) {
    size_t count = 0;
    value = 0;
    while (t < text.size() && count < max_digits && text[t] >= '0' && text[t] <= '9') {
      value = value * 10 + (text[t++] - '0');
      ++count;
    }
    return count > 0;
  };
  for (size_t i = 0; i < pattern.size();) {
    const char letter = pattern[i];
    if (letter == '\'') {
      size_t end = pattern.find('\'', i + 1);
      if (end == std::string_view::npos) end = pattern.size();
      const std::string_view literal = end == i + 1 ? "'" : pattern.substr(i + 1, end - i - 1);
      if (text.substr(t, literal.size()) != literal) return std::nullopt;
      t += literal.size();
      i = end + 1;
      continue;
    }
    size_t run = 1;
    while (i + run < pattern.size() && pattern[i + run] == letter) ++run;
    // A field followed directly by another field reads exactly its width.
    const bool adjacent =
        i + run < pattern.size() && std::isalpha(static_cast<unsigned char>(pattern[i + run]));
    const size_t width = adjacent || run > 2 ? run : (letter == 'S' ? 9 : 2);
    int64_t value = 0;
    switch (letter) {
      case 'y':
        if (!read_number(run == 2 ? 2 : (adjacent ? run : 9), value)) return std::nullopt;
        year = run == 2 ? 2000 + value : value;
        break;
      case 'M':
        if (!read_number(width, month)) return std::nullopt;
        break;
      case 'd':
        if (!read_number(width, day)) return std::nullopt;
        break;
      case 'H':
        if (!read_number(width, hour)) return std::nullopt;
        break;
      case 'm':
        if (!read_number(width, minute)) return std::nullopt;
        break;
      case 's':
        if (!read_number(width, second)) return std::nullopt;
        break;
      case 'S': {
        const size_t start = t;
        if (!read_number(adjacent ? run : 9, value)) return std::nullopt;
        for (size_t k = t - start; k < 6; ++k) value *= 10;
        for (size_t k = 6; k < t - start; ++k) value /= 10;
        micros = value;
        break;
      }
      default:
        for (size_t k = 0; k < run; ++k) {
          if (t >= text.size() || text[t] != letter) return std::nullopt;
          ++t;
        }
        break;
    }
    i += run;
  }
  if (t != text.size() || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, static_cast<int>(month)) || hour > 23 || minute > 59 || second > 59) {
    return std::nullopt;
  }
  return DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day)) * kMicrosPerDay +
         ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + micros;
}

Result<ScalarExprPtr> BindDateFormat(const Expr& call, Args args) {
  if (IsString(*args[0]->type())) {
    FLOE_ASSIGN_OR_RETURN(args[0],
                          Coerce(std::move(args[0]), DataType::Timestamp(TimeUnit::kMicro, false)));
  }
  FLOE_ASSIGN_OR_RETURN(args[0], TemporalArg(call, std::move(args[0]), 0));
  FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapStrings(a, n, [&](int64_t i, std::string& out) {
                      FormatMicros(a[1].GetView(i), MicrosAt(a[0], i), out);
                      return true;
                    });
                  });
}

// TO_DATE(text[, pattern]) and TO_TIMESTAMP(text[, pattern]); Flink's default patterns are
// 'yyyy-MM-dd' and 'yyyy-MM-dd HH:mm:ss', and TO_TIMESTAMP returns a TIMESTAMP(3).
template <bool kDate>
Result<ScalarExprPtr> BindToTemporal(const Expr& call, Args args) {
  for (size_t k = 0; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], StringArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  const DataTypePtr type =
      kDate ? DataType::Date32() : DataType::Timestamp(TimeUnit::kMicro, false, 3);
  return MakeCall(NodeKind::kCall, std::move(args), type, true, TextOf(call),
                  [type](std::span<const Array> a, int64_t n) -> Result<Array> {
                    auto parse = [&](int64_t i) -> std::optional<int64_t> {
                      if (a.size() > 1) return ParseMicros(a[1].GetView(i), a[0].GetView(i));
                      return kDate ? ParseMicros("yyyy-MM-dd", a[0].GetView(i))
                                   : ParseTimestampText(a[0].GetView(i), 6);
                    };
                    if constexpr (kDate) {
                      return MapFixed<int32_t>(a, type, n, [&](int64_t i, int32_t& out) {
                        std::optional<int64_t> micros = parse(i);
                        if (micros) out = static_cast<int32_t>(FloorDiv(*micros, kMicrosPerDay));
                        return micros.has_value();
                      });
                    } else {
                      return MapFixed<int64_t>(a, type, n, [&](int64_t i, int64_t& out) {
                        std::optional<int64_t> micros = parse(i);
                        if (micros) out = *micros;
                        return micros.has_value();
                      });
                    }
                  });
}

// ---- Unix time ----

// FROM_UNIXTIME(seconds[, pattern]): the instant as text in the session time zone (UTC), by
// default 'yyyy-MM-dd HH:mm:ss'.
Result<ScalarExprPtr> BindFromUnixtime(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(args[0], IntegerArg(call, std::move(args[0]), 0));
  if (args.size() > 1) {
    FLOE_ASSIGN_OR_RETURN(args[1], StringArg(call, std::move(args[1]), 1));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(
      NodeKind::kCall, std::move(args), DataType::String(), nullable, TextOf(call),
      [](std::span<const Array> a, int64_t n) {
        return MapStrings(a, n, [&](int64_t i, std::string& out) {
          const std::string_view pattern = a.size() > 1 ? a[1].GetView(i) : "yyyy-MM-dd HH:mm:ss";
          const int64_t seconds = a[0].Value<int64_t>(i);
          if (seconds > INT64_MAX / kMicrosPerSecond || seconds < INT64_MIN / kMicrosPerSecond) {
            return false;
          }
          FormatMicros(pattern, seconds * kMicrosPerSecond, out);
          return true;
        });
      });
}

// UNIX_TIMESTAMP(): the current second; UNIX_TIMESTAMP(text[, pattern]): the text read in the
// session time zone (UTC), by default as 'yyyy-MM-dd HH:mm:ss'. A text that does not match gives
// Long.MIN_VALUE, as Flink's DateTimeUtils.unixTimestamp does.
Result<ScalarExprPtr> BindUnixTimestamp(const Expr& call, Args args) {
  if (args.empty()) {
    return MakeCall(NodeKind::kCall, {}, DataType::Int64(), false, TextOf(call),
                    [](std::span<const Array>, int64_t n) -> Result<Array> {
                      const int64_t now = FloorDiv(NowMicros(), kMicrosPerSecond);
                      return MakeFixed<int64_t>(DataType::Int64(), n, {}, [&](int64_t* out) {
                        std::fill(out, out + n, now);
                      });
                    },
                    {.deterministic = false});
  }
  for (size_t k = 0; k < args.size(); ++k) {
    FLOE_ASSIGN_OR_RETURN(args[k], StringArg(call, std::move(args[k]), static_cast<int>(k)));
  }
  const bool nullable = AnyNullable(args);
  return MakeCall(NodeKind::kCall, std::move(args), DataType::Int64(), nullable, TextOf(call),
                  [](std::span<const Array> a, int64_t n) {
                    return MapFixed<int64_t>(a, DataType::Int64(), n, [&](int64_t i, int64_t& out) {
                      const std::string_view pattern =
                          a.size() > 1 ? a[1].GetView(i) : "yyyy-MM-dd HH:mm:ss";
                      std::optional<int64_t> micros = ParseMicros(pattern, a[0].GetView(i));
                      out = micros ? FloorDiv(*micros, kMicrosPerSecond) : INT64_MIN;
                      return true;
                    });
                  });
}

// TO_TIMESTAMP_LTZ(number[, precision]): epoch seconds (precision 0) or milliseconds (3, the
// default) as a TIMESTAMP_LTZ(3); a fractional number keeps its millisecond digits.
Result<ScalarExprPtr> BindToTimestampLtz(const Expr& call, Args args) {
  int64_t precision = 3;
  if (args.size() > 1) {
    std::optional<Value> given = args[1]->constant();
    if (!IsInteger(*args[1]->type()) || !given || given->is_null() ||
        (given->get<int64_t>() != 0 && given->get<int64_t>() != 3)) {
      return std::unexpected(ErrorAt(
          call, "TO_TIMESTAMP_LTZ: the precision must be the constant 0 (seconds) or 3 (millis)"));
    }
    precision = given->get<int64_t>();
    args.pop_back();
  }
  const bool integral = IsInteger(*args[0]->type()) || IsNullType(*args[0]->type());
  FLOE_ASSIGN_OR_RETURN(args[0], integral ? IntegerArg(call, std::move(args[0]), 0)
                                          : DoubleArg(call, std::move(args[0]), 0));
  const DataTypePtr type = DataType::Timestamp(TimeUnit::kMicro, true, 3);
  const int64_t unit_micros = precision == 0 ? kMicrosPerSecond : 1000;
  return MakeCall(NodeKind::kCall, std::move(args), type, true, TextOf(call),
                  [type, integral, unit_micros](std::span<const Array> a, int64_t n) {
                    return MapFixed<int64_t>(a, type, n, [&](int64_t i, int64_t& out) {
                      // Millisecond precision, in the range of TIMESTAMP's years 0000-9999.
                      constexpr double kLimitMillis = 253'402'300'800'000.0;
                      const double millis = integral ? static_cast<double>(a[0].Value<int64_t>(i)) *
                                                           (unit_micros / 1000)
                                                     : a[0].Value<double>(i) * (unit_micros / 1000);
                      if (!(millis > -62'167'219'200'000.0 && millis < kLimitMillis)) return false;
                      out = integral ? a[0].Value<int64_t>(i) * unit_micros
                                     : static_cast<int64_t>(std::floor(millis)) * 1000;
                      return true;
                    });
                  });
}

// ---- intervals ----

// An interval as months plus microseconds.
struct Interval {
  int64_t months = 0;
  int64_t micros = 0;
};

int64_t UnitMicros(std::string_view unit) {
  if (unit == "DAY") return kMicrosPerDay;
  if (unit == "HOUR") return 3600 * kMicrosPerSecond;
  if (unit == "MINUTE") return 60 * kMicrosPerSecond;
  if (unit == "SECOND") return kMicrosPerSecond;
  if (unit == "WEEK") return 7 * kMicrosPerDay;
  if (unit == "MILLISECOND") return 1000;
  if (unit == "MICROSECOND") return 1;
  return 0;
}

int64_t UnitMonths(std::string_view unit) {
  if (unit == "YEAR") return 12;
  if (unit == "QUARTER") return 3;
  if (unit == "MONTH") return 1;
  return 0;
}

// INTERVAL 'text' unit [TO unit]: '3' DAY, '1-6' YEAR TO MONTH, '2 10:30:00' DAY TO SECOND.
std::optional<Interval> ParseInterval(std::string_view text, std::string_view unit) {
  bool negative = false;
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const size_t to = unit.find(" TO ");
  const std::string_view from_unit = unit.substr(0, to);
  const std::string_view to_unit = to == std::string_view::npos ? from_unit : unit.substr(to + 4);
  static constexpr std::string_view kOrder[] = {"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"};
  size_t first = 0, last = 0;
  for (size_t k = 0; k < std::size(kOrder); ++k) {
    if (kOrder[k] == from_unit) first = k;
    if (kOrder[k] == to_unit) last = k;
  }
  if (last < first) return std::nullopt;
  Interval out;
  size_t pos = 0;
  for (size_t k = first; k <= last; ++k) {
    if (k > first) {
      const char separator = kOrder[k] == "MONTH" ? '-' : kOrder[k] == "HOUR" ? ' ' : ':';
      if (pos >= text.size() || text[pos] != separator) return std::nullopt;
      ++pos;
    }
    int64_t value = 0;
    size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      value = value * 10 + (text[pos++] - '0');
      if (++digits > 12) return std::nullopt;
    }
    if (digits == 0) return std::nullopt;
    int64_t fraction = 0;
    if (kOrder[k] == "SECOND" && pos < text.size() && text[pos] == '.') {
      ++pos;
      int64_t scale = kMicrosPerSecond;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        scale /= 10;
        fraction += (text[pos++] - '0') * scale;
      }
    }
    out.months += value * UnitMonths(kOrder[k]);
    out.micros += value * UnitMicros(kOrder[k]) + fraction;
  }
  while (pos < text.size() && text[pos] == ' ') ++pos;
  if (pos != text.size()) return std::nullopt;
  if (negative) {
    out.months = -out.months;
    out.micros = -out.micros;
  }
  return out;
}

// micros (since the epoch) plus months on the calendar, clamping the day to the month's end.
int64_t AddMonths(int64_t micros, int64_t months) {
  if (months == 0) return micros;
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  const int64_t of_day = FloorMod(micros, kMicrosPerDay);
  const CivilDate date = CivilFromDays(days);
  const int64_t total = date.year * 12 + (date.month - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  const int month = static_cast<int>(FloorMod(total, 12)) + 1;
  const int day = std::min(date.day, DaysInMonth(year, month));
  return DaysFromCivil(year, month, day) * kMicrosPerDay + of_day;
}

// value + interval, keeping the value's type (a DATE moves by whole days).
Result<ScalarExprPtr> AddInterval(ScalarExprPtr value, Interval interval, std::string text) {
  const DataTypePtr type = value->type();
  const bool nullable = value->nullable();
  return MakeCall(
      NodeKind::kCall, {std::move(value)}, type, nullable, std::move(text),
      [type, interval](std::span<const Array> a, int64_t n) -> Result<Array> {
        if (type->kind() == TypeKind::kDate32) {
          return MapFixed<int32_t>(a, type, n, [&](int64_t i, int32_t& out) {
            const int64_t micros = AddMonths(MicrosAt(a[0], i), interval.months) + interval.micros;
            out = static_cast<int32_t>(FloorDiv(micros, kMicrosPerDay));
            return true;
          });
        }
        const bool nanos = type->unit() == TimeUnit::kNano;
        return MapFixed<int64_t>(a, type, n, [&](int64_t i, int64_t& out) {
          const int64_t raw = a[0].Value<int64_t>(i);
          const int64_t sub = nanos ? FloorMod(raw, 1000) : 0;
          const int64_t micros = AddMonths(MicrosAt(a[0], i), interval.months) + interval.micros;
          out = nanos ? micros * 1000 + sub : micros;
          return true;
        });
      });
}

Result<ScalarExprPtr> BindTimestampAdd(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(std::string unit, UnitOf(call));
  FLOE_ASSIGN_OR_RETURN(args[1], IntegerArg(call, std::move(args[1]), 1));
  FLOE_ASSIGN_OR_RETURN(args[2], TemporalArg(call, std::move(args[2]), 2));
  const int64_t months = UnitMonths(unit);
  const int64_t micros = UnitMicros(unit);
  if (months == 0 && micros == 0) {
    return std::unexpected(ErrorAt(call, fmt::format("TIMESTAMPADD: unknown time unit {}", unit)));
  }
  // Flink: adding hours or smaller to a DATE gives a TIMESTAMP.
  DataTypePtr type = args[2]->type();
  if (type->kind() == TypeKind::kDate32 && micros != 0 && micros < kMicrosPerDay) {
    type = DataType::Timestamp(TimeUnit::kMicro, false);
    FLOE_ASSIGN_OR_RETURN(args[2], Coerce(std::move(args[2]), type));
  }
  const bool nullable = args[1]->nullable() || args[2]->nullable();
  return MakeCall(NodeKind::kCall, {args[1], args[2]}, type, nullable, TextOf(call),
                  [type, months, micros](std::span<const Array> a, int64_t n) -> Result<Array> {
                    auto add = [&](int64_t i) {
                      const int64_t count = a[0].Value<int64_t>(i);
                      return AddMonths(MicrosAt(a[1], i), months * count) + micros * count;
                    };
                    if (type->kind() == TypeKind::kDate32) {
                      return MapFixed<int32_t>(a, type, n, [&](int64_t i, int32_t& out) {
                        out = static_cast<int32_t>(FloorDiv(add(i), kMicrosPerDay));
                        return true;
                      });
                    }
                    const bool nanos = type->unit() == TimeUnit::kNano;
                    return MapFixed<int64_t>(a, type, n, [&](int64_t i, int64_t& out) {
                      out = nanos ? add(i) * 1000 : add(i);
                      return true;
                    });
                  });
}

// Whole units from a to b (negative when b is earlier), as Flink's TIMESTAMPDIFF.
Result<ScalarExprPtr> BindTimestampDiff(const Expr& call, Args args) {
  FLOE_ASSIGN_OR_RETURN(std::string unit, UnitOf(call));
  FLOE_ASSIGN_OR_RETURN(args[1], TemporalArg(call, std::move(args[1]), 1));
  FLOE_ASSIGN_OR_RETURN(args[2], TemporalArg(call, std::move(args[2]), 2));
  const int64_t months = UnitMonths(unit);
  const int64_t micros = UnitMicros(unit);
  if (months == 0 && micros == 0) {
    return std::unexpected(ErrorAt(call, fmt::format("TIMESTAMPDIFF: unknown time unit {}", unit)));
  }
  const bool nullable = args[1]->nullable() || args[2]->nullable();
  return MakeCall(NodeKind::kCall, {args[1], args[2]}, DataType::Int32(), nullable, TextOf(call),
                  [months, micros](std::span<const Array> a, int64_t n) {
                    return MapFixed<int32_t>(a, DataType::Int32(), n, [&](int64_t i, int32_t& out) {
                      const int64_t from = MicrosAt(a[0], i), to = MicrosAt(a[1], i);
                      if (micros != 0) {
                        out = static_cast<int32_t>((to - from) / micros);
                        return true;
                      }
                      const Civil f = CivilOf(from), t = CivilOf(to);
                      int64_t diff = (t.year - f.year) * 12 + (t.month - f.month);
                      // A month counts once the day and time of day are reached.
                      const int64_t f_time = FloorMod(from, kMicrosPerDay);
                      const int64_t t_time = FloorMod(to, kMicrosPerDay);
                      const bool before = t.day < f.day || (t.day == f.day && t_time < f_time);
                      const bool after = t.day > f.day || (t.day == f.day && t_time > f_time);
                      if (diff > 0 && before) --diff;
                      if (diff < 0 && after) ++diff;
                      out = static_cast<int32_t>(diff / months);
                      return true;
                    });
                  });
}

constexpr FunctionDef kDateTimeFunctions[] = {
    {"CURRENT_DATE", 0, 0, BindCurrentDate},
    {"CURRENT_TIMESTAMP", 0, 0, BindCurrentTimestamp},
    {"NOW", 0, 0, BindCurrentTimestamp},
    {"CURRENT_ROW_TIMESTAMP", 0, 0, BindCurrentTimestamp},
    {"LOCALTIMESTAMP", 0, 0, BindLocalTimestamp},
    {"CURRENT_TIME", 0, 0, BindCurrentTime},
    {"LOCALTIME", 0, 0, BindCurrentTime},
    {"EXTRACT", 2, 2, BindExtract, true},
    {"YEAR", 1, 1, BindPart<kYear>},
    {"QUARTER", 1, 1, BindPart<kQuarter>},
    {"MONTH", 1, 1, BindPart<kMonth>},
    {"WEEK", 1, 1, BindPart<kWeek>},
    {"DAYOFYEAR", 1, 1, BindPart<kDayOfYear>},
    {"DAYOFMONTH", 1, 1, BindPart<kDayOfMonth>},
    {"DAYOFWEEK", 1, 1, BindPart<kDayOfWeek>},
    {"HOUR", 1, 1, BindPart<kHour>},
    {"MINUTE", 1, 1, BindPart<kMinute>},
    {"SECOND", 1, 1, BindPart<kSecond>},
    {"DATE_FORMAT", 2, 2, BindDateFormat},
    {"TO_DATE", 1, 2, BindToTemporal<true>},
    {"TO_TIMESTAMP", 1, 2, BindToTemporal<false>},
    {"TIMESTAMPADD", 3, 3, BindTimestampAdd, true},
    {"TIMESTAMPDIFF", 3, 3, BindTimestampDiff, true},
    {"FROM_UNIXTIME", 1, 2, BindFromUnixtime},
    {"UNIX_TIMESTAMP", 0, 2, BindUnixTimestamp},
    {"TO_TIMESTAMP_LTZ", 1, 2, BindToTimestampLtz},
};

}  // namespace

std::span<const FunctionDef> DateTimeFunctions() { return kDateTimeFunctions; }

std::optional<Result<ScalarExprPtr>> BindIntervalArithmetic(const Expr& expr, const Scope& scope) {
  const auto is_interval = [](const Expr& e) {
    return e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kInterval;
  };
  const bool left = is_interval(*expr.args[0]);
  const bool right = is_interval(*expr.args[1]);
  if (!left && !right) return std::nullopt;
  if (left && right) {
    return std::unexpected(ErrorAt(expr, "adding two INTERVALs is not supported"));
  }
  if ((expr.op != "+" && expr.op != "-") || (left && expr.op == "-")) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("cannot apply '{}' to an INTERVAL here", expr.op)));
  }
  const Expr& interval_expr = left ? *expr.args[0] : *expr.args[1];
  std::optional<Interval> interval = ParseInterval(interval_expr.text, interval_expr.interval_unit);
  if (!interval) {
    return std::unexpected(ErrorAt(
        interval_expr,
        fmt::format("invalid INTERVAL '{}' {}", interval_expr.text, interval_expr.interval_unit)));
  }
  if (expr.op == "-") {
    interval->months = -interval->months;
    interval->micros = -interval->micros;
  }
  Result<ScalarExprPtr> value = Bind(left ? *expr.args[1] : *expr.args[0], scope);
  if (!value) return value;
  if (!IsDateOrTimestamp(*(*value)->type())) {
    return std::unexpected(
        ErrorAt(expr, fmt::format("cannot add an INTERVAL to {}", SqlTypeName(*(*value)->type()))));
  }
  return AddInterval(*std::move(value), *interval, TextOf(expr));
}

}  // namespace floe::sql::scalar

namespace floe::sql {

std::optional<int64_t> DayTimeIntervalMicros(const Expr& expr) {
  if (expr.kind != ExprKind::kLiteral || expr.literal != LiteralKind::kInterval) return std::nullopt;
  std::optional<scalar::Interval> interval = scalar::ParseInterval(expr.text, expr.interval_unit);
  if (!interval || interval->months != 0) return std::nullopt;
  return interval->micros;
}

}  // namespace floe::sql
