#include "floe/spec/snapshot.h"

namespace floe {

std::string_view Snapshot::operation() const {
  auto it = summary.find("operation");
  return it == summary.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view SnapshotRefTypeName(SnapshotRefType type) {
  return type == SnapshotRefType::kBranch ? "branch" : "tag";
}

}  // namespace floe
