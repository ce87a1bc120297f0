#include "floe/table/update/expire_snapshots.h"

#include <charconv>
#include <chrono>
#include <limits>
#include <map>

#include "floe/io/file_io.h"
#include "floe/table/table.h"
#include "floe/table/update/reachable_files.h"

namespace floe::table {
namespace {

constexpr int64_t kDefaultMaxSnapshotAgeMs = 5LL * 24 * 60 * 60 * 1000;

int64_t LongProperty(const TableMetadata& base, std::string_view key, int64_t fallback) {
  std::string_view text = base.property(key);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return fallback;
  return value;
}

}  // namespace

ExpireSnapshots& ExpireSnapshots::ExpireOlderThan(int64_t timestamp_ms) {
  older_than_ = timestamp_ms;
  return *this;
}

ExpireSnapshots& ExpireSnapshots::ExpireSnapshotId(int64_t snapshot_id) {
  explicit_ids_.insert(snapshot_id);
  return *this;
}

ExpireSnapshots& ExpireSnapshots::RetainLast(int32_t count) {
  retain_last_ = count;
  return *this;
}

ExpireSnapshots& ExpireSnapshots::CleanExpiredFiles(bool clean) {
  clean_ = clean;
  return *this;
}

Result<std::vector<catalog::TableUpdate>> ExpireSnapshots::Apply(const TableMetadata& base) {
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  int64_t older_than = older_than_.value_or(
      now - LongProperty(base, "history.expire.max-snapshot-age-ms", kDefaultMaxSnapshotAgeMs));
  int64_t min_keep = retain_last_.value_or(
      static_cast<int32_t>(LongProperty(base, "history.expire.min-snapshots-to-keep", 1)));
  int64_t default_ref_age =
      LongProperty(base, "history.expire.max-ref-age-ms", std::numeric_limits<int64_t>::max());

  std::vector<catalog::TableUpdate> updates;
  std::set<int64_t> retained;
  std::set<int64_t> ref_heads;
  std::set<int64_t> reachable;  // ancestors of any kept ref
  for (const auto& [name, ref] : base.refs()) {
    SnapshotPtr head = base.SnapshotById(ref.snapshot_id);
    if (!head) continue;
    int64_t max_ref_age = ref.max_ref_age_ms.value_or(default_ref_age);
    if (name != SnapshotRef::kMainBranch && now - head->timestamp_ms > max_ref_age) {
      updates.push_back(catalog::RemoveSnapshotRef{name});
      continue;
    }
    ref_heads.insert(ref.snapshot_id);
    retained.insert(ref.snapshot_id);
    if (!ref.is_branch()) continue;
    int64_t keep = ref.min_snapshots_to_keep.value_or(static_cast<int32_t>(min_keep));
    int64_t cutoff = ref.max_snapshot_age_ms ? now - *ref.max_snapshot_age_ms : older_than;
    int64_t count = 0;
    for (SnapshotPtr s = head; s;
         s = s->parent_snapshot_id ? base.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      reachable.insert(s->snapshot_id);
      if (count < keep || s->timestamp_ms >= cutoff) retained.insert(s->snapshot_id);
      ++count;
    }
  }
  for (int64_t id : explicit_ids_) {
    if (ref_heads.contains(id)) {
      return InvalidArgument("cannot expire snapshot {}: a ref still points at it", id);
    }
  }
  expired_.clear();
  std::vector<int64_t> ids;
  for (const SnapshotPtr& snapshot : base.snapshots()) {
    int64_t id = snapshot->snapshot_id;
    bool expire = explicit_ids_.contains(id);
    if (!expire && !retained.contains(id)) {
      // A branch's ancestors go by its retention; snapshots no ref reaches by age alone.
      expire = reachable.contains(id) || snapshot->timestamp_ms < older_than;
    }
    if (expire) {
      ids.push_back(id);
      expired_.push_back(snapshot);
    }
  }
  if (!ids.empty()) updates.push_back(catalog::RemoveSnapshots{ids});
  return updates;
}

void ExpireSnapshots::Finish(const TableMetadata* committed) {
  expired_ids_.clear();
  deleted_files_.clear();
  if (!committed) return;
  for (const SnapshotPtr& snapshot : expired_) {
    if (!committed->SnapshotById(snapshot->snapshot_id)) {
      expired_ids_.push_back(snapshot->snapshot_id);
    }
  }
  if (clean_) (void)DeleteUnreachable(*committed);
}

Status ExpireSnapshots::DeleteUnreachable(const TableMetadata& committed) {
  io::FileIO& io = *table().io();
  FLOE_ASSIGN_OR_RETURN(ReachableFiles kept, CollectReachableFiles(io, committed));
  std::set<std::string> delete_lists, delete_manifests, delete_files;
  std::map<std::string, manifest::FileContent> content_of;
  for (const SnapshotPtr& snapshot : expired_) {
    if (committed.SnapshotById(snapshot->snapshot_id)) continue;
    if (!snapshot->manifest_list.empty() &&
        !kept.manifest_lists.contains(snapshot->manifest_list)) {
      delete_lists.insert(snapshot->manifest_list);
    }
    FLOE_ASSIGN_OR_RETURN(auto manifests, SnapshotManifests(io, *snapshot));
    for (const manifest::ManifestFile& manifest : manifests) {
      if (kept.manifests.contains(manifest.manifest_path) ||
          !delete_manifests.insert(manifest.manifest_path).second) {
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto entries, ManifestEntries(io, manifest));
      for (const manifest::ManifestEntry& entry : entries) {
        if (!kept.content_files.contains(entry.data_file.file_path)) {
          delete_files.insert(entry.data_file.file_path);
          content_of[entry.data_file.file_path] = entry.data_file.content;
        }
      }
    }
  }
  auto counter = [&](const std::set<std::string>* group, const std::string& path) -> int64_t& {
    if (group == &delete_lists) return deleted_counts_.manifest_lists;
    if (group == &delete_manifests) return deleted_counts_.manifests;
    switch (content_of[path]) {
      case manifest::FileContent::kPositionDeletes:
        return deleted_counts_.position_delete_files;
      case manifest::FileContent::kEqualityDeletes:
        return deleted_counts_.equality_delete_files;
      case manifest::FileContent::kData:
        break;
    }
    return deleted_counts_.data_files;
  };
  for (const auto* group : {&delete_files, &delete_manifests, &delete_lists}) {
    for (const std::string& path : *group) {
      Status deleted = io.Delete(path);
      if (deleted || deleted.error().kind() == ErrorKind::kNotFound) {
        deleted_files_.push_back(path);
        ++counter(group, path);
      }
    }
  }
  return Ok();
}

}  // namespace floe::table
