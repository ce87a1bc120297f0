#include "floe/table/update/rewrite_files.h"

namespace floe::table {

RewriteFiles& RewriteFiles::DeleteFile(const manifest::DataFile& file) {
  Removal& removal =
      file.content == manifest::FileContent::kData ? data_removal() : delete_removal();
  removal.paths.insert(file.file_path);
  removal.fail_missing_paths = true;
  if (file.content == manifest::FileContent::kData) replaced_data_.push_back(file);
  return *this;
}

RewriteFiles& RewriteFiles::AddFile(manifest::DataFile file) {
  new_files_.push_back(std::move(file));
  return *this;
}

RewriteFiles& RewriteFiles::DataSequenceNumber(int64_t sequence_number) {
  data_sequence_number_ = sequence_number;
  return *this;
}

RewriteFiles& RewriteFiles::ValidateFromSnapshot(int64_t snapshot_id) {
  starting_snapshot_id_ = snapshot_id;
  return *this;
}

Status RewriteFiles::Validate(const TableMetadata& base, const Snapshot* parent) {
  if (!files_added_) {
    // Added here, not in AddFile, so that DataSequenceNumber may be called in any order.
    for (manifest::DataFile& file : new_files_) {
      bool is_data = file.content == manifest::FileContent::kData;
      MergingSnapshotProducer::AddFile(std::move(file),
                                       is_data ? data_sequence_number_ : std::nullopt);
    }
    new_files_.clear();
    files_added_ = true;
  }
  if (data_removal().paths.empty() && delete_removal().paths.empty()) {
    return InvalidArgument("a rewrite must replace at least one file");
  }
  if (base.format_version() >= 2 && parent) {
    FLOE_RETURN_IF_ERROR(ValidateNoNewDeletesFor(base, parent, replaced_data_));
  }
  return Ok();
}

}  // namespace floe::table
