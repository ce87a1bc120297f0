#include "floe/stream/iceberg/source_options.h"

#include <array>
#include <charconv>
#include <utility>

#include "floe/util/strings.h"

namespace floe::stream {
namespace {

constexpr std::array<std::pair<StartingStrategy, std::string_view>, 6> kStrategies = {{
    {StartingStrategy::kTableScanThenIncremental, "TABLE_SCAN_THEN_INCREMENTAL"},
    {StartingStrategy::kIncrementalFromLatestSnapshot, "INCREMENTAL_FROM_LATEST_SNAPSHOT"},
    {StartingStrategy::kIncrementalFromLatestSnapshotExclusive,
     "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE"},
    {StartingStrategy::kIncrementalFromEarliestSnapshot, "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"},
    {StartingStrategy::kIncrementalFromSnapshotId, "INCREMENTAL_FROM_SNAPSHOT_ID"},
    {StartingStrategy::kIncrementalFromSnapshotTimestamp, "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP"},
}};

Result<int64_t> ParseLong(std::string_view key, std::string_view text) {
  std::string_view trimmed = TrimWhitespace(text);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (trimmed.empty() || ec != std::errc() || end != trimmed.data() + trimmed.size()) {
    return InvalidArgument("read option {}: '{}' is not an integer", key, text);
  }
  return value;
}

Result<bool> ParseBool(std::string_view key, std::string_view text) {
  std::string lower = AsciiLower(TrimWhitespace(text));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return InvalidArgument("read option {} must be true or false, not '{}'", key, text);
}

const std::string* Find(const StringMap& options, std::string_view key) {
  auto it = options.find(key);
  return it == options.end() ? nullptr : &it->second;
}

Status LongOption(const StringMap& options, std::string_view key, std::optional<int64_t>& out) {
  if (const std::string* text = Find(options, key)) {
    FLOE_ASSIGN_OR_RETURN(out, ParseLong(key, *text));
  }
  return Ok();
}

Status Positive(std::string_view key, const std::optional<int64_t>& value) {
  if (value && *value <= 0) {
    return InvalidArgument("read option {} must be positive, not {}", key, *value);
  }
  return Ok();
}

}  // namespace

std::string_view StartingStrategyName(StartingStrategy strategy) {
  for (const auto& [value, name] : kStrategies) {
    if (value == strategy) return name;
  }
  return "UNKNOWN";
}

Result<StartingStrategy> ParseStartingStrategy(std::string_view name) {
  std::string upper(TrimWhitespace(name));
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  for (const auto& [value, known] : kStrategies) {
    if (known == upper) return value;
  }
  return InvalidArgument(
      "read option starting-strategy: unknown strategy '{}' (TABLE_SCAN_THEN_INCREMENTAL, "
      "INCREMENTAL_FROM_LATEST_SNAPSHOT, INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE, "
      "INCREMENTAL_FROM_EARLIEST_SNAPSHOT, INCREMENTAL_FROM_SNAPSHOT_ID, "
      "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP)",
      name);
}

Result<int64_t> ParseDurationMs(std::string_view text) {
  std::string_view trimmed = TrimWhitespace(text);
  size_t digits = 0;
  while (digits < trimmed.size() && trimmed[digits] >= '0' && trimmed[digits] <= '9') ++digits;
  if (digits == 0) return InvalidArgument("'{}' is not a duration (e.g. 10s, 1 min, 500 ms)", text);
  int64_t amount = 0;
  auto [end, ec] = std::from_chars(trimmed.data(), trimmed.data() + digits, amount);
  if (ec != std::errc()) return InvalidArgument("duration '{}' is out of range", text);
  std::string unit = AsciiLower(TrimWhitespace(trimmed.substr(digits)));
  struct Unit {
    std::string_view name;
    int64_t ms;
  };
  static constexpr std::array<Unit, 19> kUnits = {{
      {"", 1},           {"ms", 1},           {"milli", 1},
      {"millis", 1},     {"millisecond", 1},  {"milliseconds", 1},
      {"s", 1000},       {"sec", 1000},       {"secs", 1000},
      {"second", 1000},  {"seconds", 1000},   {"m", 60'000},
      {"min", 60'000},   {"minute", 60'000},  {"minutes", 60'000},
      {"h", 3'600'000},  {"hour", 3'600'000}, {"hours", 3'600'000},
      {"d", 86'400'000},
  }};
  int64_t factor = 0;
  for (const Unit& u : kUnits) {
    if (u.name == unit) factor = u.ms;
  }
  if (unit == "day" || unit == "days") factor = 86'400'000;
  if (factor == 0) return InvalidArgument("duration '{}' has an unknown unit '{}'", text, unit);
  if (amount > INT64_MAX / factor) return InvalidArgument("duration '{}' is out of range", text);
  return amount * factor;
}

Result<IcebergSourceOptions> IcebergSourceOptions::Parse(const StringMap& options) {
  IcebergSourceOptions o;
  FLOE_RETURN_IF_ERROR(LongOption(options, "snapshot-id", o.snapshot_id));
  FLOE_RETURN_IF_ERROR(LongOption(options, "as-of-timestamp", o.as_of_timestamp_ms));
  if (const std::string* v = Find(options, "branch")) o.branch = *v;
  if (const std::string* v = Find(options, "tag")) o.tag = *v;
  if (const std::string* v = Find(options, "streaming")) {
    FLOE_ASSIGN_OR_RETURN(o.streaming, ParseBool("streaming", *v));
  }
  if (const std::string* v = Find(options, "monitor-interval")) {
    auto ms = ParseDurationMs(*v);
    if (!ms) return InvalidArgument("read option monitor-interval: {}", ms.error().message());
    o.monitor_interval_ms = *ms;
  }
  if (const std::string* v = Find(options, "starting-strategy")) {
    FLOE_ASSIGN_OR_RETURN(o.starting_strategy, ParseStartingStrategy(*v));
  }
  FLOE_RETURN_IF_ERROR(LongOption(options, "start-snapshot-id", o.start_snapshot_id));
  if (const std::string* v = Find(options, "start-snapshot-exclusive")) {
    FLOE_ASSIGN_OR_RETURN(o.start_snapshot_exclusive, ParseBool("start-snapshot-exclusive", *v));
    if (o.start_snapshot_exclusive && !o.start_snapshot_id) {
      return InvalidArgument("read option start-snapshot-exclusive needs start-snapshot-id");
    }
  }
  FLOE_RETURN_IF_ERROR(
      LongOption(options, "start-snapshot-timestamp", o.start_snapshot_timestamp_ms));
  FLOE_RETURN_IF_ERROR(LongOption(options, "end-snapshot-id", o.end_snapshot_id));
  if (o.streaming && !Find(options, "starting-strategy")) {
    if (o.start_snapshot_id) o.starting_strategy = StartingStrategy::kIncrementalFromSnapshotId;
    if (o.start_snapshot_timestamp_ms) {
      o.starting_strategy = StartingStrategy::kIncrementalFromSnapshotTimestamp;
    }
  }
  FLOE_RETURN_IF_ERROR(LongOption(options, "split-size", o.split_size));
  FLOE_RETURN_IF_ERROR(LongOption(options, "split-lookback", o.split_lookback));
  FLOE_RETURN_IF_ERROR(LongOption(options, "split-file-open-cost", o.split_file_open_cost));
  FLOE_RETURN_IF_ERROR(LongOption(options, "limit", o.limit));
  if (const std::string* v = Find(options, "case-sensitive")) {
    FLOE_ASSIGN_OR_RETURN(o.case_sensitive, ParseBool("case-sensitive", *v));
  }
  FLOE_RETURN_IF_ERROR(o.Validate());
  return o;
}

Status IcebergSourceOptions::Validate() const {
  FLOE_RETURN_IF_ERROR(Positive("monitor-interval", monitor_interval_ms));
  FLOE_RETURN_IF_ERROR(Positive("split-size", split_size));
  FLOE_RETURN_IF_ERROR(Positive("split-lookback", split_lookback));
  FLOE_RETURN_IF_ERROR(Positive("split-file-open-cost", split_file_open_cost));
  FLOE_RETURN_IF_ERROR(Positive("limit", limit));
  int selectors = int{snapshot_id.has_value()} + int{as_of_timestamp_ms.has_value()} +
                  int{branch.has_value()} + int{tag.has_value()};
  if (selectors > 1) {
    return InvalidArgument(
        "read options snapshot-id, as-of-timestamp, branch and tag select a snapshot: set at most "
        "one of them");
  }
  if (start_snapshot_id && start_snapshot_timestamp_ms) {
    return InvalidArgument(
        "read options start-snapshot-id and start-snapshot-timestamp cannot both be set");
  }
  if (!streaming) {
    if (start_snapshot_timestamp_ms) {
      return InvalidArgument("read option start-snapshot-timestamp needs streaming=true");
    }
    if (start_snapshot_id && selectors > 0) {
      return InvalidArgument(
          "read option start-snapshot-id (an incremental read) cannot be combined with "
          "snapshot-id, as-of-timestamp, branch or tag");
    }
    if (end_snapshot_id && !start_snapshot_id) {
      return InvalidArgument("read option end-snapshot-id needs start-snapshot-id in batch mode");
    }
    return Ok();
  }
  if (snapshot_id) return InvalidArgument("cannot set snapshot-id option for a streaming read");
  if (as_of_timestamp_ms) {
    return InvalidArgument("cannot set as-of-timestamp option for a streaming read");
  }
  if (tag)
    return InvalidArgument("cannot read tag '{}' in a streaming read (a tag never moves)", *tag);
  switch (starting_strategy) {
    case StartingStrategy::kIncrementalFromSnapshotId:
      if (!start_snapshot_id) {
        return InvalidArgument(
            "starting-strategy INCREMENTAL_FROM_SNAPSHOT_ID needs start-snapshot-id");
      }
      break;
    case StartingStrategy::kIncrementalFromSnapshotTimestamp:
      if (!start_snapshot_timestamp_ms) {
        return InvalidArgument(
            "starting-strategy INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP needs start-snapshot-timestamp");
      }
      break;
    default:
      if (start_snapshot_id || start_snapshot_timestamp_ms) {
        return InvalidArgument("read option {} needs starting-strategy {}, not {}",
                               start_snapshot_id ? "start-snapshot-id" : "start-snapshot-timestamp",
                               start_snapshot_id ? "INCREMENTAL_FROM_SNAPSHOT_ID"
                                                 : "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP",
                               StartingStrategyName(starting_strategy));
      }
  }
  return Ok();
}

StringMap IcebergSourceOptions::ScanOptions() const {
  StringMap out;
  if (split_size) out["split-size"] = std::to_string(*split_size);
  if (split_lookback) out["split-lookback"] = std::to_string(*split_lookback);
  if (split_file_open_cost) out["split-file-open-cost"] = std::to_string(*split_file_open_cost);
  out["case-sensitive"] = case_sensitive ? "true" : "false";
  return out;
}

}  // namespace floe::stream
