#pragma once

// The files a table's metadata reaches: each snapshot's manifest list, its manifests, the data and
// delete files their live entries (ADDED, EXISTING) name, deletion vectors' Puffin files among
// them, and the table's statistics and partition statistics files. What expire_snapshots keeps
// and remove_orphan_files spares.
//
// Reads every manifest list and every distinct manifest once. Errors: a manifest list or manifest
// that cannot be read (the caller must not act on a partial set).

#include <set>
#include <string>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::table {

struct ReachableFiles {
  std::set<std::string> manifest_lists;
  std::set<std::string> manifests;
  std::set<std::string> content_files;  // data and delete files
  std::set<std::string> statistics_files;
};

Result<ReachableFiles> CollectReachableFiles(io::FileIO& io, const TableMetadata& metadata);

// The manifests of a snapshot: its manifest list's, or the v1 `manifests` field's.
Result<std::vector<manifest::ManifestFile>> SnapshotManifests(io::FileIO& io,
                                                              const Snapshot& snapshot);
// Every entry of a manifest, deleted ones included.
Result<std::vector<manifest::ManifestEntry>> ManifestEntries(
    io::FileIO& io, const manifest::ManifestFile& manifest);

}  // namespace floe::table
