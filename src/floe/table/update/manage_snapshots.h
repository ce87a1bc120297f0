#pragma once

// Snapshot and ref management (Iceberg's ManageSnapshots): set the current snapshot, roll back to
// an ancestor (by id or time), create, replace, rename and remove branches and tags, fast-forward a
// branch, and set refs' retention. Steps apply in the order called; the whole change commits as
// one set of ref updates, each requiring its ref not to have moved since.
//
// Errors (kInvalidArgument, naming the ref or snapshot): unknown snapshots, rolling back to a
// snapshot that is not an ancestor of the current one, creating a ref that exists, removing or
// renaming one that does not, removing main, fast-forwarding to a snapshot that does not descend
// from the branch's head, using a tag as a branch.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/table/update/pending_update.h"

namespace floe::table {

class ManageSnapshots : public PendingUpdate {
 public:
  explicit ManageSnapshots(Table& table) : PendingUpdate(table) {}

  ManageSnapshots& SetCurrentSnapshot(int64_t snapshot_id);
  ManageSnapshots& RollbackTo(int64_t snapshot_id);
  // To the newest ancestor of the current snapshot older than timestamp_ms.
  ManageSnapshots& RollbackToTime(int64_t timestamp_ms);
  // At snapshot_id, or at the current snapshot when unset.
  ManageSnapshots& CreateBranch(std::string name, std::optional<int64_t> snapshot_id = {});
  ManageSnapshots& CreateTag(std::string name, int64_t snapshot_id);
  ManageSnapshots& RemoveBranch(std::string name);
  ManageSnapshots& RemoveTag(std::string name);
  ManageSnapshots& RenameBranch(std::string name, std::string new_name);
  ManageSnapshots& ReplaceBranch(std::string name, int64_t snapshot_id);
  ManageSnapshots& ReplaceTag(std::string name, int64_t snapshot_id);
  // Moves branch `name` to the head of `source` (a branch or tag), which must descend from it.
  ManageSnapshots& FastForwardBranch(std::string name, std::string source);
  ManageSnapshots& SetMinSnapshotsToKeep(std::string branch, int32_t count);
  ManageSnapshots& SetMaxSnapshotAgeMs(std::string branch, int64_t age_ms);
  ManageSnapshots& SetMaxRefAgeMs(std::string name, int64_t age_ms);

  Result<std::vector<catalog::TableUpdate>> Apply(const TableMetadata& base) override;

 private:
  using Refs = std::map<std::string, SnapshotRef, std::less<>>;
  using Step = std::function<Status(const TableMetadata&, Refs&)>;
  ManageSnapshots& Add(Step step);

  std::vector<Step> steps_;
};

// Whether ancestor_id is snapshot_id or one of its ancestors in base.
bool IsAncestorOf(const TableMetadata& base, int64_t snapshot_id, int64_t ancestor_id);

}  // namespace floe::table
