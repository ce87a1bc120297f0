#pragma once

// Removes old snapshots and then the files only they referenced (Iceberg's ExpireSnapshots).
//
// Which snapshots go: those named by ExpireSnapshotId, and those older than ExpireOlderThan
// (default: now - `history.expire.max-snapshot-age-ms`, 5 days) unless a ref retains them. Each
// branch keeps its newest min-snapshots-to-keep ancestors (the ref's setting, else RetainLast,
// else `history.expire.min-snapshots-to-keep`, 1) and every ancestor younger than its
// max-snapshot-age-ms (else the cut-off above); each tag keeps its snapshot. Refs other than main
// older than their max-ref-age-ms (else `history.expire.max-ref-age-ms`) are removed first.
//
// After the commit is known to have landed, manifest lists, manifests, data and delete files of
// the expired snapshots that no remaining snapshot references are deleted (CleanExpiredFiles;
// on by default). Nothing is deleted when the commit failed or its outcome is unknown.
// Errors: kInvalidArgument for expiring a snapshot a ref still points at.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/table/update/pending_update.h"

namespace floe::table {

class ExpireSnapshots : public PendingUpdate {
 public:
  explicit ExpireSnapshots(Table& table) : PendingUpdate(table) {}

  ExpireSnapshots& ExpireOlderThan(int64_t timestamp_ms);
  ExpireSnapshots& ExpireSnapshotId(int64_t snapshot_id);
  ExpireSnapshots& RetainLast(int32_t count);
  ExpireSnapshots& CleanExpiredFiles(bool clean);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;
  void Finish(const TableMetadata* committed) override;

  // After a commit: the snapshot ids removed and the files deleted.
  const std::vector<int64_t>& expired_ids() const { return expired_ids_; }
  const std::vector<std::string>& deleted_files() const { return deleted_files_; }
  // The deleted files by kind (the counts Spark's expire_snapshots procedure reports).
  struct DeletedCounts {
    int64_t data_files = 0;
    int64_t position_delete_files = 0;
    int64_t equality_delete_files = 0;
    int64_t manifests = 0;
    int64_t manifest_lists = 0;
  };
  const DeletedCounts& deleted_counts() const { return deleted_counts_; }

 private:
  Status DeleteUnreachable(const TableMetadata& committed);

  std::optional<int64_t> older_than_;
  std::optional<int32_t> retain_last_;
  std::set<int64_t> explicit_ids_;
  bool clean_ = true;
  std::vector<SnapshotPtr> expired_;
  std::vector<int64_t> expired_ids_;
  std::vector<std::string> deleted_files_;
  DeletedCounts deleted_counts_;
};

}  // namespace floe::table
