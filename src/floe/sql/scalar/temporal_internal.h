#pragma once

// Date and time text as Flink's CAST and TO_DATE/TO_TIMESTAMP read it ("2024-01-02",
// "10:30:00.5", "2024-01-02 10:30:00.123456789", with 'T' accepted between date and time), and
// the pieces of dates and timestamps EXTRACT and the date functions need.

#include <cstdint>
#include <optional>
#include <string_view>

namespace floe::sql::scalar {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

// Days since 1970-01-01.
std::optional<int32_t> ParseDateText(std::string_view text);
// Since midnight, in units of 10^-digits seconds (6: micros, 9: nanos).
std::optional<int64_t> ParseTimeText(std::string_view text, int digits);
// Since the epoch in units of 10^-digits seconds; a date alone is its midnight.
std::optional<int64_t> ParseTimestampText(std::string_view text, int digits);

}  // namespace floe::sql::scalar
