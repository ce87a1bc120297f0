#include "floe/stream/iceberg/committed_positions.h"

#include <fmt/format.h>

#include <algorithm>

#include "floe/stream/iceberg/sink_committer.h"

namespace floe::stream {

std::vector<std::string> CommittedReaderPositions(const TableMetadata& metadata,
                                                  std::string_view branch,
                                                  std::string_view source) {
  std::vector<std::string> positions;
  const SnapshotRef* ref = metadata.FindRef(branch);
  if (ref == nullptr) return positions;
  const std::string prefix = fmt::format("{}{}.", kSourcePositionPrefix, source);
  for (SnapshotPtr snapshot = metadata.SnapshotById(ref->snapshot_id); snapshot != nullptr;
       snapshot = snapshot->parent_snapshot_id
                      ? metadata.SnapshotById(*snapshot->parent_snapshot_id)
                      : nullptr) {
    // Keys are ordered: a snapshot's subtasks come together, one after the other.
    for (auto it = snapshot->summary.lower_bound(prefix);
         it != snapshot->summary.end() && it->first.starts_with(prefix); ++it) {
      std::string_view subtask = std::string_view(it->first).substr(prefix.size());
      if (!subtask.empty() && std::ranges::all_of(subtask, [](char c) {
            return c >= '0' && c <= '9';
          })) {
        positions.push_back(it->second);
      }
    }
  }
  return positions;
}

std::optional<std::string> CommittedOffsetsFrom(const TableMetadata& metadata,
                                                const Snapshot* snapshot, std::string_view source) {
  const std::string key = fmt::format("{}{}", kSourceOffsetsPrefix, source);
  while (snapshot != nullptr) {
    auto found = snapshot->summary.find(key);
    if (found != snapshot->summary.end()) return found->second;
    if (!snapshot->parent_snapshot_id) break;
    snapshot = metadata.SnapshotById(*snapshot->parent_snapshot_id).get();
  }
  return std::nullopt;
}

std::optional<std::string> BranchCommittedOffsets(const TableMetadata& metadata,
                                                  std::string_view branch,
                                                  std::string_view source) {
  const SnapshotRef* ref = metadata.FindRef(branch);
  if (ref == nullptr) return std::nullopt;
  return CommittedOffsetsFrom(metadata, metadata.SnapshotById(ref->snapshot_id).get(), source);
}

}  // namespace floe::stream
