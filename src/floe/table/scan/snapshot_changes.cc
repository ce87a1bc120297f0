#include "floe/table/scan/snapshot_changes.h"

#include "floe/io/file_io.h"
#include "floe/manifest/manifest_reader.h"

namespace floe::table {

Result<SnapshotChanges> ReadSnapshotChanges(const TableMetadata& metadata, io::FileIO& io,
                                            int64_t snapshot_id, const LocationMapping& mapping) {
  SnapshotChanges changes;
  changes.snapshot = metadata.SnapshotById(snapshot_id);
  if (!changes.snapshot) return NotFound("snapshot {} is not in the table", snapshot_id);
  if (changes.snapshot->manifest_list.empty()) {
    return Unsupported(
        "snapshot {} lists its manifests inline (v1): which entries it changed is "
        "not recorded",
        snapshot_id);
  }
  const std::string list_path = mapping.Apply(changes.snapshot->manifest_list);
  FLOE_ASSIGN_OR_RETURN(auto list_file, io.NewInputFile(list_path));
  auto list = manifest::ReadManifestList(*list_file);
  if (!list) return std::unexpected(std::move(list.error().AddContext(list_path)));
  for (const manifest::ManifestFile& m : *list) {
    // Only manifests the snapshot wrote hold entries with its id.
    if (m.added_snapshot_id != snapshot_id) continue;
    std::string path = mapping.Apply(m.manifest_path);
    FLOE_ASSIGN_OR_RETURN(auto input, io.NewInputFile(path));
    auto reader = manifest::ManifestReader::Open(*input, &m);
    if (!reader) return std::unexpected(std::move(reader.error().AddContext(path)));
    manifest::ManifestEntry entry;
    for (;;) {
      auto more = (*reader)->Next(entry);
      if (!more) return std::unexpected(std::move(more.error().AddContext(path)));
      if (!*more) break;
      if (entry.snapshot_id != snapshot_id || entry.status == manifest::EntryStatus::kExisting) {
        continue;
      }
      bool added = entry.status == manifest::EntryStatus::kAdded;
      bool data = entry.data_file.content == manifest::FileContent::kData;
      entry.data_file.file_path = mapping.Apply(entry.data_file.file_path);
      entry.data_file.spec_id = m.partition_spec_id;
      ChangedFile file{std::make_shared<const manifest::DataFile>(std::move(entry.data_file)),
                       entry.sequence_number.value_or(0)};
      (data ? (added ? changes.added_data_files : changes.removed_data_files)
            : (added ? changes.added_delete_files : changes.removed_delete_files))
          .push_back(std::move(file));
    }
  }
  return changes;
}

}  // namespace floe::table
