#include "floe/table/update/fast_append.h"

namespace floe::table {

FastAppend& FastAppend::AppendFile(manifest::DataFile file) {
  files_.push_back(std::move(file));
  return *this;
}

Result<std::vector<manifest::ManifestFile>> FastAppend::Manifests(const TableMetadata& base,
                                                                  const Snapshot* parent,
                                                                  SnapshotSummaryBuilder& summary) {
  std::vector<manifest::ManifestEntry> entries;
  for (const manifest::DataFile& file : files_) {
    FLOE_RETURN_IF_ERROR(CheckAddedFile(base, file, /*deletes_allowed=*/false));
    summary.AddedFile(file);
    entries.push_back(manifest::ManifestEntry{.data_file = file});
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> manifests,
                        WriteAddedManifests(base, entries));
  if (parent) {
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> existing, ReadManifests(*parent));
    for (auto& manifest : existing) manifests.push_back(std::move(manifest));
  }
  return manifests;
}

}  // namespace floe::table
