#include "floe/catalog/purge.h"

#include <set>
#include <string>

#include "floe/io/file_io.h"
#include "floe/manifest/data_file.h"
#include "floe/manifest/manifest_reader.h"

namespace floe::catalog {
namespace {

Result<std::vector<manifest::ManifestFile>> Manifests(io::FileIO& io, const Snapshot& snapshot) {
  std::vector<manifest::ManifestFile> manifests;
  if (snapshot.manifest_list.empty()) {
    for (const std::string& path : snapshot.manifests) {
      manifest::ManifestFile file;
      file.manifest_path = path;
      manifests.push_back(std::move(file));
    }
    return manifests;
  }
  FLOE_ASSIGN_OR_RETURN(auto list, io.NewInputFile(snapshot.manifest_list));
  return manifest::ReadManifestList(*list);
}

}  // namespace

Status DeleteTableFiles(io::FileIO& io, const TableMetadata& metadata) {
  // Manifests are shared between snapshots: read each once, delete after reading all.
  std::set<std::string> manifests;
  std::set<std::string> files;
  for (const SnapshotPtr& snapshot : metadata.snapshots()) {
    FLOE_ASSIGN_OR_RETURN(auto list, Manifests(io, *snapshot));
    if (!snapshot->manifest_list.empty()) files.insert(snapshot->manifest_list);
    for (const manifest::ManifestFile& manifest : list) {
      if (!manifests.insert(manifest.manifest_path).second) continue;
      auto input = io.NewInputFile(manifest.manifest_path);
      if (!input && input.error().kind() == ErrorKind::kNotFound) continue;
      if (!input) return std::unexpected(input.error());
      FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(**input, &manifest));
      manifest::ManifestEntry entry;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(entry));
        if (!more) break;
        files.insert(entry.data_file.file_path);
      }
    }
  }
  files.insert(manifests.begin(), manifests.end());
  for (const StatisticsFile& stats : metadata.statistics()) files.insert(stats.path);
  for (const PartitionStatisticsFile& stats : metadata.partition_statistics()) {
    files.insert(stats.path);
  }
  for (const MetadataLogEntry& entry : metadata.metadata_log()) files.insert(entry.metadata_file);
  for (const std::string& file : files) (void)io.Delete(file);
  return {};
}

}  // namespace floe::catalog
