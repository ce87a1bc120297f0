#include "floe/table/update/cherry_pick.h"

#include "floe/table/update/manage_snapshots.h"

namespace floe::table {

CherryPick& CherryPick::Pick(int64_t snapshot_id) {
  picked_id_ = snapshot_id;
  return *this;
}

Result<std::vector<catalog::TableUpdate>> CherryPick::Apply(const TableMetadata& base) {
  SnapshotPtr picked = base.SnapshotById(picked_id_);
  if (!picked) return InvalidArgument("cannot cherry-pick unknown snapshot {}", picked_id_);
  const SnapshotRef* ref = base.FindRef(branch());
  std::optional<int64_t> head;
  if (ref) head = ref->snapshot_id;
  if (head && IsAncestorOf(base, *head, picked_id_)) {
    return InvalidArgument("cannot cherry-pick snapshot {}: already an ancestor of '{}'",
                           picked_id_, branch());
  }
  for (const SnapshotPtr& snapshot : base.snapshots()) {
    auto source = snapshot->summary.find("source-snapshot-id");
    if (source != snapshot->summary.end() && source->second == std::to_string(picked_id_) && head &&
        IsAncestorOf(base, *head, snapshot->snapshot_id)) {
      return InvalidArgument("duplicate request to cherry-pick snapshot {}", picked_id_);
    }
  }
  if (picked->parent_snapshot_id == head) {
    SnapshotRef moved = ref ? *ref : SnapshotRef{};
    moved.snapshot_id = picked_id_;
    return std::vector<catalog::TableUpdate>{catalog::SetSnapshotRef{branch(), moved}};
  }
  return MergingSnapshotProducer::Apply(base);
}

Status CherryPick::Validate(const TableMetadata& base, const Snapshot* parent) {
  SnapshotPtr picked = base.SnapshotById(picked_id_);
  bool dynamic_overwrite = picked->operation() == kOperationOverwrite &&
                           picked->summary.contains("replace-partitions") &&
                           picked->summary.at("replace-partitions") == "true";
  if (picked->operation() != kOperationAppend && !dynamic_overwrite) {
    return Unsupported("cannot cherry-pick a snapshot with operation '{}'", picked->operation());
  }
  if (!files_added_) {
    SetSummaryProperty("source-snapshot-id", std::to_string(picked_id_));
    operation_ = std::string(picked->operation());
    FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestFile> manifests, ReadManifests(*picked));
    for (const manifest::ManifestFile& manifest : manifests) {
      if (manifest.added_snapshot_id != picked_id_ ||
          manifest.content != manifest::ManifestContent::kData) {
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(std::vector<manifest::ManifestEntry> entries, ReadEntries(manifest));
      for (manifest::ManifestEntry& entry : entries) {
        if (entry.status != manifest::EntryStatus::kAdded || entry.snapshot_id != picked_id_) {
          continue;
        }
        const manifest::DataFile& file = entry.data_file;
        PartitionSpecPtr spec = base.SpecById(file.spec_id);
        if (spec && spec->is_unpartitioned()) whole_table_ = true;
        partitions_.insert(PartitionKey(file.spec_id, file.partition));
        AddFile(std::move(entry.data_file));
      }
    }
    files_added_ = true;
  }
  if (!dynamic_overwrite) return Ok();
  for (Removal* removal : {&data_removal(), &delete_removal()}) {
    if (whole_table_) {
      removal->row_filter = expr::True();
    } else {
      removal->partitions = partitions_;
    }
  }
  starting_snapshot_id_ = picked->parent_snapshot_id;
  if (!starting_snapshot_id_) return Ok();
  return ValidateNoConflictingFiles(base, parent, /*deletes=*/false,
                                    whole_table_ ? nullptr : &partitions_);
}

}  // namespace floe::table
