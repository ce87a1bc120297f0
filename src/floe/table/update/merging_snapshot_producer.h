#pragma once

// The shared machinery of the changes that add and remove files (Iceberg Java's
// MergingSnapshotProducer, ManifestFilterManager and ManifestMergeManager): merge append,
// overwrite, dynamic partition replace, row delta, rewrite and delete.
//
// Removing: files named by path, files whose rows all match a row filter (a file where only some
// rows match is an error for data files, since a file cannot be half deleted), and whole
// partitions. A parent manifest holding removed files is rewritten with those entries DELETED and
// the others EXISTING (their snapshot ids and sequence numbers kept); untouched manifests are
// carried over unchanged. Adding: new manifests per spec and content. Merging: when
// `commit.manifest-merge.enabled` (default true), manifests of one spec are packed in order, from
// the oldest, into bins of `commit.manifest.target-size-bytes` (8 MB), so the under-filled bin is
// the newest; a bin is rewritten as one manifest unless it holds a single manifest, or holds the
// first manifest (this commit's new one) and fewer than `commit.manifest.min-count-to-merge` (100)
// manifests.
//
// Validations look at the snapshots committed to the branch since the starting snapshot
// (ValidateFromSnapshot; the whole history when unset) and fail with kCommitFailed, not retryable,
// naming the conflicting file: a retry cannot make a real conflict go away.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/table/update/file_matcher.h"
#include "floe/table/update/snapshot_producer.h"

namespace floe::table {

// The table's `commit.manifest.target-size-bytes` (8 MB by default): the size merged manifests,
// and those RewriteManifests writes, aim at.
int64_t ManifestTargetSizeBytes(const TableMetadata& metadata);

class MergingSnapshotProducer : public SnapshotProducer {
 public:
  // What to remove from the data manifests and from the delete manifests.
  struct Removal {
    std::set<std::string> paths;
    // Paths that must be found (and live) in the parent: kCommitFailed naming them otherwise.
    bool fail_missing_paths = false;
    expr::ExprPtr row_filter;          // remove files whose rows all match (unbound)
    std::set<std::string> partitions;  // PartitionKey of partitions to empty
  };

 protected:
  explicit MergingSnapshotProducer(Table& table) : SnapshotProducer(table) {}

  Result<std::vector<manifest::ManifestFile>> Manifests(const TableMetadata& base,
                                                        const Snapshot* parent,
                                                        SnapshotSummaryBuilder& summary) override;

  // The change's checks against what committed since it started; parent is the branch head.
  virtual Status Validate(const TableMetadata& base, const Snapshot* parent) {
    (void)base;
    (void)parent;
    return Ok();
  }

  void AddFile(manifest::DataFile file, std::optional<int64_t> data_sequence_number = {});
  Removal& data_removal() { return data_removal_; }
  Removal& delete_removal() { return delete_removal_; }
  const Removal& data_removal() const { return data_removal_; }
  const std::vector<manifest::ManifestEntry>& added() const { return added_; }
  // Files removed by the last Apply.
  const std::vector<manifest::DataFile>& removed() const { return removed_; }
  void set_merge_enabled(bool enabled) { merge_enabled_ = enabled; }

  // --- validation helpers (starting snapshot: the one set by ValidateFromSnapshot)
  std::optional<int64_t> starting_snapshot_id_;
  expr::ExprPtr conflict_filter_;  // unbound; true when unset

  // Snapshots of the branch committed after the starting snapshot, newest first.
  Result<std::vector<SnapshotPtr>> SnapshotsSinceStart(const TableMetadata& base,
                                                       const Snapshot* parent) const;
  // Entries those snapshots added (status ADDED) or removed (DELETED) of the given content.
  Result<std::vector<manifest::ManifestEntry>> ChangedEntriesSinceStart(
      const TableMetadata& base, const Snapshot* parent, bool deletes,
      manifest::EntryStatus status) const;
  // No data file (deletes = false) or delete file added since the start may hold rows matching
  // the conflict filter, or lies in one of `partitions` when given.
  Status ValidateNoConflictingFiles(const TableMetadata& base, const Snapshot* parent, bool deletes,
                                    const std::set<std::string>* partitions = nullptr) const;
  // No delete file added since the start can apply to one of the data files.
  Status ValidateNoNewDeletesFor(const TableMetadata& base, const Snapshot* parent,
                                 const std::vector<manifest::DataFile>& data_files) const;
  // None of paths was removed since the start.
  Status ValidateFilesNotRemoved(const TableMetadata& base, const Snapshot* parent,
                                 const std::set<std::string>& paths) const;

 private:
  Result<std::vector<manifest::ManifestFile>> Filter(const TableMetadata& base,
                                                     std::vector<manifest::ManifestFile> manifests,
                                                     const Removal& removal, bool deletes,
                                                     std::set<std::string>& found,
                                                     SnapshotSummaryBuilder& summary);
  Result<std::vector<manifest::ManifestFile>> Merge(const TableMetadata& base,
                                                    std::vector<manifest::ManifestFile> added,
                                                    std::vector<manifest::ManifestFile> existing,
                                                    manifest::ManifestContent content);
  Result<std::vector<manifest::ManifestEntry>> ReadForMerge(
      const manifest::ManifestFile& manifest) const;

  std::vector<manifest::ManifestEntry> added_;
  Removal data_removal_;
  Removal delete_removal_;
  std::vector<manifest::DataFile> removed_;
  bool merge_enabled_ = true;
};

}  // namespace floe::table
