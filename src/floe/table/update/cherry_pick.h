#pragma once

// Applies the changes of another snapshot (usually a staged one, or one on another branch) to the
// current state (Iceberg's cherry-pick): when the picked snapshot's parent is the branch head the
// branch simply moves to it (fast-forward); otherwise an append's added files are appended again,
// and a dynamic partition overwrite (`replace-partitions`) replaces the same partitions, failing
// when files were added to them since the picked snapshot's parent. The new snapshot records
// `source-snapshot-id`. Errors: kInvalidArgument for an unknown snapshot or one already picked,
// kUnsupported for other operations, kCommitFailed (not retryable) for conflicts.

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class CherryPick : public MergingSnapshotProducer {
 public:
  explicit CherryPick(Table& table) : MergingSnapshotProducer(table) {}

  CherryPick& Pick(int64_t snapshot_id);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 protected:
  std::string_view operation() const override { return operation_; }
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;

 private:
  int64_t picked_id_ = 0;
  std::string operation_{kOperationAppend};
  bool files_added_ = false;
  std::set<std::string> partitions_;
  bool whole_table_ = false;
};

}  // namespace floe::table
