#pragma once

// What one snapshot changed, whatever its operation: the data and delete files it added and
// removed (the entries of its own manifests that carry its snapshot id). Streaming reads use it
// to turn snapshots an append scan cannot express (overwrite, delete) into changes.
//
// Errors: kNotFound for an unknown snapshot id, and the manifest readers' errors with the
// manifest's location.

#include <cstdint>
#include <vector>

#include "floe/spec/table_metadata.h"
#include "floe/table/scan/file_scan_task.h"
#include "floe/table/scan/location_mapping.h"
#include "floe/util/error.h"

namespace floe::io {
class FileIO;
}

namespace floe::table {

struct ChangedFile {
  DataFilePtr file;  // with its column statistics; the path mapped when a mapping is given
  int64_t data_sequence_number = 0;
};

struct SnapshotChanges {
  SnapshotPtr snapshot;
  std::vector<ChangedFile> added_data_files;
  std::vector<ChangedFile> removed_data_files;
  std::vector<ChangedFile> added_delete_files;
  std::vector<ChangedFile> removed_delete_files;
};

// io reads the manifest list and manifests (mapping is applied to their locations too). Files
// come in manifest list order, then entry order.
Result<SnapshotChanges> ReadSnapshotChanges(const TableMetadata& metadata, io::FileIO& io,
                                            int64_t snapshot_id,
                                            const LocationMapping& mapping = {});

}  // namespace floe::table
