#pragma once

// The common part of every change that makes a snapshot (Iceberg Java's SnapshotProducer): a new
// snapshot id (random, positive, unique in the table, kept across retries), sequence number last +
// 1 (v2+), v3 row lineage (first-row-id = the table's next-row-id, added-rows), new manifests and
// the manifest list written under the table's metadata folder with unique names
// (`<commit uuid>-m<N>.avro`, `snap-<id>-<attempt>-<commit uuid>.avro`, deflate, each synced), and
// a summary with the standard metrics. The snapshot goes on a branch (main unless ToBranch; a new
// branch starts at the current snapshot) or, when staged, on none.
//
// Subclasses say which manifests the snapshot has (Manifests) and validate against what
// committed since they started. Files written by attempts that did not commit are deleted in
// Finish; nothing is deleted when the outcome is unknown (Finish is then not called).

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/spec/snapshot.h"
#include "floe/table/update/pending_update.h"
#include "floe/table/update/snapshot_summary.h"

namespace floe::io {
class FileIO;
}

namespace floe::table {

class SnapshotProducer : public PendingUpdate {
 public:
  // Commits to this branch instead of main.
  SnapshotProducer& ToBranch(std::string branch);
  // Adds a property to the snapshot summary.
  SnapshotProducer& SetSummaryProperty(std::string key, std::string value);
  // Summary properties that depend on what committed before: called at every attempt with its
  // base and the branch's snapshot on it (nullptr when none), so that a retry after a lost race
  // recomputes them. An error fails the commit as a validation does (not retried).
  using SummaryFromBase =
      std::function<Result<StringMap>(const TableMetadata& base, const Snapshot* parent)>;
  SnapshotProducer& SetSummaryFromBase(SummaryFromBase summary_from_base);
  // Adds the snapshot without moving any branch (write-audit-publish: cherry-pick it later).
  SnapshotProducer& StageOnly();

  // The id of the snapshot this change makes (chosen when first applied).
  int64_t snapshot_id() const { return snapshot_id_; }

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;
  void Finish(const TableMetadata* committed) override;

 protected:
  explicit SnapshotProducer(Table& table);

  virtual std::string_view operation() const = 0;
  // The manifests of the new snapshot on base, whose target branch is at parent (nullptr when
  // the branch has no snapshot yet); adds the files it adds and removes to summary. Runs the
  // change's validations.
  virtual Result<std::vector<manifest::ManifestFile>> Manifests(
      const TableMetadata& base, const Snapshot* parent, SnapshotSummaryBuilder& summary) = 0;

  const std::string& branch() const { return branch_; }
  io::FileIO& io() const;
  // The sequence number of the snapshot being made (0 in v1).
  int64_t sequence_number() const { return sequence_number_; }

  // Writes entries as a new manifest of spec spec_id.
  Result<manifest::ManifestFile> WriteManifest(const TableMetadata& base, int32_t spec_id,
                                               manifest::ManifestContent content,
                                               std::span<const manifest::ManifestEntry> entries);
  // Writes ADDED entries (snapshot id and sequence numbers left to inheritance unless the entry
  // sets a data sequence number) in new manifests, one per spec and content.
  Result<std::vector<manifest::ManifestFile>> WriteAddedManifests(
      const TableMetadata& base, std::span<const manifest::ManifestEntry> entries);
  // A snapshot's manifests, and a manifest's entries with inherited values filled in.
  Result<std::vector<manifest::ManifestFile>> ReadManifests(const Snapshot& snapshot) const;
  Result<std::vector<manifest::ManifestEntry>> ReadEntries(
      const manifest::ManifestFile& manifest) const;

 private:
  Result<std::string> WriteManifestList(const TableMetadata& base, const Snapshot* parent,
                                        std::span<const manifest::ManifestFile> manifests,
                                        std::optional<int64_t>& added_rows);
  Status WriteNew(const std::string& location, std::string_view bytes);

  std::string branch_{SnapshotRef::kMainBranch};
  bool stage_only_ = false;
  StringMap summary_properties_;
  SummaryFromBase summary_from_base_;
  std::string commit_uuid_;
  int64_t snapshot_id_ = 0;
  int64_t sequence_number_ = 0;
  int attempt_ = 0;
  int manifest_count_ = 0;
  std::string metadata_folder_;
  std::vector<std::string> written_;
};

// Checks a file about to be added: its spec is in base, its partition tuple fits the spec, and
// delete files only where allowed (and only from v2).
Status CheckAddedFile(const TableMetadata& base, const manifest::DataFile& file,
                      bool deletes_allowed);

// A random positive snapshot id that base does not use yet.
int64_t NewSnapshotId(const TableMetadata& base);

// Where a table's new metadata files go: `write.metadata.path`, else <location>/metadata.
std::string MetadataFolder(const TableMetadata& metadata);

}  // namespace floe::table
