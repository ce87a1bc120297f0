#pragma once

// How a transaction retries a commit that lost a race: the `commit.retry.*` table properties
// (Iceberg's defaults: 4 retries, waits from 100 ms doubling up to 60 s, 30 minutes in total).

#include <chrono>
#include <cstdint>

#include "floe/spec/table_metadata.h"

namespace floe::table {

struct RetryPolicy {
  int num_retries = 4;
  int64_t min_wait_ms = 100;
  int64_t max_wait_ms = 60 * 1000;
  int64_t total_timeout_ms = 30 * 60 * 1000;

  // From the table's properties; unparsable or negative values keep the defaults.
  static RetryPolicy FromProperties(const TableMetadata& metadata);

  // The wait before retry number `retry` (1 for the first): min_wait doubled per retry, capped
  // at max_wait, with up to 10% random jitter so that racing writers spread out.
  std::chrono::milliseconds Backoff(int retry) const;
};

}  // namespace floe::table
