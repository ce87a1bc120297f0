#pragma once

// The versioned metadata files of one file-system table folder (`metadata/v<N>.metadata.json` and
// `metadata/version-hint.text`), read and advanced as Iceberg's HadoopTableOperations does.
//
// Errors: kNotFound when the folder holds no table; kCommitFailed (retryable) when another writer
// created the next version first; kCommitStateUnknown when the new version was renamed into place
// but could not be made durable; kIO and friends from the FileIO otherwise (nothing committed).

#include <cstdint>
#include <optional>
#include <string>

#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::catalog {

struct TableVersion {
  // N of v<N>.metadata.json; 0 when the current file has another name (a table written with
  // metastore-style names), so that the next commit writes v1, which readers then prefer.
  int64_t version = 0;
  std::string location;
  TableMetadataPtr metadata;
};

// The current version: the version hint, then newer v<N> files probed past it (a committer may
// have died between its rename and its hint update), else the highest version listed.
Result<TableVersion> ReadCurrentVersion(io::FileIO& io, const std::string& table_folder);

// Writes metadata as version base_version + 1 (a temporary file synced, then renamed without
// replacing, then the folder synced) and then, best effort and unsynced, the version hint.
// Returns the new file's location.
Result<std::string> CommitNextVersion(io::FileIO& io, const std::string& table_folder,
                                      int64_t base_version, const TableMetadata& metadata);

}  // namespace floe::catalog
