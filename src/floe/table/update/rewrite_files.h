#pragma once

// Compaction (Iceberg's RewriteFiles): replaces data files (and delete files) with new files
// holding the same rows, in one snapshot with operation "replace". The files to replace must be
// live in the table (kCommitFailed otherwise). New data files may keep a data sequence number
// (DataSequenceNumber: the highest of the replaced files', so that equality deletes committed
// after them still apply); otherwise they take the new snapshot's.
//
// Validation: since ValidateFromSnapshot (the whole history when unset), no delete file was added
// that applies to a replaced data file, since the rewrite would silently drop those deletes;
// failures are kCommitFailed, not retryable.

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class RewriteFiles : public MergingSnapshotProducer {
 public:
  explicit RewriteFiles(Table& table) : MergingSnapshotProducer(table) {}

  RewriteFiles& DeleteFile(const manifest::DataFile& file);
  RewriteFiles& AddFile(manifest::DataFile file);
  RewriteFiles& DataSequenceNumber(int64_t sequence_number);
  RewriteFiles& ValidateFromSnapshot(int64_t snapshot_id);

 protected:
  std::string_view operation() const override { return kOperationReplace; }
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;

 private:
  std::vector<manifest::DataFile> replaced_data_;
  std::vector<manifest::DataFile> new_files_;
  std::optional<int64_t> data_sequence_number_;
  bool files_added_ = false;
};

}  // namespace floe::table
