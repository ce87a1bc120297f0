#include "floe/table/update/manage_snapshots.h"

namespace floe::table {
namespace {

Status CheckSnapshot(const TableMetadata& base, int64_t snapshot_id) {
  if (!base.SnapshotById(snapshot_id)) {
    return InvalidArgument("snapshot {} is not in the table", snapshot_id);
  }
  return Ok();
}

Result<SnapshotRef*> FindBranch(std::map<std::string, SnapshotRef, std::less<>>& refs,
                                std::string_view name) {
  auto it = refs.find(name);
  if (it == refs.end()) return InvalidArgument("branch '{}' does not exist", name);
  if (!it->second.is_branch()) return InvalidArgument("'{}' is a tag, not a branch", name);
  return &it->second;
}

Status MoveMain(const TableMetadata& base, std::map<std::string, SnapshotRef, std::less<>>& refs,
                int64_t snapshot_id) {
  FLOE_RETURN_IF_ERROR(CheckSnapshot(base, snapshot_id));
  auto it = refs.find(SnapshotRef::kMainBranch);
  if (it == refs.end()) {
    refs.emplace(std::string(SnapshotRef::kMainBranch), SnapshotRef{.snapshot_id = snapshot_id});
  } else {
    it->second.snapshot_id = snapshot_id;
  }
  return Ok();
}

}  // namespace

bool IsAncestorOf(const TableMetadata& base, int64_t snapshot_id, int64_t ancestor_id) {
  std::optional<int64_t> id = snapshot_id;
  while (id) {
    if (*id == ancestor_id) return true;
    SnapshotPtr snapshot = base.SnapshotById(*id);
    if (!snapshot) return false;
    id = snapshot->parent_snapshot_id;
  }
  return false;
}

ManageSnapshots& ManageSnapshots::Add(Step step) {
  steps_.push_back(std::move(step));
  return *this;
}

ManageSnapshots& ManageSnapshots::SetCurrentSnapshot(int64_t snapshot_id) {
  return Add([snapshot_id](const TableMetadata& base, Refs& refs) {
    return MoveMain(base, refs, snapshot_id);
  });
}

ManageSnapshots& ManageSnapshots::RollbackTo(int64_t snapshot_id) {
  return Add([snapshot_id](const TableMetadata& base, Refs& refs) -> Status {
    auto main = refs.find(SnapshotRef::kMainBranch);
    if (main == refs.end() || !IsAncestorOf(base, main->second.snapshot_id, snapshot_id)) {
      return InvalidArgument("cannot roll back to snapshot {}: not an ancestor of the current",
                             snapshot_id);
    }
    return MoveMain(base, refs, snapshot_id);
  });
}

ManageSnapshots& ManageSnapshots::RollbackToTime(int64_t timestamp_ms) {
  return Add([timestamp_ms](const TableMetadata& base, Refs& refs) -> Status {
    auto main = refs.find(SnapshotRef::kMainBranch);
    std::optional<int64_t> id;
    if (main != refs.end()) id = main->second.snapshot_id;
    while (id) {
      SnapshotPtr snapshot = base.SnapshotById(*id);
      if (!snapshot) break;
      if (snapshot->timestamp_ms < timestamp_ms) return MoveMain(base, refs, *id);
      id = snapshot->parent_snapshot_id;
    }
    return InvalidArgument("cannot roll back: no ancestor of the current snapshot is older than {}",
                           timestamp_ms);
  });
}

ManageSnapshots& ManageSnapshots::CreateBranch(std::string name,
                                               std::optional<int64_t> snapshot_id) {
  return Add(
      [name = std::move(name), snapshot_id](const TableMetadata& base, Refs& refs) -> Status {
        if (refs.contains(name)) return InvalidArgument("ref '{}' already exists", name);
        std::optional<int64_t> id = snapshot_id;
        if (!id) {
          auto main = refs.find(SnapshotRef::kMainBranch);
          if (main == refs.end()) {
            return InvalidArgument("cannot create branch '{}': the table has no snapshot", name);
          }
          id = main->second.snapshot_id;
        }
        FLOE_RETURN_IF_ERROR(CheckSnapshot(base, *id));
        refs.emplace(name, SnapshotRef{.snapshot_id = *id, .type = SnapshotRefType::kBranch});
        return Ok();
      });
}

ManageSnapshots& ManageSnapshots::CreateTag(std::string name, int64_t snapshot_id) {
  return Add(
      [name = std::move(name), snapshot_id](const TableMetadata& base, Refs& refs) -> Status {
        if (refs.contains(name)) return InvalidArgument("ref '{}' already exists", name);
        FLOE_RETURN_IF_ERROR(CheckSnapshot(base, snapshot_id));
        refs.emplace(name, SnapshotRef{.snapshot_id = snapshot_id, .type = SnapshotRefType::kTag});
        return Ok();
      });
}

ManageSnapshots& ManageSnapshots::RemoveBranch(std::string name) {
  return Add([name = std::move(name)](const TableMetadata&, Refs& refs) -> Status {
    if (name == SnapshotRef::kMainBranch) return InvalidArgument("cannot remove branch main");
    FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, name));
    (void)ref;
    refs.erase(name);
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::RemoveTag(std::string name) {
  return Add([name = std::move(name)](const TableMetadata&, Refs& refs) -> Status {
    auto it = refs.find(name);
    if (it == refs.end() || it->second.is_branch()) {
      return InvalidArgument("tag '{}' does not exist", name);
    }
    refs.erase(it);
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::RenameBranch(std::string name, std::string new_name) {
  return Add([name = std::move(name), new_name = std::move(new_name)](const TableMetadata&,
                                                                      Refs& refs) -> Status {
    if (name == SnapshotRef::kMainBranch) return InvalidArgument("cannot rename branch main");
    FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, name));
    if (refs.contains(new_name)) return InvalidArgument("ref '{}' already exists", new_name);
    SnapshotRef moved = *ref;
    refs.erase(name);
    refs.emplace(new_name, moved);
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::ReplaceBranch(std::string name, int64_t snapshot_id) {
  return Add(
      [name = std::move(name), snapshot_id](const TableMetadata& base, Refs& refs) -> Status {
        FLOE_RETURN_IF_ERROR(CheckSnapshot(base, snapshot_id));
        FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, name));
        ref->snapshot_id = snapshot_id;
        return Ok();
      });
}

ManageSnapshots& ManageSnapshots::ReplaceTag(std::string name, int64_t snapshot_id) {
  return Add(
      [name = std::move(name), snapshot_id](const TableMetadata& base, Refs& refs) -> Status {
        FLOE_RETURN_IF_ERROR(CheckSnapshot(base, snapshot_id));
        auto it = refs.find(name);
        if (it == refs.end() || it->second.is_branch()) {
          return InvalidArgument("tag '{}' does not exist", name);
        }
        it->second.snapshot_id = snapshot_id;
        return Ok();
      });
}

ManageSnapshots& ManageSnapshots::FastForwardBranch(std::string name, std::string source) {
  return Add([name = std::move(name), source = std::move(source)](const TableMetadata& base,
                                                                  Refs& refs) -> Status {
    FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, name));
    auto from = refs.find(source);
    if (from == refs.end()) return InvalidArgument("ref '{}' does not exist", source);
    if (!IsAncestorOf(base, from->second.snapshot_id, ref->snapshot_id)) {
      return InvalidArgument("cannot fast-forward '{}' to '{}': it is not an ancestor", name,
                             source);
    }
    ref->snapshot_id = from->second.snapshot_id;
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::SetMinSnapshotsToKeep(std::string branch, int32_t count) {
  return Add([branch = std::move(branch), count](const TableMetadata&, Refs& refs) -> Status {
    FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, branch));
    ref->min_snapshots_to_keep = count;
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::SetMaxSnapshotAgeMs(std::string branch, int64_t age_ms) {
  return Add([branch = std::move(branch), age_ms](const TableMetadata&, Refs& refs) -> Status {
    FLOE_ASSIGN_OR_RETURN(SnapshotRef * ref, FindBranch(refs, branch));
    ref->max_snapshot_age_ms = age_ms;
    return Ok();
  });
}

ManageSnapshots& ManageSnapshots::SetMaxRefAgeMs(std::string name, int64_t age_ms) {
  return Add([name = std::move(name), age_ms](const TableMetadata&, Refs& refs) -> Status {
    auto it = refs.find(name);
    if (it == refs.end()) return InvalidArgument("ref '{}' does not exist", name);
    it->second.max_ref_age_ms = age_ms;
    return Ok();
  });
}

Result<std::vector<catalog::TableUpdate>> ManageSnapshots::Apply(const TableMetadata& base) {
  Refs refs = base.refs();
  for (const Step& step : steps_) FLOE_RETURN_IF_ERROR(step(base, refs));
  std::vector<catalog::TableUpdate> updates;
  for (const auto& [name, ref] : base.refs()) {
    if (!refs.contains(name)) updates.push_back(catalog::RemoveSnapshotRef{name});
  }
  for (const auto& [name, ref] : refs) {
    const SnapshotRef* old = base.FindRef(name);
    if (!old || !(*old == ref)) updates.push_back(catalog::SetSnapshotRef{name, ref});
  }
  return updates;
}

}  // namespace floe::table
