#include "floe/sql/scalar/temporal_internal.h"
#include "floe/util/calendar.h"

namespace floe::sql::scalar {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Reads 1..max_digits digits at *pos.
std::optional<int64_t> ReadNumber(std::string_view text, size_t* pos, int max_digits) {
  int64_t value = 0;
  int count = 0;
  while (*pos < text.size() && count < max_digits && text[*pos] >= '0' && text[*pos] <= '9') {
    value = value * 10 + (text[*pos] - '0');
    ++*pos;
    ++count;
  }
  if (count == 0) return std::nullopt;
  return value;
}

bool Expect(std::string_view text, size_t* pos, char c) {
  if (*pos < text.size() && text[*pos] == c) {
    ++*pos;
    return true;
  }
  return false;
}

std::optional<int64_t> ReadDate(std::string_view text, size_t* pos) {
  std::optional<int64_t> year = ReadNumber(text, pos, 4);
  if (!year || !Expect(text, pos, '-')) return std::nullopt;
  std::optional<int64_t> month = ReadNumber(text, pos, 2);
  if (!month || !Expect(text, pos, '-')) return std::nullopt;
  std::optional<int64_t> day = ReadNumber(text, pos, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 ||
      *day > DaysInMonth(*year, static_cast<int>(*month))) {
    return std::nullopt;
  }
  return DaysFromCivil(*year, static_cast<int>(*month), static_cast<int>(*day));
}

std::optional<int64_t> ReadTime(std::string_view text, size_t* pos, int digits) {
  std::optional<int64_t> hour = ReadNumber(text, pos, 2);
  if (!hour || !Expect(text, pos, ':')) return std::nullopt;
  std::optional<int64_t> minute = ReadNumber(text, pos, 2);
  if (!minute) return std::nullopt;
  int64_t second = 0;
  int64_t fraction = 0;
  if (Expect(text, pos, ':')) {
    std::optional<int64_t> s = ReadNumber(text, pos, 2);
    if (!s) return std::nullopt;
    second = *s;
    if (Expect(text, pos, '.')) {
      int count = 0;
      while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') {
        if (count < digits) fraction = fraction * 10 + (text[*pos] - '0');
        ++count;
        ++*pos;
      }
      if (count == 0) return std::nullopt;
      for (int i = count; i < digits; ++i) fraction *= 10;
    }
  }
  if (*hour > 23 || *minute > 59 || second > 59) return std::nullopt;
  int64_t unit = 1;
  for (int i = 0; i < digits; ++i) unit *= 10;
  return ((*hour * 60 + *minute) * 60 + second) * unit + fraction;
}

}  // namespace

std::optional<int32_t> ParseDateText(std::string_view text) {
  text = Trim(text);
  size_t pos = 0;
  std::optional<int64_t> days = ReadDate(text, &pos);
  if (!days || pos != text.size()) return std::nullopt;
  return static_cast<int32_t>(*days);
}

std::optional<int64_t> ParseTimeText(std::string_view text, int digits) {
  text = Trim(text);
  size_t pos = 0;
  std::optional<int64_t> time = ReadTime(text, &pos, digits);
  if (!time || pos != text.size()) return std::nullopt;
  return time;
}

std::optional<int64_t> ParseTimestampText(std::string_view text, int digits) {
  text = Trim(text);
  size_t pos = 0;
  std::optional<int64_t> days = ReadDate(text, &pos);
  if (!days) return std::nullopt;
  int64_t unit = 1;
  for (int i = 0; i < digits; ++i) unit *= 10;
  int64_t time = 0;
  if (pos < text.size()) {
    if (text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
    ++pos;
    std::optional<int64_t> t = ReadTime(text, &pos, digits);
    if (!t) return std::nullopt;
    time = *t;
  }
  if (pos != text.size()) return std::nullopt;
  return *days * 86'400 * unit + time;
}

}  // namespace floe::sql::scalar
