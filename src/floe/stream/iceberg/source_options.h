#pragma once

// The read options of IcebergSource, named as the Flink connector names them, parsed from strings
// (Set/SetAll of the builder, SQL hints) and checked together.
//
//   snapshot-id, as-of-timestamp (ms), branch, tag   batch: which snapshot to read
//   streaming                                        "true": keep reading new snapshots
//   monitor-interval                                 how often to look for them: "10s", "1 min",
//                                                    "500 ms", a plain number is ms; default 10s
//   starting-strategy                                where a streaming read starts (below)
//   start-snapshot-id, start-snapshot-timestamp     the strategy's snapshot; in batch mode
//                                                    start-snapshot-id makes an incremental read
//                                                    (exclusive) up to end-snapshot-id or current
//   start-snapshot-exclusive                         "true": a streaming read from
//                                                    start-snapshot-id leaves that snapshot out,
//                                                    as the connector's legacy source does (floe)
//   end-snapshot-id                                  the last snapshot read (inclusive); a
//                                                    streaming read with one ends there (floe:
//                                                    the connector refuses it in streaming mode)
//   split-size, split-lookback, split-file-open-cost split planning (table properties otherwise)
//   limit                                            at most this many rows per job
//   case-sensitive                                   column names in filters and projections
//
// Starting strategies (streaming), as the connector's FLIP-27 enumerator treats them:
//   TABLE_SCAN_THEN_INCREMENTAL (default)   the current snapshot read whole, then its successors
//   INCREMENTAL_FROM_LATEST_SNAPSHOT        the current snapshot's changes and its successors
//   INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE  only snapshots after the current one
//   INCREMENTAL_FROM_EARLIEST_SNAPSHOT      every snapshot from the oldest ancestor of the current
//   INCREMENTAL_FROM_SNAPSHOT_ID            from start-snapshot-id (inclusive)
//   INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP     from the oldest ancestor committed at or after
//                                           start-snapshot-timestamp (inclusive)
// Without starting-strategy, a streaming read given start-snapshot-id (or -timestamp) uses the
// matching INCREMENTAL_FROM_SNAPSHOT_ID (or _TIMESTAMP) strategy.
//
// What can go wrong (kInvalidArgument, naming the option): malformed numbers, booleans or
// durations, an unknown strategy, and combinations the connector refuses: a streaming read with
// snapshot-id, as-of-timestamp or tag; INCREMENTAL_FROM_SNAPSHOT_ID without start-snapshot-id (or
// with start-snapshot-timestamp), likewise for the timestamp strategy; start-snapshot-id or
// start-snapshot-timestamp with another strategy; more than one of snapshot-id, as-of-timestamp,
// branch, tag; both start options; non-positive sizes, limit or interval.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "floe/spec/snapshot.h"
#include "floe/util/error.h"

namespace floe::stream {

enum class StartingStrategy {
  kTableScanThenIncremental,
  kIncrementalFromLatestSnapshot,
  kIncrementalFromLatestSnapshotExclusive,
  kIncrementalFromEarliestSnapshot,
  kIncrementalFromSnapshotId,
  kIncrementalFromSnapshotTimestamp,
};

std::string_view StartingStrategyName(StartingStrategy strategy);
// The connector's names, any case.
Result<StartingStrategy> ParseStartingStrategy(std::string_view name);

// A duration as Flink writes them ("10s", "1 min", "250ms", "2 h", a bare number of ms), in ms.
Result<int64_t> ParseDurationMs(std::string_view text);

struct IcebergSourceOptions {
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> as_of_timestamp_ms;
  std::optional<std::string> branch;
  std::optional<std::string> tag;
  bool streaming = false;
  int64_t monitor_interval_ms = 10'000;
  StartingStrategy starting_strategy = StartingStrategy::kTableScanThenIncremental;
  std::optional<int64_t> start_snapshot_id;
  bool start_snapshot_exclusive = false;
  std::optional<int64_t> start_snapshot_timestamp_ms;
  std::optional<int64_t> end_snapshot_id;
  std::optional<int64_t> split_size;
  std::optional<int64_t> split_lookback;
  std::optional<int64_t> split_file_open_cost;
  std::optional<int64_t> limit;
  bool case_sensitive = true;

  // Parses the known keys (others are left to other layers: table properties, catalog options)
  // and validates the result.
  static Result<IcebergSourceOptions> Parse(const StringMap& options);
  // The combination rules above.
  Status Validate() const;
  // The options TableScan understands (split settings, case sensitivity), for the planner.
  StringMap ScanOptions() const;
};

}  // namespace floe::stream
