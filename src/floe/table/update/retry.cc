#include "floe/table/update/retry.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "floe/util/uuid.h"

namespace floe::table {
namespace {

template <typename T>
void ReadProperty(const TableMetadata& metadata, std::string_view key, T& out) {
  std::string_view text = metadata.property(key);
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && value >= 0) {
    out = value;
  }
}

}  // namespace

RetryPolicy RetryPolicy::FromProperties(const TableMetadata& metadata) {
  RetryPolicy policy;
  ReadProperty(metadata, "commit.retry.num-retries", policy.num_retries);
  ReadProperty(metadata, "commit.retry.min-wait-ms", policy.min_wait_ms);
  ReadProperty(metadata, "commit.retry.max-wait-ms", policy.max_wait_ms);
  ReadProperty(metadata, "commit.retry.total-timeout-ms", policy.total_timeout_ms);
  return policy;
}

std::chrono::milliseconds RetryPolicy::Backoff(int retry) const {
  int64_t wait = min_wait_ms;
  for (int i = 1; i < retry && wait < max_wait_ms; ++i) wait *= 2;
  wait = std::min(wait, max_wait_ms);
  int64_t jitter = wait / 10 > 0 ? static_cast<int64_t>(RandomU64() % (wait / 10 + 1)) : 0;
  return std::chrono::milliseconds(wait + jitter);
}

}  // namespace floe::table
