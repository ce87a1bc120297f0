#pragma once

// Deleting every file a table references, for drop-table-with-purge: data and delete files,
// manifests and manifest lists of every snapshot, statistics files, and the metadata files in the
// metadata log, as Iceberg Java's dropTableData does. The current metadata file is left to the
// caller, which decides when the table is gone.
//
// Deletion is best effort, as in Java: files that are already gone or cannot be deleted are
// skipped (they are garbage either way); a manifest or manifest list that cannot be read is an
// error, because the files it names could not be found.

#include "floe/spec/table_metadata.h"
#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::catalog {

Status DeleteTableFiles(io::FileIO& io, const TableMetadata& metadata);

}  // namespace floe::catalog
