#include "floe/catalog/rest/table_file_io_internal.h"
#include "floe/io/resolving_file_io.h"

namespace floe::catalog::rest {
namespace {

// Keys of a table's config that change how its files are reached.
bool ConcernsStorage(std::string_view key) {
  return key.starts_with("s3.") || key.starts_with("client.");
}

}  // namespace

TableFileIO::TableFileIO(StringMap catalog_properties)
    : catalog_properties_(std::move(catalog_properties)),
      default_(io::MakeFileIO(catalog_properties_)) {}

void TableFileIO::Put(const std::string& prefix, const StringMap& config) {
  bool concerns_storage = false;
  for (const auto& [key, value] : config) concerns_storage |= ConcernsStorage(key);
  if (!concerns_storage || prefix.empty()) return;
  StringMap merged = catalog_properties_;
  for (const auto& [key, value] : config) merged[key] = value;
  auto io = io::MakeFileIO(merged);
  std::lock_guard lock(mu_);
  by_prefix_[prefix] = std::move(io);
}

void TableFileIO::Configure(const std::string& location, const LoadTableResult& result) {
  Put(location, result.config);
  for (const StorageCredential& credential : result.storage_credentials) {
    StringMap config = result.config;
    for (const auto& [key, value] : credential.config) config[key] = value;
    Put(credential.prefix, config);
  }
}

std::shared_ptr<io::FileIO> TableFileIO::For(std::string_view location) {
  std::lock_guard lock(mu_);
  // The longest registered prefix of location: the last key not after it that it starts with.
  auto it = by_prefix_.upper_bound(location);
  while (it != by_prefix_.begin()) {
    --it;
    if (location.starts_with(it->first)) return it->second;
  }
  return default_;
}

Result<std::unique_ptr<io::InputFile>> TableFileIO::NewInputFile(std::string_view location) {
  return For(location)->NewInputFile(location);
}
Result<std::unique_ptr<io::InputFile>> TableFileIO::NewInputFileOfSize(std::string_view location,
                                                                       int64_t size) {
  return For(location)->NewInputFileOfSize(location, size);
}
Result<std::unique_ptr<io::OutputFile>> TableFileIO::NewOutputFile(std::string_view location) {
  return For(location)->NewOutputFile(location);
}
Result<io::FileEntry> TableFileIO::GetInfo(std::string_view location) {
  return For(location)->GetInfo(location);
}
Status TableFileIO::Delete(std::string_view location) { return For(location)->Delete(location); }
Result<std::vector<io::FileEntry>> TableFileIO::List(std::string_view folder) {
  return For(folder)->List(folder);
}
Status TableFileIO::CreateDirectories(std::string_view folder) {
  return For(folder)->CreateDirectories(folder);
}
Status TableFileIO::Rename(std::string_view from, std::string_view to) {
  return For(from)->Rename(from, to);
}
Status TableFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  return For(from)->RenameNoReplace(from, to);
}
Status TableFileIO::SyncDirectory(std::string_view folder) {
  return For(folder)->SyncDirectory(folder);
}
Result<bool> TableFileIO::SupportsExclusiveCreate(std::string_view folder) {
  return For(folder)->SupportsExclusiveCreate(folder);
}
Status TableFileIO::DeleteRecursive(std::string_view location) {
  return For(location)->DeleteRecursive(location);
}
Status TableFileIO::WriteWholeFile(std::string_view location, std::span<const std::byte> bytes,
                                   bool overwrite, bool durable) {
  std::shared_ptr<io::FileIO> io = For(location);
  if (durable) return io->WriteFileAtomically(location, bytes, overwrite);
  return io->ReplaceFileUnsynced(
      location, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace floe::catalog::rest
