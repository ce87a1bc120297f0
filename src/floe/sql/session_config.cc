#include "floe/sql/session_config.h"

#include <charconv>

#include "floe/stream/iceberg/source_options.h"
#include "floe/util/strings.h"

namespace floe::sql {
namespace {

Result<int64_t> ParseInt(std::string_view key, const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("option '{}': expected an integer, got '{}'", key, text);
  }
  return value;
}

Result<bool> ParseBool(std::string_view key, const std::string& text) {
  if (EqualsIgnoreCase(text, "true")) return true;
  if (EqualsIgnoreCase(text, "false")) return false;
  return InvalidArgument("option '{}': expected true or false, got '{}'", key, text);
}

}  // namespace

SessionConfig::SessionConfig() {
  defaults_.emplace(option::kRuntimeMode, "streaming");
  defaults_.emplace(option::kParallelism, "1");
  defaults_.emplace(option::kResultMode, "tableau");
  defaults_.emplace(option::kDynamicOptions, "true");
  defaults_.emplace(option::kMaxTableWidth, "30");
}

std::optional<std::string> SessionConfig::Get(std::string_view key) const {
  if (auto it = values_.find(key); it != values_.end()) return it->second;
  if (auto it = defaults_.find(key); it != defaults_.end()) return it->second;
  return std::nullopt;
}

void SessionConfig::Set(std::string key, std::string value) {
  values_.insert_or_assign(std::move(key), std::move(value));
}

void SessionConfig::Reset(std::string_view key) {
  if (auto it = values_.find(key); it != values_.end()) values_.erase(it);
}

void SessionConfig::ResetAll() { values_.clear(); }

std::map<std::string, std::string, std::less<>> SessionConfig::All() const {
  auto all = defaults_;
  for (const auto& [key, value] : values_) all.insert_or_assign(key, value);
  return all;
}

Result<stream::RuntimeMode> SessionConfig::runtime_mode() const {
  std::string value = *Get(option::kRuntimeMode);
  if (EqualsIgnoreCase(value, "streaming")) return stream::RuntimeMode::kStreaming;
  if (EqualsIgnoreCase(value, "batch")) return stream::RuntimeMode::kBatch;
  return InvalidArgument("option '{}': expected 'batch' or 'streaming', got '{}'",
                         option::kRuntimeMode, value);
}

Result<int> SessionConfig::parallelism() const {
  FLOE_ASSIGN_OR_RETURN(int64_t value, ParseInt(option::kParallelism, *Get(option::kParallelism)));
  if (value < 1 || value > 1024) {
    return InvalidArgument("option '{}': expected 1 to 1024, got {}", option::kParallelism, value);
  }
  return static_cast<int>(value);
}

Result<ResultMode> SessionConfig::result_mode() const {
  std::string value = *Get(option::kResultMode);
  if (EqualsIgnoreCase(value, "tableau")) return ResultMode::kTableau;
  if (EqualsIgnoreCase(value, "changelog")) return ResultMode::kChangelog;
  if (EqualsIgnoreCase(value, "jsonl")) return ResultMode::kJsonl;
  return InvalidArgument("option '{}': expected 'tableau', 'changelog' or 'jsonl', got '{}'",
                         option::kResultMode, value);
}

Result<bool> SessionConfig::dynamic_table_options_enabled() const {
  return ParseBool(option::kDynamicOptions, *Get(option::kDynamicOptions));
}

Result<int> SessionConfig::max_column_width() const {
  FLOE_ASSIGN_OR_RETURN(int64_t value,
                        ParseInt(option::kMaxTableWidth, *Get(option::kMaxTableWidth)));
  if (value < 1 || value > 1 << 20) {
    return InvalidArgument("option '{}': expected a positive width, got {}", option::kMaxTableWidth,
                           value);
  }
  return static_cast<int>(value);
}

namespace {

// A duration option: 0 when unset.
Result<int64_t> DurationOption(const SessionConfig& config, std::string_view key) {
  std::optional<std::string> text = config.Get(key);
  if (!text) return 0;
  auto ms = stream::ParseDurationMs(*text);
  if (!ms.has_value()) return InvalidArgument("option '{}': {}", key, ms.error().message());
  return *ms;
}

}  // namespace

Result<int64_t> SessionConfig::source_idle_timeout_ms() const {
  return DurationOption(*this, option::kSourceIdleTimeout);
}

Result<int64_t> SessionConfig::state_ttl_ms() const {
  return DurationOption(*this, option::kStateTtl);
}

Result<stream::ExecutionConfig> SessionConfig::JobConfig() const {
  stream::ExecutionConfig config;
  FLOE_ASSIGN_OR_RETURN(config.mode, runtime_mode());
  FLOE_ASSIGN_OR_RETURN(config.parallelism, parallelism());
  auto duration = [](std::string_view key, const std::string& text) -> Result<int64_t> {
    auto ms = stream::ParseDurationMs(text);
    if (!ms.has_value()) {
      return InvalidArgument("option '{}': {}", key, ms.error().message());
    }
    return *ms;
  };
  if (auto interval = Get(option::kCheckpointInterval)) {
    FLOE_ASSIGN_OR_RETURN(config.checkpoint_interval_ms,
                          duration(option::kCheckpointInterval, *interval));
  }
  if (auto dir = Get(option::kCheckpointDir)) {
    std::string_view path = *dir;
    if (path.starts_with("file://")) path.remove_prefix(7);
    config.checkpoint_dir = std::string(path);
  }
  if (auto retained = Get(option::kCheckpointsRetained)) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ParseInt(option::kCheckpointsRetained, *retained));
    if (n < 1) {
      return InvalidArgument("option '{}': expected at least 1, got {}",
                             option::kCheckpointsRetained, n);
    }
    config.checkpoints_retained = static_cast<int>(n);
  }
  if (auto attempts = Get(option::kRestartAttempts)) {
    FLOE_ASSIGN_OR_RETURN(int64_t n, ParseInt(option::kRestartAttempts, *attempts));
    config.restart.max_attempts = static_cast<int>(n);
  }
  if (auto delay = Get(option::kRestartDelay)) {
    FLOE_ASSIGN_OR_RETURN(config.restart.delay_ms, duration(option::kRestartDelay, *delay));
  }
  if (auto savepoint = Get(option::kSavepointPath)) config.restore_from = *savepoint;
  return config;
}

}  // namespace floe::sql
