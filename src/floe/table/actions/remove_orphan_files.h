#pragma once

// Deletes the files under a table's location that its metadata does not reach (Spark's
// remove_orphan_files): files left by writers that failed or were killed before their commit,
// and by commits whose outcome was unknown. Reached, and so kept, are what CollectReachableFiles
// gives (table/update/reachable_files.h), the current metadata file and every metadata file of
// the metadata log, and the hadoop catalog's version-hint.text.
//
// Only files last modified before older_than are candidates: a file a running writer has written
// but not yet committed (a streaming job's files wait for their checkpoint) looks like an orphan
// until its commit lands, so older_than must lie before the start of any write still in flight.
// The default is 3 days ago, as Spark's. A file whose store gives no modification time is kept.
// Locations are compared with s3, s3a and s3n taken as one scheme, and file: URIs as plain paths.
//
//   RemoveOrphanFilesOptions options{.older_than_ms = now_ms - 24 * 3600 * 1000, .dry_run = true};
//   FLOE_ASSIGN_OR_RETURN(RemoveOrphanFilesResult found, RemoveOrphanFiles(table, options));
//
// Errors: a manifest or manifest list that cannot be read stops it before anything is deleted;
// a file that cannot be deleted stops it there, with the files deleted so far reported in the
// error's message.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/table/table.h"
#include "floe/util/error.h"

namespace floe::table {

struct RemoveOrphanFilesOptions {
  // Unset: 3 days before now.
  std::optional<int64_t> older_than_ms;
  // The folder to search; unset: the table's location.
  std::optional<std::string> location;
  // List the orphans without deleting them.
  bool dry_run = false;
};

struct RemoveOrphanFilesResult {
  std::vector<std::string> orphan_files;  // deleted, or with dry_run the ones that would be
};

Result<RemoveOrphanFilesResult> RemoveOrphanFiles(Table& table,
                                                  const RemoveOrphanFilesOptions& options);

}  // namespace floe::table
