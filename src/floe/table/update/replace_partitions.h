#pragma once

// Dynamic partition overwrite (Iceberg's ReplacePartitions): every partition that an added file
// lies in is emptied (its data and delete files removed) and the added files take its place;
// other partitions stay. In an unpartitioned table the whole table is replaced. Operation
// "overwrite", summary `replace-partitions` = true.
//
// Validations (optional): ValidateAppendOnly fails when a partition held files; since
// ValidateFromSnapshot, ValidateNoConflictingData / Deletes fail when files were added to a
// replaced partition. Failures are kCommitFailed, not retryable.

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class ReplacePartitions : public MergingSnapshotProducer {
 public:
  explicit ReplacePartitions(Table& table);

  ReplacePartitions& AddFile(manifest::DataFile file);
  ReplacePartitions& ValidateAppendOnly();
  ReplacePartitions& ValidateFromSnapshot(int64_t snapshot_id);
  ReplacePartitions& ValidateNoConflictingData();
  ReplacePartitions& ValidateNoConflictingDeletes();

 protected:
  std::string_view operation() const override { return kOperationOverwrite; }
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;
  Result<std::vector<manifest::ManifestFile>> Manifests(const TableMetadata& base,
                                                        const Snapshot* parent,
                                                        SnapshotSummaryBuilder& summary) override;

 private:
  bool append_only_ = false;
  bool validate_data_ = false;
  bool validate_deletes_ = false;
};

}  // namespace floe::table
