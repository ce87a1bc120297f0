#include "floe/catalog/hadoop/version_files.h"

#include <fmt/format.h>

#include "floe/catalog/metadata_files.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/table_metadata_io.h"

namespace floe::catalog {
namespace {

constexpr int kReadAttempts = 3;

}  // namespace

Result<TableVersion> ReadCurrentVersion(io::FileIO& io, const std::string& table_folder) {
  // A concurrent commit may delete old metadata files (write.metadata.delete-after-commit) between
  // finding the current file and reading it: look again, the newer file is then there.
  for (int attempt = 1;; ++attempt) {
    auto location = FindCurrentMetadataLocation(io, table_folder);
    if (!location) return std::unexpected(location.error());
    auto metadata = ReadTableMetadata(io, *location);
    if (!metadata) {
      if (metadata.error().kind() == ErrorKind::kNotFound && attempt < kReadAttempts) continue;
      return std::unexpected(metadata.error());
    }
    TableVersion current;
    std::string name = io::FileName(*location);
    if (name.starts_with('v')) current.version = ParseMetadataVersion(name).value_or(0);
    current.location = std::move(*location);
    current.metadata = std::move(*metadata);
    return current;
  }
}

Result<std::string> CommitNextVersion(io::FileIO& io, const std::string& table_folder,
                                      int64_t base_version, const TableMetadata& metadata) {
  int64_t version = base_version + 1;
  std::string folder = io::JoinLocation(table_folder, "metadata");
  FLOE_ASSIGN_OR_RETURN(std::string name, VersionedMetadataFileName(metadata, version));
  std::string location = io::JoinLocation(folder, name);
  // The atomic create: temporary file, fsync, rename without replacing, fsync of the folder.
  Status written = WriteTableMetadata(io, location, metadata, /*overwrite=*/false);
  if (!written) {
    if (written.error().kind() == ErrorKind::kAlreadyExists) {
      return std::unexpected(
          Error(ErrorKind::kCommitFailed,
                fmt::format("version {} of {} was committed concurrently", version, table_folder),
                /*retryable=*/true));
    }
    return std::unexpected(written.error());
  }
  // Readers probe past a stale hint, so failing to update it loses nothing.
  (void)io.WriteFileAtomically(io::JoinLocation(folder, "version-hint.text"),
                               fmt::format("{}", version), /*overwrite=*/true);
  return location;
}

}  // namespace floe::catalog
