#include "floe/table/update/reachable_files.h"

#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"

namespace floe::table {

Result<std::vector<manifest::ManifestFile>> SnapshotManifests(io::FileIO& io,
                                                              const Snapshot& snapshot) {
  if (snapshot.manifest_list.empty()) {
    std::vector<manifest::ManifestFile> out;
    for (const std::string& path : snapshot.manifests) {
      out.push_back(manifest::ManifestFile{.manifest_path = path});
    }
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(snapshot.manifest_list));
  return manifest::ReadManifestList(*input);
}

Result<std::vector<manifest::ManifestEntry>> ManifestEntries(
    io::FileIO& io, const manifest::ManifestFile& manifest) {
  FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(manifest.manifest_path));
  FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input, &manifest));
  return reader->ReadAll();
}

Result<ReachableFiles> CollectReachableFiles(io::FileIO& io, const TableMetadata& metadata) {
  ReachableFiles files;
  for (const SnapshotPtr& snapshot : metadata.snapshots()) {
    if (!snapshot->manifest_list.empty()) files.manifest_lists.insert(snapshot->manifest_list);
    FLOE_ASSIGN_OR_RETURN(auto manifests, SnapshotManifests(io, *snapshot));
    for (const manifest::ManifestFile& manifest : manifests) {
      if (!files.manifests.insert(manifest.manifest_path).second) continue;
      FLOE_ASSIGN_OR_RETURN(auto entries, ManifestEntries(io, manifest));
      for (const manifest::ManifestEntry& entry : entries) {
        if (entry.status != manifest::EntryStatus::kDeleted) {
          files.content_files.insert(entry.data_file.file_path);
        }
      }
    }
  }
  for (const StatisticsFile& file : metadata.statistics()) files.statistics_files.insert(file.path);
  for (const PartitionStatisticsFile& file : metadata.partition_statistics()) {
    files.statistics_files.insert(file.path);
  }
  return files;
}

}  // namespace floe::table
