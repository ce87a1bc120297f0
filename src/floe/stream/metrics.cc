#include "floe/stream/metrics.h"

namespace floe::stream {

void MetricGroup::Add(std::string_view name, int64_t delta) {
  std::lock_guard lock(mutex_);
  auto it = values_.find(name);
  if (it == values_.end()) {
    values_.emplace(std::string(name), delta);
  } else {
    it->second += delta;
  }
}

void MetricGroup::Set(std::string_view name, int64_t value) {
  std::lock_guard lock(mutex_);
  auto it = values_.find(name);
  if (it == values_.end()) {
    values_.emplace(std::string(name), value);
  } else {
    it->second = value;
  }
}

int64_t MetricGroup::Get(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = values_.find(name);
  return it == values_.end() ? 0 : it->second;
}

int64_t MetricGroup::Sum(std::string_view suffix) const {
  std::lock_guard lock(mutex_);
  int64_t total = 0;
  for (const auto& [name, value] : values_) {
    if (name.size() > suffix.size() && name.ends_with(suffix) &&
        name[name.size() - suffix.size() - 1] == '.') {
      total += value;
    }
  }
  return total;
}

void MetricGroup::Clear() {
  std::lock_guard lock(mutex_);
  values_.clear();
}

std::map<std::string, int64_t, std::less<>> MetricGroup::Snapshot() const {
  std::lock_guard lock(mutex_);
  return values_;
}

}  // namespace floe::stream
