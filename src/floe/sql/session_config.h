#pragma once

// The options of a SQL session: what SET and RESET change, and what the hints of one statement
// override. Keys are Flink's (`execution.runtime-mode`, `parallelism.default`,
// `execution.checkpointing.interval`, `sql-client.execution.result-mode`,
// `table.dynamic-table-options.enabled`...); any other key is kept as written, so job options
// (and options floe does not know yet) pass through. Typed getters parse on read and name the key
// and the bad value in their error.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/stream/data_stream.h"
#include "floe/util/error.h"

namespace floe::sql {

enum class ResultMode { kTableau, kChangelog, kJsonl };

namespace option {
inline constexpr std::string_view kRuntimeMode = "execution.runtime-mode";
inline constexpr std::string_view kParallelism = "parallelism.default";
inline constexpr std::string_view kCheckpointInterval = "execution.checkpointing.interval";
inline constexpr std::string_view kCheckpointDir = "state.checkpoints.dir";
inline constexpr std::string_view kCheckpointsRetained = "state.checkpoints.num-retained";
inline constexpr std::string_view kRestartAttempts = "restart-strategy.fixed-delay.attempts";
inline constexpr std::string_view kRestartDelay = "restart-strategy.fixed-delay.delay";
inline constexpr std::string_view kSavepointPath = "execution.savepoint.path";
inline constexpr std::string_view kResultMode = "sql-client.execution.result-mode";
inline constexpr std::string_view kMaxTableWidth = "sql-client.display.max-column-width";
inline constexpr std::string_view kDynamicOptions = "table.dynamic-table-options.enabled";
inline constexpr std::string_view kPipelineName = "pipeline.name";
inline constexpr std::string_view kSourceIdleTimeout = "table.exec.source.idle-timeout";
inline constexpr std::string_view kStateTtl = "table.exec.state.ttl";
}  // namespace option

class SessionConfig {
 public:
  SessionConfig();

  // The value set, else the default of a known key, else nullopt.
  std::optional<std::string> Get(std::string_view key) const;
  void Set(std::string key, std::string value);
  // RESET 'key' restores the default; RESET with no key restores every default.
  void Reset(std::string_view key);
  void ResetAll();
  // Every key with a value, defaults included, sorted: what a bare SET prints.
  std::map<std::string, std::string, std::less<>> All() const;

  Result<stream::RuntimeMode> runtime_mode() const;
  Result<int> parallelism() const;
  Result<ResultMode> result_mode() const;
  Result<bool> dynamic_table_options_enabled() const;
  Result<int> max_column_width() const;
  // table.exec.source.idle-timeout: after how long without rows a source's watermark stops
  // holding the job back; 0 (the default) never.
  Result<int64_t> source_idle_timeout_ms() const;
  // table.exec.state.ttl: how long a streaming Top-N or deduplication keeps a key no row has
  // reached (processing time); 0 (the default) forever.
  Result<int64_t> state_ttl_ms() const;
  // The runtime's configuration for a job named `job_name` from these options: mode,
  // parallelism, checkpoint interval ("10s", "1 min", "500 ms" or milliseconds), folder,
  // retained checkpoints, restarts, and a savepoint to start from.
  Result<stream::ExecutionConfig> JobConfig() const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, std::string, std::less<>> defaults_;
};

}  // namespace floe::sql
