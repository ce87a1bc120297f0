#pragma once

// Rewrites the data manifests of the current snapshot (Iceberg's RewriteManifests, Spark's
// rewrite_manifests procedure): their live entries, clustered by partition and written as EXISTING
// (snapshot ids and sequence numbers kept), fill new manifests of about
// `commit.manifest.target-size-bytes` (8 MB) each, so that scan planning opens few manifests and
// prunes them well by partition. One snapshot with operation "replace" that changes no file; delete
// manifests are kept as they are. Its summary says `manifests-created`, `manifests-kept`,
// `manifests-replaced` and `entries-processed`.
//
// Only the manifests of one spec when SpecId is set. Each attempt rewrites what the branch head
// holds then, so a concurrent commit is never undone. Errors: kInvalidArgument when the branch
// has no snapshot.

#include <optional>

#include "floe/table/update/snapshot_producer.h"

namespace floe::table {

class RewriteManifests : public SnapshotProducer {
 public:
  explicit RewriteManifests(Table& table) : SnapshotProducer(table) {}

  RewriteManifests& SpecId(int32_t spec_id);

  // Of the last attempt: the manifests replaced, and those written in their place.
  int rewritten() const { return rewritten_; }
  int added() const { return added_; }

 protected:
  std::string_view operation() const override { return kOperationReplace; }
  Result<std::vector<manifest::ManifestFile>> Manifests(const TableMetadata& base,
                                                        const Snapshot* parent,
                                                        SnapshotSummaryBuilder& summary) override;

 private:
  std::optional<int32_t> spec_id_;
  int rewritten_ = 0;
  int added_ = 0;
};

}  // namespace floe::table
