#include "floe/table/update/merge_append.h"

namespace floe::table {

MergeAppend& MergeAppend::AppendFile(manifest::DataFile file) {
  AddFile(std::move(file));
  return *this;
}

Status MergeAppend::Validate(const TableMetadata& base, const Snapshot* parent) {
  (void)parent;
  for (const manifest::ManifestEntry& entry : added()) {
    FLOE_RETURN_IF_ERROR(CheckAddedFile(base, entry.data_file, /*deletes_allowed=*/false));
  }
  return Ok();
}

}  // namespace floe::table
