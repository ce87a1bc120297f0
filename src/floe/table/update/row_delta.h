#pragma once

// Row-level changes (Iceberg's RowDelta): adds data files and delete files (position deletes,
// equality deletes, deletion vectors) in one snapshot, and may remove data or delete files they
// supersede. Operation "append" (data only), "delete" (deletes only) or "overwrite".
//
// Validations on conflict, from ValidateFromSnapshot (the whole history when unset), under the
// conflict detection filter (default: everything): the data files the deletes reference still
// exist (ValidateDataFilesExist, and the referenced_data_file of each position delete);
// no data files were added that the filter may match (ValidateNoConflictingDataFiles); no delete
// files were added that the filter may match or that apply to removed data files
// (ValidateNoConflictingDeleteFiles). Failures are kCommitFailed, not retryable.

#include <set>
#include <string>

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class RowDelta : public MergingSnapshotProducer {
 public:
  explicit RowDelta(Table& table) : MergingSnapshotProducer(table) {}

  RowDelta& AddRows(manifest::DataFile data_file);
  RowDelta& AddDeletes(manifest::DataFile delete_file);
  RowDelta& RemoveRows(const manifest::DataFile& data_file);
  RowDelta& RemoveDeletes(const manifest::DataFile& delete_file);
  RowDelta& ValidateFromSnapshot(int64_t snapshot_id);
  RowDelta& ConflictDetectionFilter(expr::ExprPtr filter);
  RowDelta& ValidateDataFilesExist(std::set<std::string> paths);
  RowDelta& ValidateNoConflictingDataFiles();
  RowDelta& ValidateNoConflictingDeleteFiles();

 protected:
  std::string_view operation() const override;
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;

 private:
  bool adds_data_ = false;
  bool adds_deletes_ = false;
  std::set<std::string> referenced_;
  std::vector<manifest::DataFile> removed_data_;
  bool validate_data_ = false;
  bool validate_deletes_ = false;
};

}  // namespace floe::table
