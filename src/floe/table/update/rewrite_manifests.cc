#include "floe/table/update/rewrite_manifests.h"

#include <algorithm>
#include <map>

#include "floe/manifest/data_file.h"
#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

RewriteManifests& RewriteManifests::SpecId(int32_t spec_id) {
  spec_id_ = spec_id;
  return *this;
}

Result<std::vector<manifest::ManifestFile>> RewriteManifests::Manifests(const TableMetadata& base,
                                                                        const Snapshot* parent,
                                                                        SnapshotSummaryBuilder&) {
  if (parent == nullptr) {
    return InvalidArgument("rewrite manifests: branch '{}' has no snapshot", branch());
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> manifests, ReadManifests(*parent));
  std::vector<manifest::ManifestFile> out;
  // The entries to rewrite by spec, and the bytes of the manifests they came from: a new
  // manifest holds about as many entries as target-size bytes of the old ones did.
  struct Group {
    std::vector<manifest::ManifestEntry> entries;
    int64_t bytes = 0;
  };
  std::map<int32_t, Group> groups;
  int64_t entries_processed = 0;
  rewritten_ = 0;
  for (manifest::ManifestFile& manifest : manifests) {
    if (manifest.content != manifest::ManifestContent::kData ||
        (spec_id_ && manifest.partition_spec_id != *spec_id_)) {
      out.push_back(std::move(manifest));
      continue;
    }
    if (!base.SpecById(manifest.partition_spec_id)) {
      return CorruptData("{}: partition spec {} is not in the table", manifest.manifest_path,
                         manifest.partition_spec_id);
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> entries, ReadEntries(manifest));
    Group& group = groups[manifest.partition_spec_id];
    group.bytes += manifest.manifest_length;
    for (manifest::ManifestEntry& entry : entries) {
      if (entry.status == manifest::EntryStatus::kDeleted) continue;
      entry.status = manifest::EntryStatus::kExisting;
      group.entries.push_back(std::move(entry));
      ++entries_processed;
    }
    ++rewritten_;
  }
  const int kept = static_cast<int>(out.size());
  const int64_t target = ManifestTargetSizeBytes(base);
  std::vector<manifest::ManifestFile> written;
  for (auto& [spec_id, group] : groups) {
    std::vector<manifest::ManifestEntry>& entries = group.entries;
    // Clustered by partition, then by path, so that each manifest covers few partitions.
    std::vector<std::pair<std::string, size_t>> order;
    order.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      order.emplace_back(manifest::PartitionKey(spec_id, entries[i].data_file.partition), i);
    }
    std::ranges::sort(order, [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      return entries[a.second].data_file.file_path < entries[b.second].data_file.file_path;
    });
    const int64_t per_entry =
        std::max<int64_t>(1, group.bytes / std::max<int64_t>(1, std::ssize(entries)));
    const size_t per_manifest = static_cast<size_t>(std::max<int64_t>(1, target / per_entry));
    for (size_t start = 0; start < order.size(); start += per_manifest) {
      std::vector<manifest::ManifestEntry> chunk;
      for (size_t i = start; i < std::min(order.size(), start + per_manifest); ++i) {
        chunk.push_back(std::move(entries[order[i].second]));
      }
      FLOE_ASSIGN_OR_RETURN(manifest::ManifestFile manifest,
                            WriteManifest(base, spec_id, manifest::ManifestContent::kData, chunk));
      written.push_back(std::move(manifest));
    }
  }
  added_ = static_cast<int>(written.size());
  SetSummaryProperty("manifests-created", std::to_string(added_));
  SetSummaryProperty("manifests-kept", std::to_string(kept));
  SetSummaryProperty("manifests-replaced", std::to_string(rewritten_));
  SetSummaryProperty("entries-processed", std::to_string(entries_processed));
  // The new data manifests first, as an append lists its new ones.
  written.insert(written.end(), std::make_move_iterator(out.begin()),
                 std::make_move_iterator(out.end()));
  return written;
}

}  // namespace floe::table
