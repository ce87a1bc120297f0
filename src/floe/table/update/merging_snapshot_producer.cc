#include "floe/table/update/merging_snapshot_producer.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"

namespace floe::table {
namespace {

constexpr int64_t kDefaultTargetSize = 8 * 1024 * 1024;
constexpr int64_t kDefaultMinCountToMerge = 100;

int64_t LongProperty(const TableMetadata& base, std::string_view key, int64_t fallback) {
  std::string_view text = base.property(key);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return fallback;
  return value;
}

bool IsLive(const manifest::ManifestEntry& entry) {
  return entry.status != manifest::EntryStatus::kDeleted;
}

bool RemovalEmpty(const MergingSnapshotProducer::Removal& removal) {
  return removal.paths.empty() && !removal.row_filter && removal.partitions.empty();
}

Result<PartitionSpecPtr> SpecOf(const TableMetadata& base, int32_t spec_id, std::string_view what) {
  PartitionSpecPtr spec = base.SpecById(spec_id);
  if (!spec) return CorruptData("{}: partition spec {} is not in the table", what, spec_id);
  return spec;
}

}  // namespace

int64_t ManifestTargetSizeBytes(const TableMetadata& metadata) {
  return LongProperty(metadata, "commit.manifest.target-size-bytes", kDefaultTargetSize);
}

void MergingSnapshotProducer::AddFile(manifest::DataFile file,
                                      std::optional<int64_t> data_sequence_number) {
  manifest::ManifestEntry entry;
  entry.sequence_number = data_sequence_number;
  entry.data_file = std::move(file);
  added_.push_back(std::move(entry));
}

Result<std::vector<manifest::ManifestFile>> MergingSnapshotProducer::Manifests(
    const TableMetadata& base, const Snapshot* parent, SnapshotSummaryBuilder& summary) {
  FLOE_RETURN_IF_ERROR(Validate(base, parent));
  removed_.clear();
  for (const manifest::ManifestEntry& entry : added_) {
    FLOE_RETURN_IF_ERROR(CheckAddedFile(base, entry.data_file, /*deletes_allowed=*/true));
    summary.AddedFile(entry.data_file);
  }
  std::vector<manifest::ManifestFile> data_manifests, delete_manifests;
  if (parent) {
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> existing, ReadManifests(*parent));
    for (auto& manifest : existing) {
      (manifest.content == manifest::ManifestContent::kData ? data_manifests : delete_manifests)
          .push_back(std::move(manifest));
    }
  }
  std::set<std::string> found;
  FLOE_ASSIGN_OR_RETURN(data_manifests, Filter(base, std::move(data_manifests), data_removal_,
                                               /*deletes=*/false, found, summary));
  FLOE_ASSIGN_OR_RETURN(delete_manifests, Filter(base, std::move(delete_manifests), delete_removal_,
                                                 /*deletes=*/true, found, summary));
  for (const Removal* removal : {&data_removal_, &delete_removal_}) {
    if (!removal->fail_missing_paths) continue;
    for (const std::string& path : removal->paths) {
      if (!found.contains(path)) {
        return CommitFailed("cannot commit: file to remove is missing from the table: {}", path);
      }
    }
  }

  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> new_manifests,
                        WriteAddedManifests(base, added_));
  std::vector<manifest::ManifestFile> new_data, new_deletes;
  for (auto& manifest : new_manifests) {
    (manifest.content == manifest::ManifestContent::kData ? new_data : new_deletes)
        .push_back(std::move(manifest));
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> out,
                        Merge(base, std::move(new_data), std::move(data_manifests),
                              manifest::ManifestContent::kData));
  FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> deletes,
                        Merge(base, std::move(new_deletes), std::move(delete_manifests),
                              manifest::ManifestContent::kDeletes));
  for (auto& manifest : deletes) out.push_back(std::move(manifest));
  return out;
}

Result<std::vector<manifest::ManifestFile>> MergingSnapshotProducer::Filter(
    const TableMetadata& base, std::vector<manifest::ManifestFile> manifests,
    const Removal& removal, bool deletes, std::set<std::string>& found,
    SnapshotSummaryBuilder& summary) {
  if (RemovalEmpty(removal)) return manifests;
  std::optional<FileMatcher> matcher;
  if (removal.row_filter) matcher.emplace(removal.row_filter, base.current_schema());
  std::vector<manifest::ManifestFile> out;
  for (manifest::ManifestFile& manifest : manifests) {
    FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                          SpecOf(base, manifest.partition_spec_id, manifest.manifest_path));
    bool no_live_files = manifest.added_files_count.value_or(1) == 0 &&
                         manifest.existing_files_count.value_or(1) == 0;
    bool may_remove = !no_live_files && (!removal.paths.empty() || !removal.partitions.empty());
    if (!no_live_files && !may_remove && matcher) {
      FLOE_ASSIGN_OR_RETURN(may_remove, matcher->ManifestMightMatch(manifest, *spec));
    }
    if (!may_remove) {
      out.push_back(std::move(manifest));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> entries, ReadEntries(manifest));
    std::vector<manifest::ManifestEntry> rewritten;
    size_t removed_here = 0;
    for (manifest::ManifestEntry& entry : entries) {
      if (!IsLive(entry)) continue;
      const manifest::DataFile& file = entry.data_file;
      bool remove = removal.paths.contains(file.file_path) ||
                    removal.partitions.contains(PartitionKey(file.spec_id, file.partition));
      if (!remove && matcher) {
        FLOE_ASSIGN_OR_RETURN(bool might, matcher->MightMatch(file, *spec));
        if (might) {
          FLOE_ASSIGN_OR_RETURN(remove, matcher->AllMatch(file, *spec));
          if (!remove && !deletes) {
            return InvalidArgument(
                "cannot delete file where some, but not all, rows match filter {}: {}",
                matcher->filter()->ToString(), file.file_path);
          }
        }
      }
      if (remove) {
        ++removed_here;
        found.insert(file.file_path);
        summary.RemovedFile(file);
        removed_.push_back(file);
        entry.status = manifest::EntryStatus::kDeleted;
        entry.snapshot_id = snapshot_id();
      } else {
        entry.status = manifest::EntryStatus::kExisting;
      }
      rewritten.push_back(std::move(entry));
    }
    if (removed_here == 0) {
      out.push_back(std::move(manifest));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(
        manifest::ManifestFile written,
        WriteManifest(base, manifest.partition_spec_id, manifest.content, rewritten));
    out.push_back(std::move(written));
  }
  return out;
}

Result<std::vector<manifest::ManifestEntry>> MergingSnapshotProducer::ReadForMerge(
    const manifest::ManifestFile& manifest) const {
  std::vector<manifest::ManifestEntry> entries;
  if (manifest.sequence_number == manifest::kUnassignedSequenceNumber) {
    // Written by this commit: its ADDED entries inherit from the list not yet written.
    FLOE_ASSIGN_OR_RETURN(auto input, io().NewInputFile(manifest.manifest_path));
    FLOE_ASSIGN_OR_RETURN(auto reader, manifest::ManifestReader::Open(*input));
    FLOE_ASSIGN_OR_RETURN(entries, reader->ReadAll());
    for (auto& entry : entries) {
      entry.data_file.spec_id = manifest.partition_spec_id;
      if (!entry.snapshot_id) entry.snapshot_id = snapshot_id();
    }
  } else {
    FLOE_ASSIGN_OR_RETURN(entries, ReadEntries(manifest));
  }
  std::vector<manifest::ManifestEntry> out;
  for (auto& entry : entries) {
    bool ours = entry.snapshot_id == snapshot_id();
    if (entry.status == manifest::EntryStatus::kDeleted) {
      if (ours) out.push_back(std::move(entry));
      continue;
    }
    if (!(entry.status == manifest::EntryStatus::kAdded && ours)) {
      entry.status = manifest::EntryStatus::kExisting;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

Result<std::vector<manifest::ManifestFile>> MergingSnapshotProducer::Merge(
    const TableMetadata& base, std::vector<manifest::ManifestFile> added,
    std::vector<manifest::ManifestFile> existing, manifest::ManifestContent content) {
  std::vector<manifest::ManifestFile> all = std::move(added);
  for (auto& manifest : existing) all.push_back(std::move(manifest));
  // The first manifest of the list (this commit's newest, else the newest existing one): a bin
  // holding it merges only once it reaches the minimum count.
  std::optional<std::string> first;
  if (!all.empty()) first = all.front().manifest_path;
  if (!merge_enabled_ || base.property("commit.manifest-merge.enabled", "true") == "false") {
    return all;
  }
  int64_t target = ManifestTargetSizeBytes(base);
  int64_t min_count =
      LongProperty(base, "commit.manifest.min-count-to-merge", kDefaultMinCountToMerge);

  // Newest spec first, as the reference implementation orders the groups.
  std::map<int32_t, std::vector<manifest::ManifestFile>, std::greater<>> groups;
  for (auto& manifest : all) groups[manifest.partition_spec_id].push_back(std::move(manifest));
  std::vector<manifest::ManifestFile> out;
  for (auto& [spec_id, group] : groups) {
    // Packed in order from the oldest end, so that the bin left under-filled is the newest one,
    // which the next commits fill up.
    std::vector<std::vector<manifest::ManifestFile>> bins(1);
    int64_t weight = 0;
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
      if (!bins.back().empty() && weight + it->manifest_length > target) {
        bins.emplace_back();
        weight = 0;
      }
      weight += it->manifest_length;
      bins.back().push_back(std::move(*it));
    }
    std::reverse(bins.begin(), bins.end());
    for (auto& bin : bins) std::reverse(bin.begin(), bin.end());
    for (auto& bin : bins) {
      bool holds_first = false;
      for (const auto& manifest : bin) holds_first |= first && manifest.manifest_path == *first;
      if (bin.size() <= 1 || (holds_first && static_cast<int64_t>(bin.size()) < min_count)) {
        for (auto& manifest : bin) out.push_back(std::move(manifest));
        continue;
      }
      std::vector<manifest::ManifestEntry> entries;
      for (const auto& manifest : bin) {
        FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> part, ReadForMerge(manifest));
        for (auto& entry : part) entries.push_back(std::move(entry));
      }
      FLOE_ASSIGN_OR_RETURN(manifest::ManifestFile merged,
                            WriteManifest(base, spec_id, content, entries));
      out.push_back(std::move(merged));
    }
  }
  return out;
}

Result<std::vector<SnapshotPtr>> MergingSnapshotProducer::SnapshotsSinceStart(
    const TableMetadata& base, const Snapshot* parent) const {
  std::vector<SnapshotPtr> out;
  std::optional<int64_t> id;
  if (parent) id = parent->snapshot_id;
  while (id && id != starting_snapshot_id_) {
    SnapshotPtr snapshot = base.SnapshotById(*id);
    if (!snapshot) break;
    out.push_back(snapshot);
    id = snapshot->parent_snapshot_id;
  }
  if (starting_snapshot_id_ && id != starting_snapshot_id_) {
    return CommitFailed("cannot validate: starting snapshot {} is not an ancestor of branch '{}'",
                        *starting_snapshot_id_, branch());
  }
  return out;
}

Result<std::vector<manifest::ManifestEntry>> MergingSnapshotProducer::ChangedEntriesSinceStart(
    const TableMetadata& base, const Snapshot* parent, bool deletes,
    manifest::EntryStatus status) const {
  FLOE_ASSIGN_OR_RETURN(std::vector<SnapshotPtr> snapshots, SnapshotsSinceStart(base, parent));
  std::vector<manifest::ManifestEntry> out;
  auto content = deletes ? manifest::ManifestContent::kDeletes : manifest::ManifestContent::kData;
  for (const SnapshotPtr& snapshot : snapshots) {
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> manifests, ReadManifests(*snapshot));
    for (const manifest::ManifestFile& manifest : manifests) {
      if (manifest.content != content || manifest.added_snapshot_id != snapshot->snapshot_id) {
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> entries, ReadEntries(manifest));
      for (auto& entry : entries) {
        if (entry.status == status && entry.snapshot_id == snapshot->snapshot_id) {
          out.push_back(std::move(entry));
        }
      }
    }
  }
  return out;
}

Status MergingSnapshotProducer::ValidateNoConflictingFiles(
    const TableMetadata& base, const Snapshot* parent, bool deletes,
    const std::set<std::string>* partitions) const {
  FLOE_ASSIGN_OR_RETURN(
      std::vector<manifest::ManifestEntry> added,
      ChangedEntriesSinceStart(base, parent, deletes, manifest::EntryStatus::kAdded));
  FileMatcher matcher(conflict_filter_ ? conflict_filter_ : expr::True(), base.current_schema());
  for (const manifest::ManifestEntry& entry : added) {
    const manifest::DataFile& file = entry.data_file;
    FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec, SpecOf(base, file.spec_id, file.file_path));
    bool conflict = false;
    if (partitions) {
      conflict = spec->is_unpartitioned() ||
                 partitions->contains(PartitionKey(file.spec_id, file.partition));
    } else {
      FLOE_ASSIGN_OR_RETURN(conflict, matcher.MightMatch(file, *spec));
    }
    if (conflict) {
      return CommitFailed("found conflicting {} file that can contain records matching {}: {}",
                          deletes ? "delete" : "data", matcher.filter()->ToString(),
                          file.file_path);
    }
  }
  return Ok();
}

Status MergingSnapshotProducer::ValidateNoNewDeletesFor(
    const TableMetadata& base, const Snapshot* parent,
    const std::vector<manifest::DataFile>& data_files) const {
  if (data_files.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(
      std::vector<manifest::ManifestEntry> added,
      ChangedEntriesSinceStart(base, parent, /*deletes=*/true, manifest::EntryStatus::kAdded));
  for (const manifest::ManifestEntry& entry : added) {
    const manifest::DataFile& deletes = entry.data_file;
    FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec, SpecOf(base, deletes.spec_id, deletes.file_path));
    std::string key = PartitionKey(deletes.spec_id, deletes.partition);
    for (const manifest::DataFile& data : data_files) {
      if (deletes.referenced_data_file && *deletes.referenced_data_file != data.file_path) continue;
      if (!spec->is_unpartitioned() && key != PartitionKey(data.spec_id, data.partition)) continue;
      return CommitFailed("found new delete file {} for data file {} committed since the start",
                          deletes.file_path, data.file_path);
    }
  }
  return Ok();
}

Status MergingSnapshotProducer::ValidateFilesNotRemoved(const TableMetadata& base,
                                                        const Snapshot* parent,
                                                        const std::set<std::string>& paths) const {
  if (paths.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(
      std::vector<manifest::ManifestEntry> removed,
      ChangedEntriesSinceStart(base, parent, /*deletes=*/false, manifest::EntryStatus::kDeleted));
  for (const manifest::ManifestEntry& entry : removed) {
    if (paths.contains(entry.data_file.file_path)) {
      return CommitFailed("cannot commit, missing data file (removed since the start): {}",
                          entry.data_file.file_path);
    }
  }
  return Ok();
}

}  // namespace floe::table
