#pragma once

// Counters and gauges a job's operators report (as Flink's metric groups do for its Iceberg sink:
// records and files committed, last commit duration, ...). Names are "<operator>.<subtask>.<name>",
// or "<operator>.<name>" for one-per-operator values. Thread-safe.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace floe::stream {

// Per-subtask counters that a job's progress is told by (the SQL client's progress line): data
// files a source has opened, and files a sink has started writing.
inline constexpr std::string_view kFilesReadMetric = "filesRead";
inline constexpr std::string_view kFilesWrittenMetric = "filesWritten";

class MetricGroup {
 public:
  void Add(std::string_view name, int64_t delta);
  void Set(std::string_view name, int64_t value);
  // 0 for a name never reported.
  int64_t Get(std::string_view name) const;
  // The total of every value whose name ends with "." + `suffix` (e.g. over all subtasks).
  int64_t Sum(std::string_view suffix) const;
  std::map<std::string, int64_t, std::less<>> Snapshot() const;
  void Clear();

 private:
  mutable std::mutex mutex_;
  std::map<std::string, int64_t, std::less<>> values_;
};

}  // namespace floe::stream
