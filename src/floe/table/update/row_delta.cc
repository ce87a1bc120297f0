#include "floe/table/update/row_delta.h"

namespace floe::table {

RowDelta& RowDelta::AddRows(manifest::DataFile data_file) {
  adds_data_ = true;
  AddFile(std::move(data_file));
  return *this;
}

RowDelta& RowDelta::AddDeletes(manifest::DataFile delete_file) {
  adds_deletes_ = true;
  if (delete_file.referenced_data_file) referenced_.insert(*delete_file.referenced_data_file);
  AddFile(std::move(delete_file));
  return *this;
}

RowDelta& RowDelta::RemoveRows(const manifest::DataFile& data_file) {
  data_removal().paths.insert(data_file.file_path);
  data_removal().fail_missing_paths = true;
  removed_data_.push_back(data_file);
  return *this;
}

RowDelta& RowDelta::RemoveDeletes(const manifest::DataFile& delete_file) {
  delete_removal().paths.insert(delete_file.file_path);
  delete_removal().fail_missing_paths = true;
  return *this;
}

RowDelta& RowDelta::ValidateFromSnapshot(int64_t snapshot_id) {
  starting_snapshot_id_ = snapshot_id;
  return *this;
}

RowDelta& RowDelta::ConflictDetectionFilter(expr::ExprPtr filter) {
  conflict_filter_ = std::move(filter);
  return *this;
}

RowDelta& RowDelta::ValidateDataFilesExist(std::set<std::string> paths) {
  referenced_.merge(paths);
  return *this;
}

RowDelta& RowDelta::ValidateNoConflictingDataFiles() {
  validate_data_ = true;
  return *this;
}

RowDelta& RowDelta::ValidateNoConflictingDeleteFiles() {
  validate_deletes_ = true;
  return *this;
}

std::string_view RowDelta::operation() const {
  if (adds_data_ && !adds_deletes_ && removed_data_.empty()) return kOperationAppend;
  if (adds_deletes_ && !adds_data_) return kOperationDelete;
  return kOperationOverwrite;
}

Status RowDelta::Validate(const TableMetadata& base, const Snapshot* parent) {
  if (!parent) return Ok();
  FLOE_RETURN_IF_ERROR(ValidateFilesNotRemoved(base, parent, referenced_));
  if (validate_data_) {
    FLOE_RETURN_IF_ERROR(ValidateNoConflictingFiles(base, parent, /*deletes=*/false));
  }
  if (validate_deletes_) {
    FLOE_RETURN_IF_ERROR(ValidateNoConflictingFiles(base, parent, /*deletes=*/true));
    FLOE_RETURN_IF_ERROR(ValidateNoNewDeletesFor(base, parent, removed_data_));
  }
  return Ok();
}

}  // namespace floe::table
