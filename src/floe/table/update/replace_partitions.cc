#include "floe/table/update/replace_partitions.h"

namespace floe::table {

ReplacePartitions::ReplacePartitions(Table& table) : MergingSnapshotProducer(table) {
  SetSummaryProperty("replace-partitions", "true");
}

ReplacePartitions& ReplacePartitions::AddFile(manifest::DataFile file) {
  MergingSnapshotProducer::AddFile(std::move(file));
  return *this;
}

ReplacePartitions& ReplacePartitions::ValidateAppendOnly() {
  append_only_ = true;
  return *this;
}

ReplacePartitions& ReplacePartitions::ValidateFromSnapshot(int64_t snapshot_id) {
  starting_snapshot_id_ = snapshot_id;
  return *this;
}

ReplacePartitions& ReplacePartitions::ValidateNoConflictingData() {
  validate_data_ = true;
  return *this;
}

ReplacePartitions& ReplacePartitions::ValidateNoConflictingDeletes() {
  validate_deletes_ = true;
  return *this;
}

Status ReplacePartitions::Validate(const TableMetadata& base, const Snapshot* parent) {
  std::set<std::string> partitions;
  bool whole_table = false;
  for (const manifest::ManifestEntry& entry : added()) {
    const manifest::DataFile& file = entry.data_file;
    FLOE_RETURN_IF_ERROR(CheckAddedFile(base, file, /*deletes_allowed=*/false));
    if (base.SpecById(file.spec_id)->is_unpartitioned()) whole_table = true;
    partitions.insert(PartitionKey(file.spec_id, file.partition));
  }
  for (Removal* removal : {&data_removal(), &delete_removal()}) {
    if (whole_table) {
      removal->row_filter = expr::True();
    } else {
      removal->partitions = partitions;
    }
  }
  const std::set<std::string>* conflict_partitions = whole_table ? nullptr : &partitions;
  if (validate_data_) {
    FLOE_RETURN_IF_ERROR(
        ValidateNoConflictingFiles(base, parent, /*deletes=*/false, conflict_partitions));
  }
  if (validate_deletes_) {
    FLOE_RETURN_IF_ERROR(
        ValidateNoConflictingFiles(base, parent, /*deletes=*/true, conflict_partitions));
  }
  return Ok();
}

Result<std::vector<manifest::ManifestFile>> ReplacePartitions::Manifests(
    const TableMetadata& base, const Snapshot* parent, SnapshotSummaryBuilder& summary) {
  FLOE_ASSIGN_OR_RETURN(auto manifests, MergingSnapshotProducer::Manifests(base, parent, summary));
  if (append_only_) {
    for (const manifest::DataFile& file : removed()) {
      if (file.content == manifest::FileContent::kData) {
        return CommitFailed("cannot commit file that conflicts with existing partition: {}",
                            file.file_path);
      }
    }
  }
  return manifests;
}

}  // namespace floe::table
