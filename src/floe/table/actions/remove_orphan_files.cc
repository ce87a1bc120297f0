#include "floe/table/actions/remove_orphan_files.h"

#include <fmt/format.h>

#include <chrono>
#include <set>

#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/table/update/reachable_files.h"

namespace floe::table {
namespace {

constexpr int64_t kDefaultAgeMs = 3LL * 24 * 60 * 60 * 1000;

// One spelling per file: s3a:// and s3n:// as s3://, file: URIs as their path, normalized.
std::string Canonical(std::string_view location) {
  std::string_view scheme = io::LocationScheme(location);
  if (scheme == "file") {
    if (auto path = io::ToLocalPath(location)) return io::NormalizeLocation(*path);
  }
  if (scheme == "s3a" || scheme == "s3n") {
    return io::NormalizeLocation("s3" + std::string(location.substr(scheme.size())));
  }
  return io::NormalizeLocation(location);
}

}  // namespace

Result<RemoveOrphanFilesResult> RemoveOrphanFiles(Table& table,
                                                  const RemoveOrphanFilesOptions& options) {
  FLOE_RETURN_IF_ERROR(table.Refresh());
  TableMetadataPtr metadata = table.metadata();
  io::FileIO& io = *table.io();
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  const int64_t older_than = options.older_than_ms.value_or(now_ms - kDefaultAgeMs);
  const std::string folder = options.location.value_or(metadata->location());

  FLOE_ASSIGN_OR_RETURN(ReachableFiles reachable, CollectReachableFiles(io, *metadata));
  std::set<std::string> kept;
  for (const auto* group : {&reachable.manifest_lists, &reachable.manifests,
                            &reachable.content_files, &reachable.statistics_files}) {
    for (const std::string& location : *group) kept.insert(Canonical(location));
  }
  kept.insert(Canonical(table.metadata_location()));
  for (const MetadataLogEntry& entry : metadata->metadata_log()) {
    kept.insert(Canonical(entry.metadata_file));
  }

  FLOE_ASSIGN_OR_RETURN(std::vector<io::FileEntry> entries, io.ListRecursive(folder));
  RemoveOrphanFilesResult result;
  for (const io::FileEntry& entry : entries) {
    if (entry.is_dir || io::FileName(entry.location) == "version-hint.text") continue;
    if (entry.modified_ms == 0 || entry.modified_ms >= older_than) continue;
    if (kept.contains(Canonical(entry.location))) continue;
    result.orphan_files.push_back(entry.location);
  }
  if (options.dry_run) return result;
  for (size_t i = 0; i < result.orphan_files.size(); ++i) {
    Status deleted = io.Delete(result.orphan_files[i]);
    if (!deleted && deleted.error().kind() != ErrorKind::kNotFound) {
      return std::unexpected(std::move(deleted.error().AddContext(
          fmt::format("remove_orphan_files: {} of {} orphans deleted before this one", i,
                      result.orphan_files.size()))));
    }
  }
  return result;
}

}  // namespace floe::table
