#pragma once

// Replaces data: removes the files whose rows all match a row filter (OverwriteByRowFilter) and/or
// files named explicitly, and adds new files, in one snapshot (Iceberg's OverwriteFiles).
// Operation "overwrite" ("append" or "delete" when it only adds or only removes).
//
// Validations (optional, as in Iceberg): the added files' rows all match the overwrite filter;
// since ValidateFromSnapshot, no data file (ValidateNoConflictingData) or delete file
// (ValidateNoConflictingDeletes) was added that may hold rows matching the conflict detection
// filter (default: the overwrite filter). Failures are kCommitFailed, not retryable.

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class OverwriteFiles : public MergingSnapshotProducer {
 public:
  explicit OverwriteFiles(Table& table) : MergingSnapshotProducer(table) {}

  OverwriteFiles& OverwriteByRowFilter(expr::ExprPtr filter);
  OverwriteFiles& AddFile(manifest::DataFile file);
  OverwriteFiles& DeleteFile(const manifest::DataFile& file);
  OverwriteFiles& ValidateAddedFilesMatchOverwriteFilter();
  OverwriteFiles& ValidateFromSnapshot(int64_t snapshot_id);
  OverwriteFiles& ConflictDetectionFilter(expr::ExprPtr filter);
  OverwriteFiles& ValidateNoConflictingData();
  OverwriteFiles& ValidateNoConflictingDeletes();

 protected:
  std::string_view operation() const override;
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;

 private:
  expr::ExprPtr row_filter_;
  bool validate_added_match_ = false;
  bool validate_data_ = false;
  bool validate_deletes_ = false;
  std::vector<manifest::DataFile> deleted_files_;
};

}  // namespace floe::table
