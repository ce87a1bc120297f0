#include <fmt/format.h>

#include <cctype>

#include "floe/catalog/hadoop/version_files_internal.h"
#include "floe/catalog/metadata_files.h"
#include "floe/io/file_io.h"
#include "floe/io/location.h"
#include "floe/spec/table_metadata_io.h"

namespace floe::catalog {
namespace {

constexpr int kReadAttempts = 3;
constexpr std::string_view kSuffixes[] = {".metadata.json", ".gz.metadata.json",
                                          ".metadata.json.gz"};

// The file of version n in the metadata folder, in any compression spelling; "" when absent.
Result<std::string> FindVersion(io::FileIO& io, const std::string& folder, int64_t n) {
  for (std::string_view suffix : kSuffixes) {
    std::string location = io::JoinLocation(folder, fmt::format("v{}{}", n, suffix));
    FLOE_ASSIGN_OR_RETURN(bool exists, io.Exists(location));
    if (exists) return location;
  }
  return std::string();
}

// Iceberg Java's way: the version the hint names, then probing for newer ones, without listing
// the folder (which holds every manifest too). nullopt when the hint is missing or names no file,
// so the caller falls back to listing.
Result<std::optional<std::string>> FindByHint(io::FileIO& io, const std::string& table_folder) {
  std::string folder = io::JoinLocation(table_folder, "metadata");
  auto hint = io.ReadFile(io::JoinLocation(folder, "version-hint.text"));
  if (!hint) {
    if (hint.error().kind() == ErrorKind::kNotFound) return std::nullopt;
    return std::unexpected(hint.error());
  }
  std::string_view text = *hint;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  auto version = ParseMetadataVersion(fmt::format("v{}.metadata.json", text));
  if (!version) return std::nullopt;
  FLOE_ASSIGN_OR_RETURN(std::string current, FindVersion(io, folder, *version));
  if (current.empty()) return std::nullopt;
  for (int64_t next = *version + 1;; ++next) {
    FLOE_ASSIGN_OR_RETURN(std::string newer, FindVersion(io, folder, next));
    if (newer.empty()) return current;
    current = std::move(newer);
  }
}

}  // namespace

Result<TableVersion> ReadCurrentVersion(io::FileIO& io, const std::string& table_folder) {
  // A concurrent commit may delete old metadata files (write.metadata.delete-after-commit) between
  // finding the current file and reading it: look again, the newer file is then there.
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(std::optional<std::string> location, FindByHint(io, table_folder));
    if (!location) {
      auto listed = FindCurrentMetadataLocation(io, table_folder);
      if (!listed) return std::unexpected(listed.error());
      location = std::move(*listed);
    }
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
  // Two writers of one version must not both win; an object store that ignores conditional
  // writes would let them, and one commit would be lost.
  FLOE_ASSIGN_OR_RETURN(bool exclusive, io.SupportsExclusiveCreate(folder));
  if (!exclusive) {
    return Unsupported(
        "committing {}: the store does not honour conditional writes (If-None-Match: *), so two "
        "writers could both commit version {} and one commit would be lost; use a sql catalog "
        "for tables on this store",
        table_folder, version);
  }
  // The atomic create: temporary file, fsync, rename without replacing, fsync of the folder
  // (on an object store, one conditional PUT).
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
  // Readers probe past a stale hint and list the folder without a readable one, so failing to
  // update it, or losing the update in a crash, loses nothing: it is not synced.
  (void)io.ReplaceFileUnsynced(io::JoinLocation(folder, "version-hint.text"),
                               fmt::format("{}", version));
  return location;
}

}  // namespace floe::catalog
