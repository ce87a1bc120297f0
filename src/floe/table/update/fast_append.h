#pragma once

// Appends data files in a new manifest per partition spec and keeps the parent's manifests as
// they are (Iceberg's FastAppend): the cheapest commit, for streaming writers. Operation "append".
// Errors: kInvalidArgument for a delete file or a file whose spec is not in the table.

#include <vector>

#include "floe/table/update/snapshot_producer.h"

namespace floe::table {

class FastAppend : public SnapshotProducer {
 public:
  explicit FastAppend(Table& table) : SnapshotProducer(table) {}

  // file.spec_id names its partition spec.
  FastAppend& AppendFile(manifest::DataFile file);

 protected:
  std::string_view operation() const override { return kOperationAppend; }
  Result<std::vector<manifest::ManifestFile>> Manifests(const TableMetadata& base,
                                                        const Snapshot* parent,
                                                        SnapshotSummaryBuilder& summary) override;

 private:
  std::vector<manifest::DataFile> files_;
};

}  // namespace floe::table
