#include "floe/io/mapped_file_io.h"

#include <mutex>
#include <utility>
#include <vector>

#include "floe/io/location.h"

namespace floe::io {
namespace {

class MappedFileIO final : public FileIO {
 public:
  MappedFileIO(std::shared_ptr<FileIO> base, LocationMap map)
      : base_(std::move(base)), map_(std::move(map)) {}

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view location) override {
    return base_->NewInputFile(map_(location));
  }
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view location) override {
    return base_->NewOutputFile(map_(location));
  }
  Result<FileEntry> GetInfo(std::string_view location) override {
    return base_->GetInfo(map_(location));
  }
  Status Delete(std::string_view location) override { return base_->Delete(map_(location)); }
  Result<std::vector<FileEntry>> List(std::string_view folder) override {
    return base_->List(map_(folder));
  }
  Status CreateDirectories(std::string_view folder) override {
    return base_->CreateDirectories(map_(folder));
  }
  Status Rename(std::string_view from, std::string_view to) override {
    return base_->Rename(map_(from), map_(to));
  }
  Status RenameNoReplace(std::string_view from, std::string_view to) override {
    return base_->RenameNoReplace(map_(from), map_(to));
  }
  Status SyncDirectory(std::string_view folder) override {
    return base_->SyncDirectory(map_(folder));
  }
  Result<std::unique_ptr<InputFile>> NewInputFileOfSize(std::string_view location,
                                                        int64_t size) override {
    return base_->NewInputFileOfSize(map_(location), size);
  }
  Result<bool> SupportsExclusiveCreate(std::string_view folder) override {
    return base_->SupportsExclusiveCreate(map_(folder));
  }
  Status DeleteRecursive(std::string_view location) override {
    return base_->DeleteRecursive(map_(location));
  }

 protected:
  Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes, bool overwrite,
                        bool durable) override {
    std::string mapped = map_(location);
    if (durable) return base_->WriteFileAtomically(mapped, bytes, overwrite);
    return base_->ReplaceFileUnsynced(
        mapped, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

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
