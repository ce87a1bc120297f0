#include "floe/table/scan/location_mapping.h"

#include <utility>

#include "floe/spec/table_metadata.h"

namespace floe::table {
namespace {

// "./t/" and "t" name the same place.
std::string_view TrimSlashes(std::string_view s) {
  while (s.starts_with("./")) s.remove_prefix(2);
  while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
  return s;
}

class MappedFileIO final : public io::FileIO {
 public:
  MappedFileIO(std::shared_ptr<io::FileIO> base, LocationMapping mapping)
      : base_(std::move(base)), mapping_(std::move(mapping)) {}

  Result<std::unique_ptr<io::InputFile>> NewInputFile(std::string_view location) override {
    return base_->NewInputFile(mapping_.Apply(location));
  }
  Result<std::unique_ptr<io::OutputFile>> NewOutputFile(std::string_view location) override {
    return base_->NewOutputFile(mapping_.Apply(location));
  }
  Result<io::FileEntry> GetInfo(std::string_view location) override {
    return base_->GetInfo(mapping_.Apply(location));
  }
  Status Delete(std::string_view location) override {
    return base_->Delete(mapping_.Apply(location));
  }
  Result<std::vector<io::FileEntry>> List(std::string_view folder) override {
    return base_->List(mapping_.Apply(folder));
  }
  Status CreateDirectories(std::string_view folder) override {
    return base_->CreateDirectories(mapping_.Apply(folder));
  }
  Status Rename(std::string_view from, std::string_view to) override {
    return base_->Rename(mapping_.Apply(from), mapping_.Apply(to));
  }
  Status RenameNoReplace(std::string_view from, std::string_view to) override {
    return base_->RenameNoReplace(mapping_.Apply(from), mapping_.Apply(to));
  }
  Status SyncDirectory(std::string_view folder) override {
    return base_->SyncDirectory(mapping_.Apply(folder));
  }
  Result<std::unique_ptr<io::InputFile>> NewInputFileOfSize(std::string_view location,
                                                            int64_t size) override {
    return base_->NewInputFileOfSize(mapping_.Apply(location), size);
  }
  Result<bool> SupportsExclusiveCreate(std::string_view folder) override {
    return base_->SupportsExclusiveCreate(mapping_.Apply(folder));
  }
  Status DeleteRecursive(std::string_view location) override {
    return base_->DeleteRecursive(mapping_.Apply(location));
  }

 protected:
  Status WriteWholeFile(std::string_view location, std::span<const std::byte> bytes, bool overwrite,
                        bool durable) override {
    std::string mapped = mapping_.Apply(location);
    if (durable) return base_->WriteFileAtomically(mapped, bytes, overwrite);
    return base_->ReplaceFileUnsynced(
        mapped, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

 private:
  std::shared_ptr<io::FileIO> base_;
  LocationMapping mapping_;
};

}  // namespace

LocationMapping LocationMapping::ForTable(const TableMetadata& metadata,
                                          std::string_view table_dir) {
  return LocationMapping{std::string(TrimSlashes(metadata.location())),
                         std::string(TrimSlashes(table_dir))};
}

std::string LocationMapping::Apply(std::string_view location) const {
  std::string_view prefix = TrimSlashes(from);
  while (location.starts_with("./")) location.remove_prefix(2);
  if (prefix.empty() || !location.starts_with(prefix)) return std::string(location);
  std::string_view rest = location.substr(prefix.size());
  if (!rest.empty() && rest.front() != '/' && prefix.back() != '/') return std::string(location);
  std::string out(TrimSlashes(to));
  out.append(rest);
  return out;
}

std::shared_ptr<io::FileIO> MapLocations(std::shared_ptr<io::FileIO> base,
                                         LocationMapping mapping) {
  if (mapping.empty()) return base;
  return std::make_shared<MappedFileIO>(std::move(base), std::move(mapping));
}

}  // namespace floe::table
