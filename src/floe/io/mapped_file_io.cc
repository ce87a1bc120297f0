#include "floe/io/mapped_file_io.h"

#include <mutex>
#include <utility>
#include <vector>

#include "floe/io/location.h"
#include "floe/io/routing_file_io.h"

namespace floe::io {
namespace {

class MappedFileIO final : public RoutingFileIO {
 public:
  MappedFileIO(std::shared_ptr<FileIO> base, LocationMap map)
      : base_(std::move(base)), map_(std::move(map)) {}

 protected:
  Result<Target> Route(std::string_view location) override { return Target{base_, map_(location)}; }

 private:
  std::shared_ptr<FileIO> base_;
  LocationMap map_;
};

std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty() && part != ".") parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

// location under `warehouse` when its leading components repeat the warehouse's last ones; the
// longest such repeat wins. Empty when it does not fit.
std::string UnderWarehouse(std::string_view location, const std::vector<std::string_view>& tail,
                           const std::string& warehouse) {
  std::vector<std::string_view> parts = Components(location);
  for (size_t k = std::min(tail.size(), parts.size()); k > 0; --k) {
    bool repeats = true;
    for (size_t i = 0; i < k && repeats; ++i) repeats = parts[i] == tail[tail.size() - k + i];
    if (!repeats) continue;
    std::string out = warehouse;
    for (size_t i = k; i < parts.size(); ++i) out = JoinLocation(out, parts[i]);
    return out;
  }
  return {};
}

}  // namespace

std::shared_ptr<FileIO> MapFileLocations(std::shared_ptr<FileIO> base, LocationMap map) {
  return std::make_shared<MappedFileIO>(std::move(base), std::move(map));
}

std::shared_ptr<FileIO> ResolveRelativeToWarehouse(
    std::shared_ptr<FileIO> base, std::string warehouse,
    std::function<void(std::string_view relative, std::string_view resolved)> on_first_use) {
  auto once = std::make_shared<std::once_flag>();
  auto owned = std::make_shared<const std::string>(NormalizeLocation(warehouse));
  auto tail = std::make_shared<const std::vector<std::string_view>>(Components(*owned));
  return MapFileLocations(
      std::move(base),
      [once, owned, tail, on_first_use = std::move(on_first_use)](std::string_view location) {
        if (location.empty() || location.front() == '/' || !LocationScheme(location).empty()) {
          return std::string(location);
        }
        std::string resolved = UnderWarehouse(location, *tail, *owned);
        if (resolved.empty()) return std::string(location);
        if (on_first_use) std::call_once(*once, [&] { on_first_use(location, resolved); });
        return resolved;
      });
}

}  // namespace floe::io
