#include "floe/io/prefix_file_io.h"

#include "floe/io/resolving_file_io.h"

namespace floe::io {

PrefixFileIO::PrefixFileIO(Properties base_properties)
    : base_properties_(std::move(base_properties)), base_(MakeFileIO(base_properties_)) {}

void PrefixFileIO::Configure(const std::string& prefix, const Properties& overrides) {
  bool concerns_storage = false;
  for (const auto& [key, value] : overrides) concerns_storage |= IsStorageProperty(key);
  if (!concerns_storage || prefix.empty()) return;
  Properties merged = base_properties_;
  for (const auto& [key, value] : overrides) merged[key] = value;
  auto io = MakeFileIO(merged);
  std::lock_guard lock(mu_);
  by_prefix_[prefix] = std::move(io);
}

Result<RoutingFileIO::Target> PrefixFileIO::Route(std::string_view location) {
  std::lock_guard lock(mu_);
  // The longest configured prefix of location: the last key not after it that it starts with.
  auto it = by_prefix_.upper_bound(location);
  while (it != by_prefix_.begin()) {
    --it;
    if (location.starts_with(it->first)) return Target{it->second, std::string(location)};
  }
  return Target{base_, std::string(location)};
}

}  // namespace floe::io
