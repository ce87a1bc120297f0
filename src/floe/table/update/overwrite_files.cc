#include "floe/table/update/overwrite_files.h"

namespace floe::table {

OverwriteFiles& OverwriteFiles::OverwriteByRowFilter(expr::ExprPtr filter) {
  row_filter_ = filter;
  data_removal().row_filter = filter;
  delete_removal().row_filter = std::move(filter);
  return *this;
}

OverwriteFiles& OverwriteFiles::AddFile(manifest::DataFile file) {
  MergingSnapshotProducer::AddFile(std::move(file));
  return *this;
}

OverwriteFiles& OverwriteFiles::DeleteFile(const manifest::DataFile& file) {
  data_removal().paths.insert(file.file_path);
  deleted_files_.push_back(file);
  return *this;
}

OverwriteFiles& OverwriteFiles::ValidateAddedFilesMatchOverwriteFilter() {
  validate_added_match_ = true;
  return *this;
}

OverwriteFiles& OverwriteFiles::ValidateFromSnapshot(int64_t snapshot_id) {
  starting_snapshot_id_ = snapshot_id;
  return *this;
}

OverwriteFiles& OverwriteFiles::ConflictDetectionFilter(expr::ExprPtr filter) {
  conflict_filter_ = std::move(filter);
  return *this;
}

OverwriteFiles& OverwriteFiles::ValidateNoConflictingData() {
  validate_data_ = true;
  return *this;
}

OverwriteFiles& OverwriteFiles::ValidateNoConflictingDeletes() {
  validate_deletes_ = true;
  return *this;
}

std::string_view OverwriteFiles::operation() const {
  bool deletes = row_filter_ || !data_removal().paths.empty();
  if (!deletes) return kOperationAppend;
  return added().empty() ? kOperationDelete : kOperationOverwrite;
}

Status OverwriteFiles::Validate(const TableMetadata& base, const Snapshot* parent) {
  for (const manifest::ManifestEntry& entry : added()) {
    FLOE_RETURN_IF_ERROR(CheckAddedFile(base, entry.data_file, /*deletes_allowed=*/false));
  }
  if (validate_added_match_ && row_filter_) {
    FileMatcher matcher(row_filter_, base.current_schema());
    for (const manifest::ManifestEntry& entry : added()) {
      PartitionSpecPtr spec = base.SpecById(entry.data_file.spec_id);
      FLOE_ASSIGN_OR_RETURN(bool all, matcher.AllMatch(entry.data_file, *spec));
      if (!all) {
        return CommitFailed("cannot append file with rows that do not match filter {}: {}",
                            row_filter_->ToString(), entry.data_file.file_path);
      }
    }
  }
  if (!conflict_filter_ && row_filter_) conflict_filter_ = row_filter_;
  if (validate_data_) {
    FLOE_RETURN_IF_ERROR(ValidateNoConflictingFiles(base, parent, /*deletes=*/false));
  }
  if (validate_deletes_) {
    if (row_filter_) {
      FLOE_RETURN_IF_ERROR(ValidateNoConflictingFiles(base, parent, /*deletes=*/true));
    }
    FLOE_RETURN_IF_ERROR(ValidateNoNewDeletesFor(base, parent, deleted_files_));
  }
  return Ok();
}

}  // namespace floe::table
