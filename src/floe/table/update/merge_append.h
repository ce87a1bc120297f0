#pragma once

// Appends data files like FastAppend, then merges small manifests (the `commit.manifest.*`
// properties; see MergingSnapshotProducer) so that tables with many small appends keep few
// manifests. Operation "append". Errors: kInvalidArgument for delete files.

#include "floe/table/update/merging_snapshot_producer.h"

namespace floe::table {

class MergeAppend : public MergingSnapshotProducer {
 public:
  explicit MergeAppend(Table& table) : MergingSnapshotProducer(table) {}

  MergeAppend& AppendFile(manifest::DataFile file);

 protected:
  std::string_view operation() const override { return kOperationAppend; }
  Status Validate(const TableMetadata& base, const Snapshot* parent) override;
};

}  // namespace floe::table
